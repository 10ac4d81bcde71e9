// Evidence for every value at the header: every weekday of a store card has a source (MISSING_DAYS),
// and a field sent empty for lack of a column is refused while columns go unused (UNUSED_COLUMNS).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { compilePlan } from '../../src/map/column-plan.js';
import { dayCodes, parseDayList } from '../../src/map/closed-days.js';
import { loadMapping } from '../../src/map/mapping-file.js';
import type { Kind } from '../../src/contract/kinds.js';

const WEEK = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const plan = (kind: Kind, columns: string[], map?: string, closedDays?: string) =>
  compilePlan(kind, columns, { mapping: loadMapping(map, kind, { closedDays }), line: 1, perRecordColumns: false });
const codes = (p: { issues: readonly { code: string }[] }) => p.issues.map((i) => i.code);

describe('--closed-days', () => {
  it.each([
    ['Sa,Su', [0, 6]],
    ['Sa-Su', [0, 6]],
    ['saturday, Sunday', [0, 6]],
    ['Mo-Fr', [1, 2, 3, 4, 5]],
    ['Fr-Mo', [0, 1, 5, 6]],
    ['0,6', [0, 6]],
    ['Sonntag', [0]],
  ])('%j is %j', (text, days) => {
    expect(parseDayList(text)).toEqual({ days });
  });

  it.each(['', 'Sa,', 'Funday', 'Di', 'Mo-Fr-Sa'])('%j is refused: an unclear day is never guessed', (text) => {
    expect(parseDayList(text)).toHaveProperty('error');
  });

  it('writes days back Monday first, as the flag takes them', () => {
    expect(dayCodes([0, 6, 1])).toBe('Mo,Sa,Su');
  });
});

describe('MISSING_DAYS', () => {
  it('a full week of day columns, or a week column, accounts for every day', () => {
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', ...WEEK]))).toEqual([]);
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'opening_hours']))).toEqual([]);
  });

  it('days with no column are refused, naming the days and the flag', () => {
    const p = plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'Mo-Fr']);
    // Every column is placed, so the records are still read and checked: all problems in one pass.
    expect(p.fatal).toBe(false);
    expect(p.issues).toEqual([
      expect.objectContaining({ severity: 'error', code: 'MISSING_DAYS', line: 1, value: 'Sa,Su', message: expect.stringContaining('--closed-days Sa,Su') }),
    ]);
    expect(p.issues[0]!.message).toMatch(/^Saturday and Sunday have no column in the file, so they would be sent as closed/);
  });

  it('declared closed days settle it; a declared day that has a column is two answers', () => {
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'Mo-Fr'], undefined, 'Sa,Su'))).toEqual([]);
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'Mo-Fr'], '{"closedDays": ["Sa", "Su"]}'))).toEqual([]);
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', ...WEEK], undefined, 'Su'))).toEqual(['HOURS_TWICE']);
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'hours'], undefined, 'Su'))).toEqual(['HOURS_TWICE']);
  });

  it('names the unused columns and the exact --map line that pairs them with the days', () => {
    // Finnish, a language the tool does not know, beside English Sat and Sun.
    const pt = ['maanantai', 'tiistai', 'keskiviikko', 'torstai', 'perjantai'];
    const p = plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', ...pt, 'Sat', 'Sun']);
    const missing = p.issues.find((i) => i.code === 'MISSING_DAYS')!;
    expect(missing.column).toBe('maanantai');
    const line = /--map '([^']+)'/.exec(missing.message)![1]!;
    expect(JSON.parse(line)).toEqual({ opentToGuestsPeriod: { Mo: pt[0], Tu: pt[1], We: pt[2], Th: pt[3], Fr: pt[4] } });
    // The line it gives is the answer: with it, the header is complete.
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', ...pt, 'Sat', 'Sun'], line))).toEqual([]);
  });

  it('a whole week in one unknown column: the line maps it as the week', () => {
    const p = plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'Aukioloajat']);
    const line = /--map '([^']+)'/.exec(p.issues.find((i) => i.code === 'MISSING_DAYS')!.message)![1]!;
    expect(JSON.parse(line)).toEqual({ opentToGuestsPeriod: 'Aukioloajat' });
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'Aukioloajat'], line))).toEqual([]);
  });

  it('a mapped day column feeds its day; a pair maps opening and closing', () => {
    const p = plan(
      'store-cards',
      ['nodeKey', 'email', 'storeConceptCode', 'Mo-Sa', 'Dom abre', 'Dom fecha'],
      '{"opentToGuestsPeriod": {"Su": {"since": "Dom abre", "to": "Dom fecha"}}}',
    );
    expect(codes(p)).toEqual([]);
    expect(p.days[0]).toEqual({ layout: 'pair', since: 4, to: 5 });
  });

  it('a column name with a quote is quoted for the shell', () => {
    const p = plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', "Store's week"]);
    expect(p.issues.find((i) => i.code === 'MISSING_DAYS')!.message).toContain(`--map '{"opentToGuestsPeriod":"Store'\\''s week"}'`);
  });

  it('a column placed nowhere leaves its day missing all the same, and is named as unused', () => {
    const p = plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'Monday', 'Tuesday', 'Wednsday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(codes(p)).toEqual(['UNPLACED_COLUMN', 'MISSING_DAYS']);
    expect(JSON.parse(/--map '([^']+)'/.exec(p.issues[1]!.message)![1]!)).toEqual({ opentToGuestsPeriod: { We: 'Wednsday' } });
  });

  it('day columns that cannot be read are said alone: "missing" would be a guess', () => {
    expect(codes(plan('store-cards', ['nodeKey', 'email', 'storeConceptCode', 'Di']))).toEqual(['AMBIGUOUS_WEEKDAY']);
  });
});

describe('UNUSED_COLUMNS', () => {
  it('a field sent empty for lack of a column while columns go unused: an error naming both', () => {
    const p = plan('team-members', ['employeeID', 'email', 'name', 'Funktion', 'Filiale']);
    const found = p.issues.find((i) => i.code === 'UNUSED_COLUMNS')!;
    expect(found).toMatchObject({ severity: 'error', field: 'roleCode,parentKey', column: 'Funktion' });
    expect(found.message).toContain("--ignore-column 'Funktion' --ignore-column 'Filiale'");
  });

  it('settled by mapping the field, or by leaving the columns out', () => {
    expect(codes(plan('team-members', ['employeeID', 'email', 'name', 'Funktion', 'Filiale'], '{"roleCode": "Funktion", "parentKey": "Filiale"}'))).toEqual([]);
    expect(codes(plan('team-members', ['employeeID', 'email', 'name', 'Funktion', 'Filiale'], '{"ignore": ["Funktion", "Filiale"]}'))).toEqual([]);
  });

  it('unused columns alone stay a warning; a missing field alone is no error', () => {
    expect(codes(plan('team-members', ['employeeID', 'email', 'name', 'roleCode', 'parentKey', 'Department']))).toEqual(['UNKNOWN_COLUMN']);
    expect(codes(plan('team-members', ['employeeID', 'email', 'name']))).toEqual([]);
    expect(codes(plan('store-cards', ['nodeKey', 'email', ...WEEK, 'Remarks']))).toEqual(['UNKNOWN_COLUMN', 'UNUSED_COLUMNS']);
  });
});

describe('the mapping of days', () => {
  it.each([
    ['{"opentToGuestsPeriod": {"Funday": "X"}}'],
    ['{"opentToGuestsPeriod": {"Mo": "X", "monday": "Y"}}'],
    ['{"opentToGuestsPeriod": {"Mo": {"since": "X"}}}'],
    ['{"closedDays": "Sa,Funday"}'],
  ])('%s is BAD_MAPPING', (map) => {
    expect(() => loadMapping(map, 'store-cards')).toThrow(UsageError);
  });

  it('the flag and the mapping must agree', () => {
    expect(() => loadMapping('{"closedDays": "Su"}', 'store-cards', { closedDays: 'Sa,Su' })).toThrow(/contradicts/);
    expect(loadMapping('{"closedDays": "Su"}', 'store-cards', { closedDays: 'Su' }).closedDays).toEqual([0]);
  });
});

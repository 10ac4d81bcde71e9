// Headers naming several days (`Mo-Fr`, `Weekdays`, `Montag bis Freitag`) and later periods of a day
// (`Monday Afternoon`, `Mo Open 2`), in six languages (issue 20).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, weekdays } from '../../src/map/weekdays.js';
import { hoursColumn } from '../../src/map/layout.js';
import { compilePlan } from '../../src/map/column-plan.js';
import { mapRecord } from '../../src/map/record.js';

// Where each column goes, alone: these headers name only some days, which the file-level accounting
// (MISSING_DAYS, UNUSED_COLUMNS; test/unit/accounting.test.ts) would refuse on top.
const plan = (columns: string[], mapping = {}) => {
  const p = compilePlan('store-cards', ['nodeKey', 'email', ...columns], { mapping, line: 1, perRecordColumns: false });
  return { ...p, issues: p.issues.filter((i) => i.code !== 'MISSING_DAYS' && i.code !== 'UNUSED_COLUMNS') };
};

/** Which column feeds each day, Monday first: `Mo-Fr` for Monday to Friday. */
const fed = (columns: string[]) => {
  const p = plan(columns);
  const name = (d: (typeof p.days)[number]) =>
    d === undefined ? null : d.layout === 'range' ? p.columns[d.index] : `${p.columns[d.since!]}|${p.columns[d.to!]}`;
  return { days: [1, 2, 3, 4, 5, 6, 0].map((day) => name(p.days[day])), codes: p.issues.map((i) => i.code) };
};

describe('a header naming a range of days feeds each of them', () => {
  it.each([
    [['Mo-Fr', 'Sa', 'So']],
    [['Mon–Fri', 'Sat', 'Sun']],
    [['Weekdays', 'Saturday', 'Sunday']],
    [['Montag bis Freitag', 'Samstag', 'Sonntag']],
    [['lun.-ven.', 'sam.', 'dim.']],
    [['Lu-Ve', 'Sa', 'Do']],
    [['Ma-Vr', 'Za', 'Zo']],
    [['Öffnungszeiten Mo-Fr', 'Öffnungszeiten Sa', 'Öffnungszeiten So']],
    [['Werktags', 'Samstag', 'Sonntag']],
    [['lunedì-venerdì', 'sabato', 'domenica']],
    [['Lunes a Viernes', 'Sábado', 'Domingo']],
    [['ma t/m vr', 'za', 'zo']],
  ])('%j', (columns) => {
    const { days, codes } = fed(columns);
    expect(codes).toEqual([]);
    expect(days).toEqual([columns[0], columns[0], columns[0], columns[0], columns[0], columns[1], columns[2]]);
  });

  it('`Ma-Vr` is Dutch because `vr` is Dutch only: ma is Monday', () => {
    expect(fed(['Ma-Vr']).days).toEqual(['Ma-Vr', 'Ma-Vr', 'Ma-Vr', 'Ma-Vr', 'Ma-Vr', null, null]);
  });

  it('a range and a day column for the same day is HOURS_TWICE', () => {
    expect(fed(['Mo-Fr', 'Fr']).codes).toEqual(['HOURS_TWICE']);
  });

  it('pairs over ranges: `Mo-Fr von` / `Mo-Fr bis`', () => {
    expect(fed(['Mo-Fr von', 'Mo-Fr bis']).days.slice(0, 5)).toEqual(Array(5).fill('Mo-Fr von|Mo-Fr bis'));
  });

  it.each([
    ['Monday notes', 'notes'],
    ['Mon-Frei', 'Frei'],
    ['Montag bis Freitgg', 'bis Freitgg'],
  ])('%j names days with words it does not know: an error, never a closed day', (column, rest) => {
    const p = plan([column]);
    expect(p.issues.map((i) => i.code)).toEqual(['UNPLACED_COLUMN']);
    expect(p.issues[0]!.message).toContain(`'${rest}' is not understood`);
  });

  it.each(['Do Not Call', 'Sat Nav', 'Mar Code'])('%j: one short name is too weak a sign, the column is only unused', (column) => {
    expect(plan([column]).issues.map((i) => i.code)).toEqual(['UNKNOWN_COLUMN']);
  });
});

describe('two periods of a day in two columns', () => {
  const header = ['Monday Morning', 'Monday Afternoon'];
  const map = (cells: string[], splitHours?: 'span') =>
    mapRecord(plan(header, { splitHours }), { line: 2, columns: ['nodeKey', 'email', ...header], cells: ['S1', 's@example.com', ...cells] });

  it('one period filled is that period', () => {
    expect(map(['9-12', '']).candidate.opentToGuestsPeriod).toEqual({ '1': { since: 9, to: 12 } });
    expect(map(['', '14-18']).candidate.opentToGuestsPeriod).toEqual({ '1': { since: 14, to: 18 } });
  });

  it('both filled is SPLIT_HOURS, saying the service holds one period', () => {
    const { issues } = map(['9-12', '14-18']);
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'SPLIT_HOURS',
        column: 'Monday Morning',
        field: 'opentToGuestsPeriod.1',
        message: expect.stringContaining('one period per day'),
      }),
    ]);
  });

  it('with --split-hours span: first opening to last closing', () => {
    expect(map(['9-12', '14-18'], 'span')).toEqual({
      candidate: expect.objectContaining({ opentToGuestsPeriod: { '1': { since: 9, to: 18 } } }),
      issues: undefined,
    });
  });

  it.each([
    [['Mo Open', 'Mo Close', 'Mo Open 2', 'Mo Close 2']],
    [['Montag vormittags von', 'Montag vormittags bis', 'Montag nachmittags von', 'Montag nachmittags bis']],
    [['lundi matin', 'lundi après-midi']],
    [['Monday AM', 'Monday PM']],
  ])('%j are two periods of Monday', (columns) => {
    const p = plan(columns);
    expect(p.issues).toEqual([]);
    expect(p.days[1]).toBeDefined();
    expect(p.later[1]).toHaveLength(1);
  });
});

describe('a range cell feeding five days', () => {
  it('an unreadable cell is one error naming the days, not five', () => {
    const p = plan(['Mo-Fr']);
    const { issues } = mapRecord(p, { line: 2, columns: p.columns, cells: ['S1', 's@example.com', 'nine'] });
    expect(issues).toHaveLength(1);
    expect(issues![0]!.message).toMatch(/^Monday to Friday: /);
  });
});

describe('property: a range of full day names in any language feeds exactly the days from one to the other', () => {
  it('`<from><joint><to>` → from, from+1, …, to (forward through the week)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGUAGES),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('-', ' - ', '–', ' to ', ' bis ', ' au ', ' t/m '),
        fc.constantFrom(
          (s: string) => s,
          (s: string) => s.toUpperCase(),
          (s: string) => s[0]!.toUpperCase() + s.slice(1),
        ),
        (language, from, length, joint, cased) => {
          const to = (from + length) % 7;
          const column = `${cased(weekdays()[language][from]![0]!)}${joint}${cased(weekdays()[language][to]![0]!)}`;
          const p = plan([column]);
          expect(p.issues, column).toEqual([]);
          const fedDays = [0, 1, 2, 3, 4, 5, 6].filter((d) => p.days[d] !== undefined);
          const expected = Array.from({ length: length + 1 }, (_, k) => (from + k) % 7).sort();
          expect(fedDays, column).toEqual(expected);
        },
      ),
    );
  });
});

it('property: any header name is placed, refused or left unused, never thrown on', () => {
  const pieces = ['Mo', 'Fr', 'Monday', '-', ' ', '_', '2', 'Open', 'bis', 't/m', 'Öffnungszeiten', 'AM', 'notes', ',', '/', 'weekend', 'en', 'semaine'];
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((a) => a.join('')),
      ),
      (column) => {
        const found = hoursColumn(column);
        expect(found === undefined || typeof found.role === 'string').toBe(true);
      },
    ),
    { numRuns: 2000 },
  );
});

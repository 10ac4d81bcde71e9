// Spanish one-letter days (L M X J V S D): read where one reading is left, an error that says what
// to write where not (issue 20). In a week cell and in a header.
import { describe, expect, it } from 'vitest';
import { hoursFromJson } from '../../src/map/hours-json.js';
import { compilePlan } from '../../src/map/column-plan.js';
import { hoursColumn } from '../../src/map/layout.js';

const nine = { since: 9, to: 18 };
const week = (days: number[], hours = nine) => Object.fromEntries(days.map((d) => [String(d), hours]));

describe('a week cell with one-letter days', () => {
  it.each([
    ['L-V 9-18', week([1, 2, 3, 4, 5])],
    ['L a V de 9 a 18', week([1, 2, 3, 4, 5])],
    ['de L a V 9:00-18:00', week([1, 2, 3, 4, 5])],
    ['L-S 9-18', week([1, 2, 3, 4, 5, 6])],
    ['L, M, X, J, V 9-18', week([1, 2, 3, 4, 5])],
    ['X 9-18, S-D 9-18', week([3, 6, 0])],
    ['L-V 9-18; S 9-14', { ...week([1, 2, 3, 4, 5]), '6': { since: 9, to: 14 } }],
    ['L-J 9-18, V 9-14, S y D cerrado', { ...week([1, 2, 3, 4]), '5': { since: 9, to: 14 } }],
    ['l.-v. 9-18', week([1, 2, 3, 4, 5])],
  ])('%j', (text, period) => {
    expect(hoursFromJson(text)).toEqual({ period });
  });

  it.each([
    // A letter alone could be any language's day.
    ['S 9-14', "'S' is a one-letter day on its own"],
    ['D cerrado', "'D' is a one-letter day on its own"],
    // M is mardi or mercredi in French, Monday in English: read as martes only beside X.
    ['M-V 9-18', "'M' could be martes (Spanish), mardi or mercredi (French)"],
    ['L, M 9-18', 'write Ma or martes for Tuesday, or use X for miércoles beside it'],
    // English M-F has no Spanish reading at all.
    ['M-F 9-17', 'write it as Mo-Fr 09:00-18:00'],
  ])('%j is refused, saying what to write', (text, why) => {
    const result = hoursFromJson(text);
    expect(result.period).toEqual({});
    expect(result.problems).toEqual([{ day: undefined, message: expect.stringContaining(why) }]);
  });

  it('letters beside Spanish short names are Spanish: L-V with Do is domingo', () => {
    expect(hoursFromJson('L-V 9-18, Do 10-14')).toEqual({ period: { ...week([1, 2, 3, 4, 5]), '0': { since: 10, to: 14 } } });
  });
});

describe('a header with one-letter days', () => {
  const plan = (columns: string[]) => compilePlan('store-cards', ['nodeKey', 'email', ...columns], { mapping: {}, line: 1, perRecordColumns: false });
  const fed = (columns: string[]) => {
    const p = plan(columns);
    return {
      days: [1, 2, 3, 4, 5, 6, 0].map((day) => (p.days[day]?.layout === 'range' ? p.columns[p.days[day].index] : null)),
      codes: p.issues.map((i) => i.code),
    };
  };

  it.each([
    [
      ['L-V', 'S', 'D'],
      ['L-V', 'L-V', 'L-V', 'L-V', 'L-V', 'S', 'D'],
    ],
    [
      ['L', 'M', 'X', 'J', 'V', 'S', 'D'],
      ['L', 'M', 'X', 'J', 'V', 'S', 'D'],
    ],
    [
      ['L a V', 'S-D'],
      ['L a V', 'L a V', 'L a V', 'L a V', 'L a V', 'S-D', 'S-D'],
    ],
  ])('%j', (columns, days) => {
    expect(fed(columns)).toEqual({ days, codes: [] });
  });

  it('a lone letter column, or M without X, is AMBIGUOUS_WEEKDAY saying what to write', () => {
    const lone = plan(['S']).issues;
    expect(lone).toEqual([expect.objectContaining({ code: 'AMBIGUOUS_WEEKDAY', message: expect.stringContaining("'S' is a one-letter day on its own") })]);
    const m = plan(['L', 'M', 'J', 'V']).issues;
    expect(m).toEqual([expect.objectContaining({ code: 'AMBIGUOUS_WEEKDAY', message: expect.stringContaining("'M' could be martes") })]);
    expect(m[0]!.message).toContain('--ignore-column');
  });

  it('a letter before a dash in another word is no day column (`X-Ray`, `S-Bahn`)', () => {
    expect(hoursColumn('X-Ray')).toBeUndefined();
    expect(hoursColumn('S-Bahn')).toBeUndefined();
  });
});

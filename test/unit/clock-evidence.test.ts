// What a file's hours cells say of the clock they keep (src/map/clock-evidence.ts): one clock settles
// `7-11`, both settle nothing, and what is no time of day (24/7, 6-30, 24h) says nothing.
import { describe, expect, it } from 'vitest';
import { clockEvidence, evidenceFormat } from '../../src/map/clock-evidence.js';

const COLUMNS = ['Mon', 'Tue'];
const of = (...rows: unknown[][]) => clockEvidence(rows, [0, 1], COLUMNS);

describe('clockEvidence', () => {
  it.each([['13-21'], ['17:00'], ['0900-1730'], ['Mo-Fr 09:00-18:00'], ['21.30']])('%j is a 24-hour clock', (cell) => {
    expect(of([cell, ''])).toEqual({ format: '24h', cells: [`'${cell}' (column 'Mon')`], count: 1 });
  });

  it.each([['9am-5pm'], ['10 AM - 6'], ['5.30pm'], ['11:00 a.m.']])('%j is a 12-hour clock', (cell) => {
    expect(of([cell, ''])?.format).toBe('12h');
  });

  it.each([['7-11'], ['9-5'], ['24/7'], ['24h'], ['6-30'], ['Closed'], ['noon-8']])('%j says nothing', (cell) => {
    expect(of([cell, cell])).toBeUndefined();
  });

  it('cells of both clocks settle nothing, in one cell or in two', () => {
    expect(of(['13-21', '9am-5pm'])).toBeUndefined();
    expect(of(['Mo-Fr 13-21, Sa 9am-1pm', ''])).toBeUndefined();
  });

  it('names at most three cells, and counts them all', () => {
    const found = of(['13-21', '14-22'], ['15-23', '16-20'], ['7-11', '13-21']);
    expect(found?.cells).toEqual(["'13-21' (column 'Mon')", "'14-22' (column 'Tue')", "'15-23' (column 'Mon')"]);
    expect(found?.count).toBe(5);
  });

  it("a JSON record's hours object is read as its text", () => {
    expect(of([{ mon: '7-11', tue: '13-21' }, ''])?.format).toBe('24h');
  });

  it('is added beside what the user said, never in place of it', () => {
    expect(evidenceFormat(undefined, { format: '24h', cells: [], count: 1 })).toBe('seen24h');
    expect(evidenceFormat('clock', { format: '12h', cells: [], count: 1 })).toBe('clock,seen12h');
  });
});

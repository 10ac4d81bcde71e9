// Wire-named columns to wire records: the mapping the foundation guarantees.
import { describe, expect, it } from 'vitest';
import { FIELDS } from '../../src/contract/fields.js';
import type { Kind } from '../../src/contract/kinds.js';
import { compilePlan } from '../../src/map/column-plan.js';
import { CANDIDATE, mapRecord } from '../../src/map/record.js';

function map(kind: Kind, header: string[], row: unknown[]) {
  const plan = compilePlan(kind, header, { mapping: {}, line: 1, perRecordColumns: false });
  return mapRecord(plan, { line: 2, columns: header, cells: row });
}

describe('the candidate of each kind', () => {
  it.each(['team-members', 'store-cards'] as const)('%s: every scalar field of the contract, in wire order', (kind) => {
    const scalars = FIELDS[kind].filter((f) => f !== 'opentToGuestsPeriod');
    const made = CANDIDATE[kind](scalars.map((f) => `value of ${f}`));
    expect(Object.keys(made)).toEqual(scalars);
    expect(Object.values(made)).toEqual(scalars.map((f) => `value of ${f}`));
  });
});

describe('team members', () => {
  const header = ['employeeID', 'email', 'name', 'roleCode', 'parentKey'];
  it('trims cells, turns empty nullable cells into null, keeps the rest as written', () => {
    expect(map('team-members', header, [' E1 ', 'Ann@Example.com', 'Ann  Lee', '', ' ']).candidate).toEqual({
      employeeID: 'E1',
      email: 'Ann@Example.com',
      name: 'Ann  Lee',
      roleCode: null,
      parentKey: null,
    });
  });
  it('sends a numeric roleCode or identifier as a string', () => {
    expect(map('team-members', header, [1001, 'a@example.com', 'Ann', 3, 'S1']).candidate).toMatchObject({ employeeID: '1001', roleCode: '3' });
  });
});

describe('store cards', () => {
  const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].flatMap((d) => [`${d}_since`, `${d}_to`]);
  const header = ['nodeKey', 'email', 'storeConceptCode', ...days];
  const hours = (pairs: string[]) => map('store-cards', header, ['S1', 's1@example.com', '12', ...pairs]);

  it('turns the concept code into a number and empty into null', () => {
    expect(hours(Array(14).fill('')).candidate.storeConceptCode).toBe(12);
    expect(map('store-cards', header, ['S1', 's1@example.com', '', ...Array(14).fill('')]).candidate.storeConceptCode).toBeNull();
  });

  it('keys days "0".."6" from Sunday, leaves closed days out, and sends {} with no hours', () => {
    expect(hours(Array(14).fill('')).candidate.opentToGuestsPeriod).toEqual({});
    const cells = Array(14).fill('');
    cells[2] = '9';
    cells[3] = '21.5';
    cells[12] = '10';
    cells[13] = '02:00';
    expect(hours(cells).candidate.opentToGuestsPeriod).toEqual({ '1': { since: 9, to: 21.5 }, '6': { since: 10, to: 26 } });
    // `10` to `2` is 10:00-14:00 on a 12-hour clock: the file must say which (AMBIGUOUS_TIME).
    cells[13] = '2';
    expect(hours(cells).issues?.map((i) => [i.code, i.column])).toEqual([['AMBIGUOUS_TIME', 'sat_to']]);
  });

  it('reports a day with only one end, naming the day and the empty column', () => {
    const cells = Array(14).fill('');
    cells[4] = '9';
    const mapped = hours(cells);
    expect(mapped.issues?.[0]).toMatchObject({ code: 'INVALID_HOURS', line: 2, column: 'tue_to', field: 'opentToGuestsPeriod.2' });
    expect(mapped.issues?.[0]?.message).toMatch(/^Tuesday: /);
  });
});

describe('field order', () => {
  // The validator writes a valid record with JSON.stringify, so the candidate's own key order is the
  // canonical order the diff and the service compare: it must follow the contract, whatever the columns' order.
  it.each([
    ['team-members', ['parentKey', 'name', 'roleCode', 'email', 'employeeID'], ['S1', 'Ann', 'r', 'a@example.com', 'E1']],
    ['store-cards', ['mon_to', 'storeConceptCode', 'email', 'mon_since', 'nodeKey'], ['22', '3', 's@example.com', '8', 'S1']],
  ] as const)("%s: the contract order, not the columns' order", (kind, header, row) => {
    const { candidate } = map(kind, [...header], [...row]);
    expect(Object.keys(candidate)).toEqual(FIELDS[kind]);
  });
});

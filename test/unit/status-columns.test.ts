// The employment-status table (src/map/status-exports.ts) and how a column is recognised from it: by
// its header, or by its first rows' values; and column guesses only for typos whose values fit.
import { describe, expect, it } from 'vitest';
import { compilePlan } from '../../src/map/column-plan.js';
import { normalise } from '../../src/map/columns.js';
import { valuesFit } from '../../src/map/field-shape.js';
import { statusByValues, vocabularyOf } from '../../src/map/status-column.js';
import { STATUS_EXPORTS } from '../../src/map/status-exports.js';

const plan = (columns: string[], rows: string[][] = [], notStatus: string[] = []) =>
  compilePlan('team-members', columns, { mapping: { fields: {}, ignore: [], notStatus }, line: 1, perRecordColumns: false, sample: rows });

describe('the table', () => {
  it('names each of the fourteen HR systems', () => {
    const sources = new Set(STATUS_EXPORTS.map((r) => r.source));
    for (const product of [
      'ADP',
      'Paychex',
      'Homebase',
      'Deputy',
      'Rippling',
      'HiBob',
      'Gusto',
      'Workday',
      'BambooHR',
      'Personio',
      'SuccessFactors',
      'UKG',
      'Dayforce',
      'Sage',
    ])
      expect(sources, product).toContain(product);
  });

  it('no header has a value that means both "still employed" and "left"', () => {
    const headers = new Set(STATUS_EXPORTS.flatMap((r) => r.columns));
    for (const header of headers) {
      const v = vocabularyOf('team-members', header)!;
      expect(
        [...v.active].filter((a) => v.gone.has(a)),
        header,
      ).toEqual([]);
    }
  });

  it.each([
    ['Position Status', 'Terminated', 'gone'],
    ['Status', 'T', 'gone'],
    ['Status', 'A', 'active'],
    ['Active', '0', 'gone'],
    ['Active', 'true', 'active'],
    ['Archived', 'true', 'gone'],
    ['Archived', 'Nein', 'active'],
    ['Role state', 'TERMINATED', 'gone'],
    ['Lifecycle status', 'Employed', 'active'],
    ['Employment Status', 'Dismissed', 'gone'],
    ['Leaver', 'Y', 'gone'],
    ['Beschäftigungsstatus', 'Ausgetreten', 'gone'],
    ['Statut', 'Sorti', 'gone'],
    ['Durum', 'Ayrıldı', 'gone'],
    ['在籍状況', '退職', 'gone'],
  ])('%s = %s means %s', (header, value, meaning) => {
    const v = vocabularyOf('team-members', header)!;
    expect(v[meaning as 'active' | 'gone'].has(normalise(value))).toBe(true);
  });
});

describe('a status by its values', () => {
  it.each([[['Active', 'Terminated', 'Active']], [['Actif', 'Sorti']], [['Aktiv', '', 'Inaktiv']], [['Employed']]])('%j is a status', (values) => {
    expect(statusByValues(values)).toBeDefined();
  });

  it.each([[['Full-Time', 'Part-Time']], [['1', '0', '1']], [['true', 'false']], [['A', 'T']], [['Active', 'Sales']], [['', '']], [[]]])(
    '%j is not, without a status header',
    (values) => {
      expect(statusByValues(values)).toBeUndefined();
    },
  );

  it('a status column is taken from the unused ones: never UNUSED_COLUMNS nor --ignore-column', () => {
    const p = plan(['employeeID', 'email', 'name', 'HR State', 'Site'], [['E1', 'a@example.com', 'A', 'Active', 'London']]);
    expect(p.statuses.map((s) => [s.column, s.by])).toEqual([['HR State', 'values']]);
    const unused = p.issues.find((i) => i.code === 'UNUSED_COLUMNS')!;
    expect(unused.fixes).toEqual([{ kind: 'flags', args: ['--ignore-column', 'Site'] }]);
  });

  it('--no-status-column leaves the column out, not read as a status', () => {
    const p = plan(['employeeID', 'email', 'name', 'roleCode', 'parentKey', 'Status'], [], ['Status']);
    expect(p.statuses).toEqual([]);
    expect(p.issues).toEqual([]);
  });
});

describe('column guesses', () => {
  it('"Location Code" and "Employee Role" are no typos of "position code" and "employee code"', () => {
    const p = plan(['Employee Number', 'email', 'name', 'Location Code', 'Employee Role'], [['E1', 'a@example.com', 'Ann', 'DE-001', 'Cashier']]);
    expect(p.issues.filter((i) => i.code === 'UNPLACED_COLUMN')).toEqual([]);
    expect(p.issues.map((i) => i.code)).toEqual(['UNKNOWN_COLUMN', 'UNKNOWN_COLUMN', 'UNUSED_COLUMNS']);
  });

  it('a typo is offered, with its --map fix, only when the values fit the field', () => {
    const fits = plan(['employeeID', 'Emial', 'name'], [['E1', 'a@example.com', 'Ann']]);
    expect(fits.issues[0]).toMatchObject({
      code: 'UNPLACED_COLUMN',
      fixes: [
        { kind: 'flags', args: ['--map', '{"email": "Emial"}'] },
        { kind: 'flags', args: ['--ignore-column', 'Emial'] },
      ],
    });
    const not = plan(['employeeID', 'Emial', 'name'], [['E1', 'call me', 'Ann']]);
    expect(not.issues.map((i) => i.code)).toEqual(['UNKNOWN_COLUMN', 'MISSING_COLUMN']);
  });

  it.each([
    ['email', ['a@example.com', ''], true],
    ['email', ['Sales'], false],
    ['employeeID', ['E-1001', '00042'], true],
    ['employeeID', ['Shift Lead'], false],
    ['employeeID', ['a@example.com'], false],
    ['name', ['Ann Lee'], true],
    ['name', ['12'], false],
    ['roleCode', ['KASSE', '3'], true],
    ['roleCode', ['a@example.com'], false],
  ] as const)('%s holding %j fits: %s', (field, values, expected) => {
    expect(valuesFit('team-members', field, values)).toBe(expected);
  });
});

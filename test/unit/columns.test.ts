// Column names → wire fields: normalising, the alias table of DESIGN.md, --map, hours columns.
import { describe, expect, it } from 'vitest';
import { distance, matchColumn, normalise, suggest } from '../../src/map/columns.js';
import { dayIndex, hoursColumn } from '../../src/map/layout.js';
import { compilePlan } from '../../src/map/plan.js';

const plan = (kind: 'store-cards' | 'team-members', columns: string[], mapping: Record<string, string> = {}) =>
  compilePlan(kind, columns, { mapping, line: 1, perRecordColumns: false });

describe('normalise', () => {
  it.each(['Employee ID', 'employee_id', 'EmployeeId', 'employeeID', ' employee-id ', 'Employee.ID'])('%j is employeeid', (name) => {
    expect(normalise(name)).toBe('employeeid');
  });
});

describe('the alias table', () => {
  // DESIGN.md, word for word; plus the wire name itself, in any spelling.
  const TABLE = {
    'team-members': {
      employeeID: ['employeeID', 'employee id', 'employee number', 'emp id', 'staff id', 'person id', 'id'],
      email: ['email', 'e-mail', 'mail', 'email address', 'work email'],
      name: ['name', 'full name', 'employee name', 'display name'],
      roleCode: ['roleCode', 'role', 'role code', 'job code', 'position code'],
      parentKey: ['parentKey', 'parent key', 'store', 'store key', 'node key', 'node', 'location', 'location key'],
    },
    'store-cards': {
      nodeKey: ['nodeKey', 'node key', 'store key', 'store id', 'store', 'location key', 'key'],
      email: ['email', 'e-mail', 'mail', 'contact email', 'store email'],
      storeConceptCode: ['storeConceptCode', 'concept', 'concept code', 'store concept', 'store concept code'],
    },
  } as const;
  for (const [kind, fields] of Object.entries(TABLE)) {
    for (const [field, names] of Object.entries(fields) as [string, readonly string[]][]) {
      it.each(names.flatMap((n) => [n, n.toUpperCase(), n.replaceAll(' ', '_')]))(`${kind}: %j means ${field}`, (name: string) => {
        expect(matchColumn(kind as 'store-cards', name, {})?.field).toBe(field);
      });
    }
  }

  it('--map wins over an alias, and forgives case and spacing', () => {
    expect(matchColumn('team-members', 'Personalnummer', { employeeID: 'Personalnummer' })).toEqual({ field: 'employeeID', rank: 0 });
    expect(matchColumn('team-members', 'PERSONAL NUMMER', { employeeID: 'personal_nummer' })).toEqual({ field: 'employeeID', rank: 0 });
    const p = plan('team-members', ['ID', 'Nr', 'email', 'name'], { employeeID: 'Nr' });
    expect(p.fields.get('employeeID')).toBe(1);
  });

  it('--map can name the JSON hours column', () => {
    const p = plan('store-cards', ['nodeKey', 'email', 'Öffnungszeiten'], { opentToGuestsPeriod: 'Öffnungszeiten' });
    expect([p.hoursJson, p.issues]).toEqual([2, []]);
  });

  it('two columns of equal rank for one field are ambiguous', () => {
    const p = plan('team-members', ['employeeID', 'email', 'name', 'Mail', 'E-mail'], {});
    expect(p.issues.map((i) => [i.code, i.column])).toEqual([
      ['AMBIGUOUS_COLUMN', 'E-mail'],
      ['COLUMN_IGNORED', 'Mail'],
    ]);
    expect(p.fatal).toBe(true);
  });
});

describe('opening-hours columns', () => {
  it.each([
    ['sun_since', 0, 'since'], ['sun_to', 0, 'to'], ['Monday Open', 1, 'since'], ['Monday Close', 1, 'to'],
    ['tue opens', 2, 'since'], ['tue closes', 2, 'to'], ['Wed From', 3, 'since'], ['wed to', 3, 'to'],
    ['4_since', 4, 'since'], ['TH-TO', 4, 'to'], ['fri', 5, 'range'], ['Saturday', 6, 'range'], ['6', 6, 'range'], ['su hours', 0, 'range'],
  ])('%j is day %d, %s', (name, day, role) => {
    expect(hoursColumn(name)).toEqual({ role, day });
  });

  it.each(['opentToGuestsPeriod', 'openToGuestsPeriod', 'Hours', 'Opening Hours'])('%j is the JSON column', (name) => {
    expect(hoursColumn(name)).toEqual({ role: 'json' });
  });

  it.each([['Sunday', 0], ['sun', 0], ['SU', 0], ['0', 0], ['thurs', 4], ['Sat', 6], ['7', undefined], ['someday', undefined]])('day %j is %s', (name, day) => {
    expect(dayIndex(name)).toBe(day);
  });

  it('a pair missing one end is an error naming the day', () => {
    const p = plan('store-cards', ['nodeKey', 'email', 'mon_since'], {});
    expect(p.issues.map((i) => i.code)).toEqual(['HOURS_PAIR_INCOMPLETE']);
    expect(p.issues[0]!.message).toContain("Monday has 'mon_since' but no closing column");
  });

  it('hours in two layouts at once is an error', () => {
    expect(plan('store-cards', ['nodeKey', 'email', 'hours', 'mon'], {}).issues.map((i) => i.code)).toEqual(['HOURS_TWICE']);
  });
});

describe('did you mean', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(distance('emial', 'email')).toBe(1);
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('', 'abc')).toBe(3);
  });

  it.each([
    ['Emial', 'team-members', 'email'],
    ['Employe ID', 'team-members', 'employeeID'],
    ['Thursdy', 'store-cards', 'thursday'],
    ['mon_sinec', 'store-cards', 'mon_since'],
    ['Department', 'team-members', undefined],
  ] as const)('%j → %s: %s', (column, kind, hint) => {
    const p = plan(kind, kind === 'store-cards' ? ['nodeKey', 'email', column] : ['employeeID', 'email', 'name', column]);
    const unknown = p.issues.find((i) => i.code === 'UNKNOWN_COLUMN')!;
    expect(unknown.message).toBe(`column '${column}' is not used${hint ? ` (did you mean '${hint}'?)` : ''}`);
    expect(suggest(column, ['email'])).toBe(hint === 'email' ? 'email' : undefined);
  });
});

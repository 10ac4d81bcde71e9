// Column names → wire fields: normalising, the alias table of DESIGN.md, --map, hours columns.
import { describe, expect, it } from 'vitest';
import { distance, matchColumn, normalise, suggest } from '../../src/map/columns.js';
import { dayIndex, hoursColumn } from '../../src/map/layout.js';
import { compilePlan } from '../../src/map/column-plan.js';

const plan = (kind: 'store-cards' | 'team-members', columns: string[], fields: Record<string, string | string[]> = {}, ignore: string[] = []) =>
  compilePlan(kind, columns, {
    mapping: { fields: Object.fromEntries(Object.entries(fields).map(([f, c]) => [f, typeof c === 'string' ? [c] : c])), ignore },
    line: 1,
    perRecordColumns: false,
  });

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
        expect(matchColumn(kind as 'store-cards', name)?.field).toBe(field);
      });
    }
  }

  it('--map wins over an alias, and forgives case and spacing', () => {
    expect(plan('team-members', ['PERSONAL NUMMER', 'email', 'name'], { employeeID: 'personal_nummer' }).fields.get('employeeID')).toBe(0);
    const p = plan('team-members', ['ID', 'Nr', 'email', 'name'], { employeeID: 'Nr' });
    expect(p.fields.get('employeeID')).toBe(1);
    // The alias it beat is reported, not silently dropped.
    expect(p.issues.map((i) => [i.severity, i.code, i.column])).toEqual([['warning', 'COLUMN_IGNORED', 'ID']]);
  });

  it('vendor aliases', () => {
    for (const name of ['Personnel Number', 'Personalnummer', 'Associate ID', 'User ID', 'Worker ID'])
      expect(matchColumn('team-members', name)?.field).toBe('employeeID');
    for (const name of ['Store No.', 'Store Number', 'Filialnummer', 'Location ID']) expect(matchColumn('team-members', name)?.field).toBe('parentKey');
    for (const name of ['Cost Center', 'Department', 'Filiale']) expect(matchColumn('team-members', name)).toBeUndefined();
  });

  it('a list of columns is joined; --ignore leaves a column out without a word', () => {
    const p = plan('team-members', ['employeeID', 'email', 'First Name', 'Last Name', 'Emial'], { name: ['First Name', 'Last Name'] }, ['emial']);
    expect(p.issues).toEqual([]);
    expect(p.scalars.find((s) => s.field === 'name')).toMatchObject({ index: 2, parts: [2, 3] });
  });

  it('--map can name the JSON hours column', () => {
    const p = plan('store-cards', ['nodeKey', 'email', 'Öffnungszeiten'], { opentToGuestsPeriod: 'Öffnungszeiten' });
    expect([p.hoursJson, p.issues]).toEqual([2, []]);
  });

  it('any two columns that mean one field are ambiguous, naming both, whatever their names', () => {
    const p = plan('team-members', ['employeeID', 'email', 'name', 'Mail', 'E-mail'], {});
    expect(p.issues.map((i) => [i.code, i.column])).toEqual([['AMBIGUOUS_COLUMN', 'Mail']]);
    expect(p.issues[0]!.message).toContain("columns 'email' and 'Mail' and 'E-mail' both mean email");
    expect(p.fatal).toBe(true);
    expect(plan('team-members', ['employeeID', 'Email', 'Work Email', 'name']).issues.map((i) => i.code)).toEqual(['AMBIGUOUS_COLUMN']);
    expect(plan('team-members', ['employeeID', 'Email', 'Work Email', 'name'], { email: 'Work Email' }).fields.get('email')).toBe(2);
  });
});

describe('opening-hours columns', () => {
  it.each([
    ['sun_since', 0, 'since'],
    ['sun_to', 0, 'to'],
    ['Monday Open', 1, 'since'],
    ['Monday Close', 1, 'to'],
    ['tue opens', 2, 'since'],
    ['tue closes', 2, 'to'],
    ['Wed From', 3, 'since'],
    ['wed to', 3, 'to'],
    ['4_since', 4, 'since'],
    ['TH-TO', 4, 'to'],
    ['fri', 5, 'range'],
    ['Saturday', 6, 'range'],
    ['6', 6, 'range'],
    ['su hours', 0, 'range'],
  ])('%j is day %d, %s', (name, day, role) => {
    const found = hoursColumn(name);
    expect(found?.role).toBe(role);
    const item = found && 'items' in found ? found.items[0] : undefined;
    expect(item && 'from' in item ? item.from.readings.get('en') : undefined).toBe(day);
  });

  it.each(['opentToGuestsPeriod', 'openToGuestsPeriod', 'Hours', 'Opening Hours'])('%j is the JSON column', (name) => {
    expect(hoursColumn(name)).toEqual({ role: 'json' });
  });

  it.each([
    ['Sunday', 0],
    ['sun', 0],
    ['SU', 0],
    ['0', 0],
    ['thurs', 4],
    ['Sat', 6],
    ['7', undefined],
    ['someday', undefined],
  ])('day %j is %s', (name, day) => {
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
    ['Wednsday', 'store-cards', 'wednesday'],
    ['Donerstag', 'store-cards', 'donnerstag'],
    ['mon_sinec', 'store-cards', 'mon_since'],
  ] as const)('%j looks like %s: an error, not a warning', (column, kind, hint) => {
    const p = plan(kind, kind === 'store-cards' ? ['nodeKey', 'email', column] : ['employeeID', 'email', 'name', column]);
    // A store card's unplaced column leaves days without a source too: MISSING_DAYS (test/unit/accounting.test.ts).
    const found = p.issues.filter((i) => i.code !== 'MISSING_DAYS');
    expect(found.map((i) => [i.severity, i.code, i.column])).toEqual([['error', 'UNPLACED_COLUMN', column]]);
    expect(p.issues[0]!.message).toContain(`'${hint}'`);
    expect(p.issues[0]!.message).toContain(`--ignore-column '${column}'`);
    expect(suggest(column, ['email'])).toBe(hint === 'email' ? 'email' : undefined);
  });

  it('a column like nothing known stays a warning', () => {
    const p = plan('team-members', ['employeeID', 'email', 'name', 'roleCode', 'parentKey', 'Department']);
    expect(p.issues.map((i) => [i.severity, i.code, i.message])).toEqual([['warning', 'UNKNOWN_COLUMN', "column 'Department' is not used"]]);
  });
});

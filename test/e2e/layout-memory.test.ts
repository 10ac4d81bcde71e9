// The mapping remembered per header (issue 41): an upload records its header and the mapping it was
// read with; the next file with the same header is read with it (flags winning, and saying so), a
// changed header is named before any guard runs, and --same-layout refuses it with nothing sent. A
// --map value table maps values and refuses one it does not list. The real CLI against the real
// sandbox, on both state backends.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const TEAM = '/integrations/teamMembers';

const backends = {
  directory: async () => join(tempDir().dir, 'state'),
  postgres: () => freshDatabase(),
};

/** A German HR export: no column the tool knows by name, so the first upload needs a --map. */
const HEADER = ['Personalnummer', 'Vorname', 'Nachname', 'E-Mail', 'Job'];
const JOBS = ['Store Manager', 'Cashier', 'Cook'];
const MAP = JSON.stringify({
  employeeID: 'Personalnummer',
  name: ['Vorname', 'Nachname'],
  email: 'E-Mail',
  roleCode: { column: 'Job', values: { 'Store Manager': 1, Cashier: 2, Cook: 3 } },
});

const id = (n: number) => `E${String(n).padStart(3, '0')}`;
function staffCsv(numbers: readonly number[], header: readonly string[] = HEADER, job = (n: number) => JOBS[n % 3]!): string {
  const rows = numbers.map((n) => `${id(n)},Vor${n},Nach${n},m${n}@example.com,${job(n)}`);
  return [header.join(','), ...rows].join('\n') + '\n';
}
const upTo = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

describe.each(Object.entries(backends))('a layout remembered per header, with a %s store', (_name, make) => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.stop());

  async function setup() {
    const state = await make();
    const write = (name: string, text: string) => {
      const path = join(sb.dir, `${Math.random().toString(36).slice(2)}-${name}`);
      writeFileSync(path, text);
      return path;
    };
    /** The nightly line of docs/everyday.md, against this store. */
    const run = (file: string, ...flags: string[]) => runCli(['team-members', file, '--yes', '--state', state, ...flags], { env: sb.env });
    const stored = async () => (await sb.stored(TEAM)) as { employeeID: string; roleCode: string | null }[];
    // The first upload: a --map for the unknown columns, and a value table for the jobs.
    const first = await run(write('staff.csv', staffCsv(upTo(30))), '--json', '--map', MAP, '--no-baseline');
    expect(first.code, first.stderr).toBe(0);
    expect(first.json().layout).toEqual({ columns: 5, comparedWith: null, same: false, reused: false, flagsWon: [], changes: null });
    return { state, write, run, stored };
  }

  it('reads the same header with the mapping recorded then, without --map, and says so; a flag given wins and says so', async () => {
    const { write, run, stored } = await setup();
    expect((await stored()).find((m) => m.employeeID === id(1))?.roleCode).toBe('2');

    const same = write('staff.csv', staffCsv(upTo(31)));
    const told = await run(same);
    expect(told.code, told.stderr).toBe(0);
    expect(told.stderr).toContain('the same 5 columns as upload #1: read with the mapping recorded then');
    expect((await stored()).map((m) => m.employeeID)).toContain(id(31));
    expect((await stored()).find((m) => m.employeeID === id(31))?.roleCode).toBe('2');

    // The same header again, now with --map giving the value table anew: the flag's table is used, the rest is as recorded.
    const cook = JSON.stringify({ roleCode: { column: 'Job', values: { 'Store Manager': 1, Cashier: 2, Cook: 9 } } });
    const looked = await run(same, '--dry-run', '--map', cook, '--max-changes', '10');
    expect(looked.code, looked.stderr).toBe(0);
    expect(looked.stderr).toContain(
      'the same 5 columns as upload #2: read with the mapping recorded then, except where --map, given now, says otherwise: the flags win',
    );
    const flagged = await run(same, '--json', '--map', cook, '--max-changes', '10');
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.json().layout).toEqual({ columns: 5, comparedWith: 2, same: true, reused: true, flagsWon: ['--map'], changes: null });
    expect((await stored()).find((m) => m.employeeID === id(2))?.roleCode).toBe('9');

    // What the flags said is recorded with the upload: the next run without them keeps it.
    const after = await run(same, '--json');
    expect(after.code, after.stderr).toBe(0);
    expect(after.json().layout).toMatchObject({ comparedWith: 3, reused: true, flagsWon: [] });
    expect((await stored()).find((m) => m.employeeID === id(2))?.roleCode).toBe('9');
  });

  it('names a renamed, an added and a removed column before the guards run', async () => {
    const { write, run, stored } = await setup();
    // The HR system renamed E-Mail, dropped Job and added Abteilung; and the export lost two thirds of the staff.
    const header = ['Personalnummer', 'Vorname', 'Nachname', 'E-Mail-Adresse', 'Abteilung'];
    const changed = write(
      'staff.csv',
      staffCsv(upTo(10), header, () => 'Verkauf'),
    );
    const map = JSON.stringify({ employeeID: 'Personalnummer', name: ['Vorname', 'Nachname'], email: 'E-Mail-Adresse', ignore: ['Abteilung'] });
    const json = await run(changed, '--json', '--map', map);
    expect(json.code, json.stderr).toBe(4);
    const report = json.json();
    expect(report.error.code).toBe('TOO_MANY_REMOVALS');
    const layout = report.issues.find((i: { code: string }) => i.code === 'LAYOUT_CHANGED');
    expect(layout).toMatchObject({ severity: 'warning', line: 1 });
    expect(layout.message).toContain("the header differs from upload #1's: renamed 'E-Mail' → 'E-Mail-Adresse'");
    expect(report.layout.changes).toEqual({
      added: [],
      removed: [],
      renamed: [
        { from: 'E-Mail', to: 'E-Mail-Adresse' },
        { from: 'Job', to: 'Abteilung' },
      ],
    });
    expect(report.layout).toMatchObject({ comparedWith: 1, same: false, reused: false });

    // As a person reads it: the changed header first, then the guard.
    const human = await run(changed, '--map', map);
    expect(human.code).toBe(4);
    const named = human.stderr.indexOf("renamed 'E-Mail' → 'E-Mail-Adresse'");
    expect(named).toBeGreaterThanOrEqual(0);
    expect(human.stderr.indexOf('this upload would remove')).toBeGreaterThan(named);
    expect(await stored()).toHaveLength(30);

    // A column dropped at the end and one added elsewhere are named as such (the roles it empties are the guards' to refuse).
    const moved = write(
      'staff.csv',
      `Personalnummer,Filiale,Vorname,Nachname,E-Mail\n${upTo(30)
        .map((n) => `${id(n)},S1,Vor${n},Nach${n},m${n}@example.com`)
        .join('\n')}\n`,
    );
    const both = await run(
      moved,
      '--json',
      '--dry-run',
      '--map',
      JSON.stringify({ employeeID: 'Personalnummer', name: ['Vorname', 'Nachname'], email: 'E-Mail', ignore: ['Filiale'] }),
    );
    expect(both.code, both.stderr).toBe(4);
    expect(both.json().error.code).toBe('VALUES_EMPTIED');
    expect(both.json().layout.changes).toEqual({ added: ['Filiale'], removed: ['Job'], renamed: [] });
  });

  it('--same-layout refuses a changed header with nothing sent (exit 4); following its hint records the new layout', async () => {
    const { write, run, stored } = await setup();
    const before = await stored();
    const header = ['Personalnummer', 'Vorname', 'Nachname', 'Email', 'Job'];
    const renamed = write('staff.csv', staffCsv(upTo(30), header));
    const map = JSON.stringify({ ...JSON.parse(MAP), email: 'Email' });
    const refused = await run(renamed, '--json', '--same-layout', '--map', map);
    expect(refused.code, refused.stderr).toBe(4);
    const report = refused.json();
    expect(report.error.code).toBe('LAYOUT_NOT_SAME');
    expect(report.error.message).toContain("renamed 'E-Mail' → 'Email'");
    // The remedy is a judgement, then a flag dropped: no fix as data says that.
    expect(report.error.fixes).toEqual([]);
    expect(report.guards).toBeNull();
    expect(await stored()).toEqual(before);

    // The hint: look with --dry-run, without --same-layout; then upload once without it.
    const look = await run(renamed, '--json', '--dry-run', '--map', map);
    expect(look.code, look.stderr).toBe(0);
    expect(look.json().issues.map((i: { code: string }) => i.code)).toContain('LAYOUT_CHANGED');
    const once = await run(renamed, '--map', map);
    expect(once.code, once.stderr).toBe(0);
    // The nightly line again, now the layout is recorded: same header, no --map, --same-layout passes.
    const nightly = await run(write('staff.csv', staffCsv(upTo(31), header)), '--json', '--same-layout');
    expect(nightly.code, nightly.stderr).toBe(0);
    expect(nightly.json().layout).toMatchObject({ same: true, reused: true, comparedWith: 2 });
    expect((await stored()).map((m) => m.employeeID)).toContain(id(31));
  });

  it('maps values through a --map value table and refuses a value not in it, naming it', async () => {
    const { write, run, stored } = await setup();
    expect(new Set((await stored()).map((m) => m.roleCode))).toEqual(new Set(['1', '2', '3']));
    const before = await stored();
    const night = write(
      'staff.csv',
      staffCsv(upTo(30), HEADER, (n) => (n === 7 ? 'Night Manager' : JOBS[n % 3]!)),
    );
    const refused = await run(night, '--json');
    expect(refused.code, refused.stderr).toBe(3);
    const found = refused.json().issues.filter((i: { code: string }) => i.code === 'VALUE_NOT_IN_TABLE');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', line: 8, column: 'Job', field: 'roleCode', value: 'Night Manager' });
    expect(found[0].message).toContain("'Night Manager' is not in the value table of roleCode");
    expect(await stored()).toEqual(before);
  });
});

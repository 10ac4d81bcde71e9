// Seeing what will be sent: the mapping, the first records with hours in human form, the hour changes
// as weekday times, --payload-out (the exact body) and --diff-out (every change, for Excel).
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { membersCsv, range, writeMembers } from '../helpers/members.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { auditLines } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const STORES = [
  'Filiale,E-Mail,Konzept,mon,tue,wed,thu,fri,sat,sun',
  'DE-001,berlin@example.com,12,08:30-21:30,08:30-21:30,08:30-21:30,08:30-21:30,08:30-21:30,10:00-16:00,closed',
  'DE-002,hamburg@example.com,,09:00-20:00,09:00-20:00,09:00-20:00,09:00-20:00,09:00-20:00,09:00-20:00,closed',
].join('\n');
const MAP = JSON.stringify({ nodeKey: 'Filiale', email: 'E-Mail', storeConceptCode: 'Konzept' });

describe('a dry run shows what will be sent', () => {
  it('names the mapping and shows the first records, hours as weekday times', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'stores.csv');
    const map = join(sb.dir, 'map.json');
    writeFileSync(file, STORES);
    writeFileSync(map, MAP);
    const r = await runCli(['store-cards', file, '--dry-run', '--no-baseline', '--map', map, '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('nodeKey ← Filiale');
    expect(r.stderr).toContain('storeConceptCode ← Konzept');
    expect(r.stderr).toContain('opentToGuestsPeriod ← Mon: mon · Tue: tue');
    expect(r.stderr).toContain('1. nodeKey "DE-001", email "berlin@example.com", storeConceptCode 12, hours Mon–Fri 08:30–21:30; Sat 10:00–16:00; Sun closed');
    expect(r.stderr).toContain('2. nodeKey "DE-002"');
  });

  it('reports the mapping in --json as data', async () => {
    sb = await sandbox();
    const r = await runCli(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 3)), '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir], {
      env: sb.env,
    });
    expect(r.json().mapping).toEqual([
      { field: 'employeeID', columns: ['employeeID'] },
      { field: 'email', columns: ['email'] },
      { field: 'name', columns: ['name'] },
      { field: 'roleCode', columns: ['roleCode'] },
      { field: 'parentKey', columns: ['parentKey'] },
    ]);
  });
});

describe('a header below blank lines or a sep= line', () => {
  it('has its problems reported on the line the header is on', async () => {
    const t = tempDir();
    const file = t.write('late.csv', 'sep=;\n\n\nemployeeID;email;name;Emial\nE1;a@example.com;A;b@example.com\n');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json']);
    expect(r.json().issues).toContainEqual(expect.objectContaining({ code: 'UNPLACED_COLUMN', line: 4, column: 'Emial' }));
  });
});

describe('a field joined from several columns', () => {
  it('names every column in the mapping shown before sending', async () => {
    const r = await runCli([
      'team-members',
      fixture('team-members-first-last-name.csv'),
      '--dry-run',
      '--no-baseline',
      '--json',
      '--map',
      '{"name": ["First Name", "Last Name"]}',
    ]);
    expect(r.code).toBe(0);
    expect(r.json().mapping).toContainEqual({ field: 'name', columns: ['First Name', 'Last Name'] });
    const human = await runCli(['team-members', fixture('team-members-first-last-name.csv'), '--dry-run', '--map', '{"name": ["First Name", "Last Name"]}']);
    expect(human.stderr).toContain('name ← First Name + Last Name');
  });
});

describe('changes in opening hours', () => {
  it('are shown per weekday, on the terminal and in --diff-out', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'stores.csv');
    const map = join(sb.dir, 'map.json');
    writeFileSync(map, MAP);
    writeFileSync(file, STORES);
    expect((await runCli(['store-cards', file, '--yes', '--no-baseline', '--map', map, '--state', sb.stateDir], { env: sb.env })).code).toBe(0);
    writeFileSync(file, STORES.replace('10:00-16:00,closed', '10:00-18:00,12:00-16:00').replace('=', '=').replace('hamburg@', '=hamburg@'));
    const diffOut = join(sb.dir, 'diff.csv');
    const r = await runCli(['store-cards', file, '--dry-run', '--no-baseline', '--map', map, '--diff-out', diffOut, '--state', sb.stateDir], {
      env: sb.env,
    });
    expect(r.stderr).toContain('changed DE-001: hours Sat 10:00–16:00 → 10:00–18:00; Sun closed → 12:00–16:00');
    const csv = readFileSync(diffOut, 'utf8');
    expect(csv.split('\r\n')).toEqual([
      '\uFEFFchange,key,label,field,before,after',
      'changed,DE-001,berlin@example.com,opentToGuestsPeriod.Saturday,10:00–16:00,10:00–18:00',
      'changed,DE-001,berlin@example.com,opentToGuestsPeriod.Sunday,closed,12:00–16:00',
      // A cell that starts like a formula is neutralised for Excel.
      "changed,DE-002,'=hamburg@example.com,email,hamburg@example.com,'=hamburg@example.com",
      '',
    ]);
    expect(statSync(diffOut).mode & 0o777).toBe(0o600);
  });
});

describe('--diff-out', () => {
  it('lists every added, removed and changed record, not only five examples', async () => {
    sb = await sandbox();
    expect(
      (await runCli(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 20)), '--yes', '--no-baseline', '--state', sb.stateDir], { env: sb.env })).code,
    ).toBe(0);
    const diffOut = join(sb.dir, 'diff.csv');
    const next = writeMembers(sb.dir, 'b.csv', [...range(3, 20), ...range(21, 28)], range(10, 17));
    const r = await runCli(
      ['team-members', next, '--dry-run', '--no-baseline', '--max-removals', '2', '--max-changes', '8', '--diff-out', diffOut, '--state', sb.stateDir],
      {
        env: sb.env,
      },
    );
    expect(r.code).toBe(0);
    const rows = readFileSync(diffOut, 'utf8').trim().split('\r\n').slice(1);
    expect(rows.filter((l) => l.startsWith('added,'))).toHaveLength(8);
    expect(rows.filter((l) => l.startsWith('changed,'))).toHaveLength(8);
    expect(rows.filter((l) => l.startsWith('removed,'))).toEqual([
      'removed,E0001,Member 1,,"employeeID ""E0001"", email ""m1@example.com"", name ""Member 1"", roleCode ""3"", parentKey ""STORE-001""",',
      'removed,E0002,Member 2,,"employeeID ""E0002"", email ""m2@example.com"", name ""Member 2"", roleCode ""3"", parentKey ""STORE-001""",',
    ]);
    expect(rows).toContain('changed,E0010,Renamed 10,name,Member 10,Renamed 10');
  });
});

describe('--payload-out', () => {
  it('writes on a dry run exactly the bytes a real run sends and the service stores', async () => {
    sb = await sandbox();
    const file = writeMembers(sb.dir, 'a.csv', range(1, 50));
    const out = join(sb.dir, 'body.json');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--payload-out', out, '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const body = readFileSync(out);
    expect((await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env })).code).toBe(0);
    const [audit] = auditLines(sb.stateDir, sb.url);
    expect(audit).toMatchObject({ sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length });
    expect(await sb.stored('/integrations/teamMembers')).toEqual(JSON.parse(body.toString('utf8')));
  });

  it('names the flag when the path cannot be written (exit 2, before reading)', async () => {
    sb = await sandbox();
    const r = await runCli(
      ['team-members', writeMembers(sb.dir, 'a.csv', range(1, 2)), '--dry-run', '--no-baseline', '--json', '--payload-out', join(sb.dir, 'no/such/dir/x.json')],
      { env: sb.env },
    );
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'OUTPUT_UNWRITABLE', message: expect.stringContaining('--payload-out') });
  });
});

describe('repeated warnings', () => {
  it('are grouped: many rows pointing at a few unknown stores read as one line', async () => {
    sb = await sandbox();
    const stores = join(sb.dir, 'stores.csv');
    writeFileSync(stores, 'nodeKey,email\nSTORE-001,s1@example.com\n');
    const members = join(sb.dir, 'm.csv');
    let n = 0;
    writeFileSync(
      members,
      membersCsv(range(1, 12)).replace(/STORE-001/g, () => `DE-00${n++ % 3}`),
    );
    const r = await runCli(['team-members', members, '--dry-run', '--no-baseline', '--store-cards', stores], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `12 warnings:\n  12 rows point at 3 unknown stores: 'DE-000', 'DE-001', 'DE-002' (${members}:2, 3, 4, …); each matches no store card's nodeKey`,
    );
    expect(r.stderr).not.toMatch(/m\.csv:5 parentKey/);
  });
});

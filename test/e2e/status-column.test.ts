// HR exports carry leavers: a status column with `Terminated` or `Ausgetreten` is recognised, the run
// stops until the person decides (STATUS_COLUMN_UNDECIDED, each leaver a LEAVER_ROW), and
// `--status-column COL --active VALUES` (or the mapping's "status") keeps the rows asked for, leaving
// the others out with a warning that lists them; `--no-status-column COL` keeps every row.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const WORKDAY = [
  'Employee ID,Email,Name,Employment Status',
  'E1,one@example.com,Ann One,Active',
  'E2,two@example.com,Bo Two,Terminated',
  'E3,three@example.com,Cy Three,On Leave',
  'E4,four@example.com,Di Four,Inactive',
].join('\n');

describe('a status column in an HR export', () => {
  it('makes each leaver row an error naming it; nothing is sent', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'workday.csv');
    writeFileSync(file, WORKDAY + '\n');
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(3);
    const leavers = r.json().issues.filter((i: { code: string }) => i.code === 'LEAVER_ROW');
    expect(leavers.map((i: { line: number; value: string }) => [i.line, i.value])).toEqual([
      [3, 'Terminated'],
      [5, 'Inactive'],
    ]);
    expect(leavers[0].message).toContain("Employment Status is 'Terminated' for E2");
    expect(leavers[0].message).toContain("--status-column 'Employment Status' --active");
    const undecided = r.json().issues.find((i: { code: string }) => i.code === 'STATUS_COLUMN_UNDECIDED');
    expect(undecided).toMatchObject({ line: 1, column: 'Employment Status' });
    expect(undecided.message).toContain("holds 'Active' ×1, 'Terminated' ×1, 'On Leave' ×1, 'Inactive' ×1");
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
  });

  it('stops even when no row has left yet: the column is decided once, not defaulted', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'workday.csv');
    writeFileSync(file, 'Employee ID,Email,Name,Employment Status\nE1,one@example.com,Ann One,Active\n');
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(3);
    expect(r.json().issues.map((i: { code: string }) => i.code)).toEqual(['STATUS_COLUMN_UNDECIDED']);
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
  });

  it('statuses the tool does not know are kept out of the --active it offers, and named', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'rippling.csv');
    writeFileSync(file, 'Employee ID,Email,Name,Role state\nR1,a@example.com,Ann A,ACTIVE\nR2,b@example.com,Bo B,HIRED\nR3,c@example.com,Cy C,TERMINATED\n');
    const args = ['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir];
    const r = await runCli(args, { env: sb.env });
    const undecided = r.json().issues.find((i: { code: string }) => i.code === 'STATUS_COLUMN_UNDECIDED');
    expect(undecided.message).toContain(
      "--status-column 'Role state' --active 'ACTIVE' keeps 'ACTIVE' and leaves out the rest ('HIRED' too: add it to --active to keep it)",
    );
    const followed = await runCli([...args, ...undecided.fixes[0].args], { env: sb.env });
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.json().issues.find((i: { code: string }) => i.code === 'STATUS_EXCLUDED').message).toBe(
      "2 rows left out by Role state (not one of --active): line 3 (R2): 'HIRED', line 4 (R3): 'TERMINATED'",
    );
    expect(((await sb.stored('/integrations/teamMembers')) as { employeeID: string }[]).map((m) => m.employeeID)).toEqual(['R1']);
  });

  it('a status header whose values the tool does not know offers only --no-status-column', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'odd.csv');
    writeFileSync(file, 'Employee ID,Email,Name,Status\nE1,a@example.com,Ann A,Green\nE2,b@example.com,Bo B,Amber\n');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(3);
    const undecided = r.json().issues.find((i: { code: string }) => i.code === 'STATUS_COLUMN_UNDECIDED');
    expect(undecided.fixes).toEqual([{ kind: 'flags', args: ['--no-status-column', 'Status'] }]);
    expect(undecided.message).toContain("--status-column 'Status' --active VALUES keeps the statuses you name");
  });

  it('two status columns are each decided; --status-column and --no-status-column on one column is a usage error', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'bamboo.csv');
    writeFileSync(
      file,
      'Employee ID,Email,Name,Status,Employment Status\nE1,a@example.com,Ann A,Active,Full-Time\nE2,b@example.com,Bo B,Inactive,Terminated\n',
    );
    const args = ['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir];
    const both = await runCli(args, { env: sb.env });
    expect(
      both
        .json()
        .issues.filter((i: { code: string }) => i.code === 'STATUS_COLUMN_UNDECIDED')
        .map((i: { column: string }) => i.column),
    ).toEqual(['Status', 'Employment Status']);
    const one = await runCli([...args, '--status-column', 'Status', '--active', 'Active'], { env: sb.env });
    expect(one.code).toBe(3);
    expect(
      one
        .json()
        .issues.filter((i: { code: string }) => i.code === 'STATUS_COLUMN_UNDECIDED')
        .map((i: { column: string }) => i.column),
    ).toEqual(['Employment Status']);
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    const decided = await runCli([...args, '--status-column', 'Status', '--active', 'Active', '--no-status-column', 'Employment Status'], { env: sb.env });
    expect(decided.code, decided.stderr).toBe(0);
    expect(((await sb.stored('/integrations/teamMembers')) as { employeeID: string }[]).map((m) => m.employeeID)).toEqual(['E1']);
    const clash = await runCli([...args, '--status-column', 'Status', '--active', 'Active', '--no-status-column', 'status'], { env: sb.env });
    expect(clash.code).toBe(2);
    expect(clash.json().error.code).toBe('BAD_FLAG');
    const missing = await runCli(
      [...args, '--dry-run', '--no-status-column', 'Status', '--no-status-column', 'Employment Status', '--no-status-column', 'State'],
      {
        env: sb.env,
      },
    );
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.json().issues).toEqual([
      expect.objectContaining({ code: 'IGNORED_COLUMN_MISSING', message: expect.stringContaining('--no-status-column') }),
    ]);
    // The mapping says the same, for a nightly job.
    const mapped = await runCli([...args, '--map', JSON.stringify({ status: { column: 'Status', active: ['Active'] }, notStatus: ['Employment Status'] })], {
      env: sb.env,
    });
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(mapped.json().issues.map((i: { code: string }) => i.code)).toEqual(['STATUS_EXCLUDED']);
  });

  it('recognises the German header and words', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'personio.csv');
    writeFileSync(file, 'Personalnummer,E-Mail,Name,Beschäftigungsstatus\nP1,a@example.com,A A,Aktiv\nP2,b@example.com,B B,Ausgetreten\n');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(3);
    expect(r.json().issues.find((i: { code: string }) => i.code === 'LEAVER_ROW')).toMatchObject({
      line: 3,
      column: 'Beschäftigungsstatus',
      value: 'Ausgetreten',
    });
  });

  it('--status-column and --active keep the rows asked for, and list the others in a warning', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'workday.csv');
    writeFileSync(file, WORKDAY + '\n');
    const r = await runCli(
      ['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, '--status-column', 'Employment Status', '--active', 'Active,On Leave'],
      { env: sb.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const warning = r.json().issues.find((i: { code: string }) => i.code === 'STATUS_EXCLUDED');
    expect(warning.message).toBe("2 rows left out by Employment Status (not one of --active): line 3 (E2): 'Terminated', line 5 (E4): 'Inactive'");
    expect(((await sb.stored('/integrations/teamMembers')) as { employeeID: string }[]).map((m) => m.employeeID)).toEqual(['E1', 'E3']);
  });

  it('the mapping file says the same, and one flag without the other is a usage error', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'workday.csv');
    writeFileSync(file, WORKDAY + '\n');
    const map = JSON.stringify({ status: { column: 'Employment Status', active: ['Active'] } });
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir, '--map', map], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.json().records).toBe(4);
    expect(r.json().diff).toMatchObject({ added: null });
    expect(r.json().issues.find((i: { code: string }) => i.code === 'STATUS_EXCLUDED').message).toMatch(/^3 rows left out/);
    const half = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir, '--active', 'Active'], {
      env: sb.env,
    });
    expect(half.code).toBe(2);
    expect(half.json().error.code).toBe('BAD_FLAG');
    const missing = await runCli(
      ['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir, '--status-column', 'Status', '--active', 'Active'],
      { env: sb.env },
    );
    expect(missing.code).toBe(3);
    expect(missing.json().issues[0]).toMatchObject({ code: 'MAPPED_COLUMN_MISSING' });
  });

  it('a column whose statuses start after the first rows is still found by the end of the file', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'late.csv');
    const rows = Array.from({ length: 3000 }, (_, i) => `E${i + 1},p${i + 1}@example.com,Person ${i + 1},CASH,S1,${i === 2500 ? 'Terminated' : ''}`);
    writeFileSync(file, ['employeeID,email,name,roleCode,parentKey,Flag', ...rows].join('\n') + '\n');
    const args = ['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir];
    const r = await runCli(args, { env: sb.env });
    expect(r.code).toBe(3);
    const undecided = r.json().issues.find((i: { code: string }) => i.code === 'STATUS_COLUMN_UNDECIDED');
    expect(undecided).toMatchObject({ column: 'Flag', fixes: [{ kind: 'flags', args: ['--no-status-column', 'Flag'] }] });
    expect(undecided.message).toBe(
      "column 'Flag' holds employment statuses ((empty) ×2999, 'Terminated' ×1): people who left would be uploaded; say which statuses to keep: --status-column 'Flag' --active VALUES keeps the statuses you name and leaves out the rest; or, if it is no status, keep every row with --no-status-column 'Flag'",
    );
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    // --ignore-column is no answer; --no-status-column is one.
    expect((await runCli([...args, '--ignore-column', 'Flag'], { env: sb.env })).code).toBe(3);
    const followed = await runCli([...args, ...undecided.fixes[0].args], { env: sb.env });
    expect(followed.code, followed.stderr).toBe(0);
    expect((await sb.stored('/integrations/teamMembers')).length).toBe(3000);
  });

  it("a Leaver column ticked only for leavers: the fix keeps the empty cells, written '(empty)'", async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'sage.csv');
    writeFileSync(file, 'Reference,Name,E-Mail,Leaver\nS1,Jon Kerr,jon@example.com,\nS2,Kim Lowe,kim@example.com,Y\nS3,Lee Mann,lee@example.com,\n');
    const args = ['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, '--map', '{"employeeID": "Reference"}'];
    const r = await runCli(args, { env: sb.env });
    expect(r.code).toBe(3);
    const undecided = r.json().issues.find((i: { code: string }) => i.code === 'STATUS_COLUMN_UNDECIDED');
    expect(undecided.fixes[0]).toEqual({ kind: 'flags', args: ['--status-column', 'Leaver', '--active', '(empty)'] });
    expect(undecided.message).toContain("holds (empty) ×2, 'Y' ×1");
    const followed = await runCli([...args, ...undecided.fixes[0].args], { env: sb.env });
    expect(followed.code, followed.stderr).toBe(0);
    expect(((await sb.stored('/integrations/teamMembers')) as { employeeID: string }[]).map((m) => m.employeeID)).toEqual(['S1', 'S3']);
  });

  it('more leavers than the issue limit: the decision is still the first issue, and each leaver row is a rejected row', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'many.csv');
    const rows = Array.from({ length: 1500 }, (_, i) => `E${i + 1},p${i + 1}@example.com,Person ${i + 1},${i % 2 ? 'Active' : 'Terminated'}`);
    writeFileSync(file, ['Employee ID,Email,Name,Employment Status', ...rows].join('\n') + '\n');
    const errors = join(sb.dir, 'rejected.csv');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir, '--errors-csv', errors], {
      env: sb.env,
    });
    expect(r.code).toBe(3);
    expect(r.json().issues[0]).toMatchObject({ code: 'STATUS_COLUMN_UNDECIDED', column: 'Employment Status' });
    expect(r.json().issueCounts).toEqual({ STATUS_COLUMN_UNDECIDED: 1, LEAVER_ROW: 750 });
    const rejected = readFileSync(errors, 'utf8').trim().split('\n');
    expect(rejected).toHaveLength(751);
    expect(rejected[1]).toMatch(/^E1,p1@example.com,Person 1,Terminated,"line 2: Employment Status: Employment Status is 'Terminated' for E1:/);
  });
});

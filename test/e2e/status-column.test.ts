// HR exports carry leavers: a status column with `Terminated` or `Ausgetreten` is recognised, such rows
// are an error naming them, and `--status-column COL --active VALUES` (or the mapping's "status") keeps
// the rows asked for, leaving the others out with a warning that lists them.
import { writeFileSync } from 'node:fs';
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
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state-dir', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(3);
    const leavers = r.json().issues.filter((i: { code: string }) => i.code === 'LEAVER_ROW');
    expect(leavers.map((i: { line: number; value: string }) => [i.line, i.value])).toEqual([
      [3, 'Terminated'],
      [5, 'Inactive'],
    ]);
    expect(leavers[0].message).toContain("Employment Status is 'Terminated' for E2");
    expect(leavers[0].message).toContain("--status-column 'Employment Status' --active");
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
  });

  it('recognises the German header and words', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'personio.csv');
    writeFileSync(file, 'Personalnummer,E-Mail,Name,Beschäftigungsstatus\nP1,a@example.com,A A,Aktiv\nP2,b@example.com,B B,Ausgetreten\n');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state-dir', sb.stateDir], { env: sb.env });
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
      [
        'team-members',
        file,
        '--yes',
        '--no-baseline',
        '--json',
        '--state-dir',
        sb.stateDir,
        '--status-column',
        'Employment Status',
        '--active',
        'Active,On Leave',
      ],
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
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state-dir', sb.stateDir, '--map', map], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.json().records).toBe(4);
    expect(r.json().diff).toMatchObject({ added: null });
    expect(r.json().issues.find((i: { code: string }) => i.code === 'STATUS_EXCLUDED').message).toMatch(/^3 rows left out/);
    const half = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state-dir', sb.stateDir, '--active', 'Active'], {
      env: sb.env,
    });
    expect(half.code).toBe(2);
    expect(half.json().error.code).toBe('BAD_FLAG');
    const missing = await runCli(
      ['team-members', file, '--dry-run', '--no-baseline', '--json', '--state-dir', sb.stateDir, '--status-column', 'Status', '--active', 'Active'],
      { env: sb.env },
    );
    expect(missing.code).toBe(3);
    expect(missing.json().issues[0]).toMatchObject({ code: 'MAPPED_COLUMN_MISSING' });
  });
});

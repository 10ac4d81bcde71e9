// A state directory shared through its group (set-gid, 2770): every file the tool writes there stays
// writable by the group whatever the writer's umask, so each member's run can add to history and to
// the audit log. Two operating-system accounts where the machine allows it (root on Linux, as CI
// runs: a clerk account made with useradd, the CLI run as it through runuser), both with umask 022.
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliResult } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { groupFolder, runAs, tryAccounts } from '../helpers/os-users.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const CLERK = 'su42-clerk';
const TEAM = 'su42-team';

let sb: TestSandbox;
let dir: string;
/** The clerk's account, the team's group and a Node it can run, where the machine allows them. */
let accounts: ReturnType<typeof tryAccounts>;

/** The CLI as `user` (or the tests' account), in a process of its own with umask 022. */
function as(user: string | undefined, args: readonly string[]): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: sb.url };
  return runAs(user, ['sh', '-c', 'umask 022; exec "$@"', 'sh', accounts?.node ?? process.execPath, BIN, ...args], dir, env);
}

function filesUnder(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(path, e.name)) : [join(path, e.name)]));
}

beforeAll(async () => {
  sb = await sandbox();
  const t = tempDir();
  dir = t.dir;
  chmodSync(dir, 0o755);
  accounts = tryAccounts(TEAM, [CLERK], dir);
});

describe('a state directory shared through its group', () => {
  it('every file written is 0660 under umask 022, and each member leaves history and audit lines', async () => {
    const state = groupFolder(join(dir, 'state'), accounts?.gid);
    const first = writeMembers(dir, 'first.csv', range(1, 10));
    const second = writeMembers(dir, 'second.csv', range(1, 11));
    const third = writeMembers(dir, 'third.csv', range(1, 12));
    chmodSync(first, 0o644);
    chmodSync(second, 0o644);
    chmodSync(third, 0o644);

    const a = await as(undefined, ['team-members', first, '--yes', '--no-baseline', '--state', state]);
    expect(a.code, a.stderr).toBe(0);
    for (const file of filesUnder(state)) expect(statSync(file).mode & 0o777, file).toBe(0o660);

    const b = await as(accounts ? CLERK : undefined, ['team-members', second, '--yes', '--state', state]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).not.toMatch(/could not be written|EACCES/);
    const c = await as(undefined, ['team-members', third, '--yes', '--state', state]);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).not.toMatch(/could not be written|EACCES/);

    const audit = filesUnder(state).find((f) => f.endsWith('audit.jsonl'))!;
    const lines = readFileSync(audit, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    const history = await as(undefined, ['history', 'team-members', '--state', state, '--json']);
    expect(history.code, history.stderr).toBe(0);
    expect(JSON.stringify(history.json())).toContain(accounts ? CLERK : 'root');
    for (const file of filesUnder(state)) expect(statSync(file).mode & 0o777, file).toBe(0o660);
  });
});

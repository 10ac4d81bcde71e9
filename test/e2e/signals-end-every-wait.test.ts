// A signal always ends the run: the real CLI, as a process, is brought into each wait a run can be in,
// with a process of the test's holding the other end; then SIGTERM (or SIGINT) must end it within a
// bound that only catches a hang (startCli kills it after 25 s, and the exit code is then null), with
// the documented exit (130, interrupted) and nothing half-written in the state folder.
// Waits tested elsewhere, not again here: a PostgreSQL statement behind a locked table
// (postgres-failures.test.ts), the service's answer to an upload (lock.test.ts, SIGINT and SIGTERM),
// Ctrl-C on a terminal while the input is read and on standard input (ctrl-c-terminal.test.ts),
// a workbook being parsed (hostile-workbooks.test.ts).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { scriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { startCli, until, type Running } from '../helpers/spawn.js';
import { keyDir, lockOf } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';
import { closeTerminals, inTerminal } from '../helpers/tmux.js';

let sb: TestSandbox;
let servers: ScriptedServer[] = [];
beforeAll(async () => {
  sb = await sandbox();
});
afterEach(async () => {
  closeTerminals();
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
afterAll(async () => {
  await sb.stop();
});

async function serve(...args: Parameters<typeof scriptedServer>): Promise<ScriptedServer> {
  const server = await scriptedServer(...args);
  servers.push(server);
  return server;
}

/** The run's end after `signal`: exit 130, interrupted, within the bound. */
async function endedBy(run: Running, signal: NodeJS.Signals): Promise<string> {
  const sent = Date.now();
  run.child.kill(signal);
  const done = await run.done;
  expect(done.code, done.stderr).toBe(130);
  expect(done.stderr).toContain('interrupted');
  expect(Date.now() - sent).toBeLessThan(20_000);
  return done.stderr;
}

/** Nothing half-written: no temp file, no lock left in the store's folder for this address. */
function nothingHalfWritten(state: string, url: string): void {
  expect(existsSync(lockOf(state, url))).toBe(false);
  const dir = keyDir(state, url);
  const left = existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
  expect(left.filter((f) => /\.tmp|~$/.test(f))).toEqual([]);
}

describe('the service', () => {
  it('SIGTERM while apply waits for an answer that never comes: 130, the sent upload left pending, the lock gone', async () => {
    const service = await serve([{ hang: true }]);
    const t = tempDir();
    const state = join(t.dir, 'state');
    const plan = join(t.dir, 'nightly.plan.json');
    const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: service.url, NO_COLOR: '1' };
    const made = await runCli(['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--dry-run', '--no-baseline', '--plan-out', plan, '--state', state], {
      env,
    });
    expect(made.code, made.stderr).toBe(0);
    const run = startCli(['apply', plan, '--yes', '--state', state], env);
    await service.nextRequest();
    const stderr = await endedBy(run, 'SIGTERM');
    // The body reached the service: whether it applied it is not known, and the run says so.
    expect(stderr).toMatch(/unknown|may have/i);
    nothingHalfWritten(state, service.url);
    const history = await runCli(['history', 'team-members', '--json', '--state', state], { env });
    expect(history.json().pending).not.toBeNull();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`${signal} while the run waits out a Retry-After before retrying: 130 at once, nothing recorded`, async () => {
      const service = await serve([{ status: 503, headers: { 'retry-after': '90' }, body: { message: 'down for maintenance' } }]);
      const t = tempDir();
      const state = join(t.dir, 'state');
      const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: service.url, NO_COLOR: '1' };
      const run = startCli(['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--yes', '--no-baseline', '--retries', '3', '--state', state], env);
      await service.nextRequest();
      // The 503 has gone out: the run is in its wait of 90 s (the condition: nothing more arrives).
      await new Promise((r) => setTimeout(r, 300));
      expect(service.requests).toHaveLength(1);
      await endedBy(run, signal);
      expect(service.requests).toHaveLength(1);
      nothingHalfWritten(state, service.url);
    });
});

describe('a notification webhook that never answers', () => {
  it("SIGTERM while the post waits: the post ends at once, the exit code is the upload's (0), the upload recorded", async () => {
    const hook = await serve([{ hang: true }]);
    const t = tempDir();
    const state = join(t.dir, 'state');
    const run = startCli(
      ['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--yes', '--no-baseline', '--state', state, '--notify', hook.url, '--notify-on', 'always'],
      { ...sb.env, NO_COLOR: '1' },
    );
    await hook.nextRequest();
    run.child.kill('SIGTERM');
    const done = await run.done;
    // The upload was done and recorded before the post: the signal ends the wait, not the outcome,
    // and no second attempt is made (waited out, the two attempts took about 9 s).
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('was not delivered (stopped by a signal)');
    expect(hook.requests).toHaveLength(1);
    expect(readFileSync(join(keyDir(state, sb.url), 'head.json'), 'utf8')).toMatch(/"generation":\s*1/);
    nothingHalfWritten(state, sb.url);
  });
});

describe('the state store', () => {
  let silent: Server;
  let silentPort: number;
  const connectedTo: Socket[] = [];
  beforeAll(async () => {
    silent = createServer((socket) => void connectedTo.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of connectedTo) s.destroy();
    await new Promise((r) => silent.close(r));
  });

  it('SIGTERM while connecting to a PostgreSQL port that accepts and never answers: 130, not the connect timeout', async () => {
    const before = connectedTo.length;
    const run = startCli(['history', 'team-members', '--state', `postgres://app@127.0.0.1:${silentPort}/state`], { ...sb.env, NO_COLOR: '1' });
    await until(() => connectedTo.length > before);
    await endedBy(run, 'SIGTERM');
  });

  it('SIGTERM while an upload connects to a PostgreSQL port that never answers: 130, nothing sent', async () => {
    const before = connectedTo.length;
    const held = await sb.stored('/integrations/teamMembers');
    const t = tempDir();
    const run = startCli(['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--yes', '--state', `postgres://app@127.0.0.1:${silentPort}/state`], {
      ...sb.env,
      NO_COLOR: '1',
    });
    await until(() => connectedTo.length > before);
    await endedBy(run, 'SIGTERM');
    expect(await sb.stored('/integrations/teamMembers')).toEqual(held);
  });
});

describe('the directory lock', () => {
  it('SIGTERM while a lease from another host is watched for a whole lease (60 s): 130 at once, the lease untouched', async () => {
    const t = tempDir();
    const state = join(t.dir, 'state');
    const first = await runCli(['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--yes', '--no-baseline', '--state', state], { env: sb.env });
    expect(first.code, first.stderr).toBe(0);
    // Expired by its own clock, from a host whose processes this one cannot see: taken over only once
    // it has stood still for a whole lease.
    const lease = {
      user: 'cron',
      host: 'elsewhere',
      pid: 1,
      what: 'team members',
      id: 'f0reign',
      machine: 'elsewhere',
      since: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:01:00.000Z',
    };
    writeFileSync(lockOf(state, sb.url), `${JSON.stringify(lease)}\n`);
    const run = startCli(['team-members', writeMembers(t.dir, 'b.csv', range(1, 6)), '--yes', '--state', state], { ...sb.env, NO_COLOR: '1' });
    await until(() => run.stderr().includes('Changes against upload #1'));
    await new Promise((r) => setTimeout(r, 1000));
    await endedBy(run, 'SIGTERM');
    expect(JSON.parse(readFileSync(lockOf(state, sb.url), 'utf8'))).toMatchObject({ id: 'f0reign' });
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(5);
  });
});

describe('standard input held open', () => {
  it('SIGTERM while the read waits for a producer that never writes more: 130', async () => {
    const state = join(tempDir().dir, 'state');
    const run = startCli(['team-members', '-', '--dry-run', '--state', state], { ...sb.env, NO_COLOR: '1' }, undefined, { keepStdin: true });
    run.child.stdin!.write('employeeID,email,name\nE1,a@example.com,A\n');
    await until(() => run.stderr().includes('Reading stdin'));
    await endedBy(run, 'SIGTERM');
    run.child.stdin!.destroy();
  });
});

describe('a big file being read', () => {
  it('SIGTERM while 20 MB of CSV is read and checked: 130 within the bound', async () => {
    const t = tempDir();
    const lines = ['employeeID,email,name,roleCode,parentKey'];
    for (let i = 0; i < 400_000; i++) lines.push(`E${i},a${i}@example.com,Name Number ${i},3,S1`);
    const big = join(t.dir, 'big.csv');
    writeFileSync(big, `${lines.join('\n')}\n`);
    const run = startCli(['team-members', big, '--dry-run', '--no-baseline', '--state', join(t.dir, 'state')], { ...sb.env, NO_COLOR: '1' });
    await until(() => run.stderr().includes('Reading'));
    await endedBy(run, 'SIGTERM');
  });
});

describe('the question on a terminal', () => {
  it('SIGTERM while the confirmation waits for an answer: 130, nothing sent, the lock released', async () => {
    const t = tempDir();
    const state = join(t.dir, 'state');
    const before = (await sb.stored('/integrations/teamMembers')).length;
    const term = inTerminal(['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--no-baseline', '--state', state], { ...sb.env, NO_COLOR: '1' });
    await term.until(/\[y\/N\]|Proceed|Send/i);
    // The run holds the lock while it asks: its pid is in the lock file.
    const lock = lockOf(state, sb.url);
    await until(() => existsSync(lock));
    const { pid } = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
    const after = await term.until(/^exit \d+$/m);
    expect(after).toMatch(/^exit 130$/m);
    expect((await sb.stored('/integrations/teamMembers')).length).toBe(before);
    nothingHalfWritten(state, sb.url);
  });
});

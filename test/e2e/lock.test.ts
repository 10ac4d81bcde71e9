// One run at a time: a second run is refused while the first is sending; a lock left behind by a
// killed run is recovered; a terminated run removes its lock.
import { auditLines, lockOf } from '../helpers/state.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { TOKEN } from '../helpers/sandbox.js';
import { gate, scriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service that holds its answer to the first upload until the test opens the gate. */
async function heldService() {
  const held = gate();
  server = await scriptedServer(async (_req, i) => {
    if (i === 0) await held.promise;
    return { ok: true };
  });
  const t = tempDir();
  const stateDir = join(t.dir, 'state');
  const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: server.url };
  const args = (file: string, ...more: string[]) => ['team-members', file, '--yes', '--no-baseline', '--json', '--state', stateDir, ...more];
  const lock = lockOf(stateDir, server.url);
  return { server, held, t, env, args, lock, stateDir };
}

/** The CLI as a child whose pid the test knows, to signal it. */
function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exited };
}

describe('the lock', () => {
  it('refuses a second run while the first is sending, saying who holds it and since when', async () => {
    const { server, held, t, env, args, lock } = await heldService();
    const first = start(args(writeMembers(t.dir, 'a.csv', range(1, 5))), env);
    await server.nextRequest();
    const owner = JSON.parse(readFileSync(lock, 'utf8'));
    expect(owner.pid).toBe(first.child.pid);

    const second = await runCli(args(writeMembers(t.dir, 'b.csv', range(1, 5))), { env });
    expect(second.code).toBe(4);
    expect(second.json()).toMatchObject({ outcome: 'refused', error: { code: 'LOCK_HELD' } });
    expect(second.json().error.message).toContain(`process ${first.child.pid} of ${owner.user} on ${hostname()}, since ${owner.since}`);
    // A dry run changes nothing, so it takes no lock and is not refused.
    const dry = await runCli([...args(writeMembers(t.dir, 'c.csv', range(1, 5))), '--dry-run', '--no-baseline'], { env });
    expect(dry.code).toBe(0);

    held.open();
    expect((await first.exited).code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('is removed when the run gets %s mid-send', async (signal) => {
    const { server, t, env, args, lock } = await heldService();
    const run = start(args(writeMembers(t.dir, 'a.csv', range(1, 5))), env);
    await server.nextRequest();
    expect(existsSync(lock)).toBe(true);
    run.child.kill(signal);
    // Both end the run in order: reported as interrupted (130), the lock released on the way out.
    expect((await run.exited).code).toBe(130);
    expect(existsSync(lock)).toBe(false);
  });

  it('left behind by a killed run is recovered by the next run, which says so', async () => {
    const { server, t, env, args, lock, stateDir } = await heldService();
    const file = writeMembers(t.dir, 'a.csv', range(1, 5));
    const killed = start(args(file), env);
    await server.nextRequest();
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(killed.child.pid);

    // The killed run's body reached the service: another file waits until it is settled, the same one
    // is sent again (whichever set the service holds, it then holds this one).
    const other = await runCli(args(writeMembers(t.dir, 'b.csv', range(1, 6))), { env });
    expect(other.json()).toMatchObject({ exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
    const next = await runCli(args(file), { env });
    expect(next.code).toBe(0);
    expect(`${other.stderr}${next.stderr}`).toMatch(new RegExp(`Recovered a stale lock left by process ${killed.child.pid} .* no longer running`));
    expect(existsSync(lock)).toBe(false);
    // The killed run never confirmed anything: the audit log holds only the run that did.
    expect(auditLines(stateDir, server.url).map((l) => l.count)).toEqual([5]);
  });

  it('recovers a lock file naming a process that is dead on this host', async () => {
    server = await scriptedServer([{ ok: true }]);
    const t = tempDir();
    const stateDir = join(t.dir, 'state');
    const lock = lockOf(stateDir, server.url);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(
      lock,
      JSON.stringify({
        pid: dead,
        host: hostname(),
        machine: hostname(),
        user: 'cron',
        what: 'x',
        id: 'old',
        since: '2024-05-01T02:00:00.000Z',
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      }),
    );
    const r = await runCli(['team-members', writeMembers(t.dir, 'a.csv', range(1, 2)), '--yes', '--no-baseline', '--state', stateDir], {
      env: { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: server.url },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Recovered a stale lock left by process ${dead} of cron on ${hostname()} (since 2024-05-01T02:00:00.000Z)`);
    expect(existsSync(lock)).toBe(false);
  });
});

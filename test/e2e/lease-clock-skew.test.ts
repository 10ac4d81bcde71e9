// The directory lease between hosts whose clocks disagree. The holder keeps its lease alive with a
// heartbeat; another host never takes it over on the word of its own clock, only after watching the
// heartbeat stand still for a full lease on its monotonic clock. Real processes: the other host is a
// UTS namespace with its own host name (`unshare -u`), its clock skewed with libfaketime (`faketime`,
// Debian's package; .ci/run installs it).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';
import { HANG_MS } from '../helpers/hang.js';

const TOKEN = 'token-for-the-lease-test';

/** The CLI as another host would run it: its own host name, its clock `skew` ('+5m', '-5m') away. */
function onOtherHost(
  skew: string | undefined,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clock = skew ? `exec faketime -f '${skew}' "$0" "$@"` : 'exec "$0" "$@"';
  const child = spawn('unshare', ['-u', 'sh', '-c', `hostname other-host && ${clock}`, process.execPath, BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...env },
  });
  return collect(child);
}

function onThisHost(skew: string | undefined, args: readonly string[], env: Record<string, string>) {
  const child = skew
    ? spawn('faketime', ['-f', skew, process.execPath, BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env } })
    : spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env } });
  return collect(child);
}

function collect(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  // Only a hang is caught (../helpers/hang.ts).
  const killer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('a lease held while another host, whose clock is skewed, wants it', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    // [name, the holder's skew, the other host's skew]
    ['the other host 5 minutes ahead (the lease looks expired to it)', undefined, '+5m'],
    ['the holder 5 minutes ahead (the other host behind)', '+5m', undefined],
  ];
  for (const [name, holderSkew, takerSkew] of cases) {
    it(`${name}: never taken over while the holder sends; LOCK_HELD, exit 4`, async () => {
      let answer: () => void = () => {};
      const released = new Promise<void>((resolve) => (answer = resolve));
      const server = await scriptedServer(async (_req, i) => {
        if (i === 0) await released;
        return { ok: true };
      });
      try {
        const dir = tempDir().dir;
        const state = `${dir}/state`;
        const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_LEASE_SECONDS: '2' };
        const args = (file: string) => ['team-members', file, '--yes', '--no-baseline', '--json', '--state', state, '--base-url', server.url];
        const holder = onThisHost(holderSkew, args(writeMembers(dir, 'holder.csv', range(1, 10))), env);
        await server.nextRequest();
        // The holder is sending, its lease renewed every half second. The other host looks for up to a lease.
        const taker = await onOtherHost(takerSkew, args(writeMembers(dir, 'taker.csv', range(1, 20))), env);
        answer();
        const held = await holder;
        expect(JSON.parse(taker.stdout)).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_HELD' } });
        expect(held.code).toBe(0);
        expect(server.requests).toHaveLength(1);
      } finally {
        answer();
        await server.close();
      }
    });
  }

  it('a holder that died on the other host: taken over once its heartbeat stood still for a full lease', async () => {
    const server = await scriptedServer(async (_req, i) => (i === 0 ? new Promise<never>(() => {}) : { ok: true }));
    try {
      const dir = tempDir().dir;
      const state = `${dir}/state`;
      // A one-second lease: no live holder here has to keep it against a busy machine's late timers.
      const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_LEASE_SECONDS: '1' };
      const args = (file: string) => ['team-members', file, '--yes', '--no-baseline', '--json', '--state', state, '--base-url', server.url];
      const child = spawn(
        'unshare',
        ['-u', 'sh', '-c', 'hostname other-host && exec "$0" "$@"', process.execPath, BIN, ...args(writeMembers(dir, 'a.csv', range(1, 5)))],
        {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
        },
      );
      await server.nextRequest();
      // Killed while sending: SIGKILL leaves its lease file behind, naming a host that is not this one.
      const closed = new Promise((r) => child.on('close', r));
      child.kill('SIGKILL');
      await closed;
      // Past its expiry by its own word (the holder's last renewal plus a lease), with room to spare.
      await new Promise((r) => setTimeout(r, 1500));
      const started = Date.now();
      const run = await onThisHost(undefined, args(writeMembers(dir, 'b.csv', range(1, 5))), env);
      expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
      // Watched for a full lease (1 s) before the takeover.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    } finally {
      await server.close();
    }
  });
});

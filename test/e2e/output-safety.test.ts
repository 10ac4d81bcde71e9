// The files the tool writes are written the safe way: to a temp file in the same folder, renamed into
// place. A symbolic link is never followed, a FIFO or device never written into (nor waited on), an
// existing file is replaced rather than written into (another user's file keeps none of our data),
// and a short write is an error that leaves nothing half-written behind.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY, upload } from '../helpers/canary.js';
import { BIN, fixture, runCli } from '../helpers/cli.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { keyDir, lockOf } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';
import { HANG_MS } from '../helpers/hang.js';

const { serve } = serversForFile();
const dryRun = (extra: string[]) => runCli(['team-members', fixture('team-members.csv'), '--dry-run', '--no-baseline', '--json', ...extra]);
const FLAGS = ['--payload-out', '--diff-out', '--errors-csv'] as const;

describe.concurrent('a file flag never writes through a link or into a FIFO', () => {
  for (const flag of FLAGS) {
    it(`${flag} naming a symbolic link: refused before reading, the link's target untouched`, async () => {
      const tmp = tempDir();
      const target = tmp.write('precious.txt', 'do not touch\n');
      const link = join(tmp.dir, 'out');
      symlinkSync(target, link);
      const run = await dryRun([flag, link]);
      expect(run.code).toBe(2);
      expect(run.json().error).toMatchObject({ code: 'OUTPUT_UNWRITABLE' });
      expect(run.json().error.message).toMatch(/symbolic link/);
      expect(readFileSync(target, 'utf8')).toBe('do not touch\n');
    });

    it(`${flag} naming a FIFO: refused at once, nothing waits for a reader`, async () => {
      const tmp = tempDir();
      const fifo = join(tmp.dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      // Opening a FIFO waits for a reader that never comes: a run that tried would never end.
      const run = await dryRun([flag, fifo]);
      expect(run.code).toBe(2);
      expect(run.json().error.message).toMatch(/FIFO/);
    });
  }

  it('--payload-out /dev/null (a device) is refused', async () => {
    const run = await dryRun(['--payload-out', '/dev/null']);
    expect(run.code).toBe(2);
    expect(run.json().error.message).toMatch(/a device/);
  });

  it('an existing file is replaced, not written into: a new inode, mode 0600', async () => {
    const tmp = tempDir();
    const out = tmp.write('payload.json', 'old');
    execFileSync('chmod', ['644', out]);
    const before = statSync(out).ino;
    const run = await dryRun(['--payload-out', out]);
    expect(run.code).toBe(0);
    expect(statSync(out).ino).not.toBe(before);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(3);
    expect(readdirSync(tmp.dir)).toEqual(['payload.json']);
  });
});

describe('a short write (a full disk, or a file-size limit)', () => {
  it('--payload-out past `ulimit -f` is an error, exit 2, and no file is left behind', () => {
    const tmp = tempDir();
    const out = join(tmp.dir, 'payload.json');
    // 1 block of 512 bytes; SIGXFSZ ignored (inherited over exec) so the write fails instead of killing.
    const shell = `ulimit -f 1; trap '' XFSZ; exec "$0" "$@"`;
    const big = tmp.write('big.csv', `employeeID,email,name\n${Array.from({ length: 200 }, (_, i) => `E${i},p${i}@example.com,Person ${i}`).join('\n')}\n`);
    const ran = spawnSync('bash', ['-c', shell, process.execPath, BIN, 'team-members', big, '--dry-run', '--no-baseline', '--json', '--payload-out', out], {
      encoding: 'utf8',
      timeout: HANG_MS,
      env: { PATH: process.env.PATH ?? '', HOME: tmp.dir, NO_COLOR: '1' },
    });
    expect(ran.status).toBe(2);
    expect((JSON.parse(ran.stdout) as { error: { code: string } }).error.code).toBe('OUTPUT_UNWRITABLE');
    expect(readdirSync(tmp.dir).sort()).toEqual(['big.csv']);
  });
});

describe.concurrent('the state folder', () => {
  it('a lock that is a FIFO: refused at once with STATE_UNUSABLE (exit 2), not a hang', async () => {
    const server = await serve({ ok: true });
    const state = tempDir().dir;
    const lock = lockOf(state, server.url);
    mkdirSync(dirname(lock), { recursive: true });
    execFileSync('mkfifo', [lock]);
    const run = await runCli(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--json', '--state', state, '--base-url', server.url], {
      env: { UPLOAD_TOKEN: CANARY },
    });
    expect(run.code).toBe(2);
    expect(run.json().error).toMatchObject({ code: 'STATE_UNUSABLE' });
    expect(run.json().error.message).toMatch(/FIFO/);
    expect(server.requests).toHaveLength(0);
  });

  it('audit.jsonl replaced by a symbolic link is never appended through', async () => {
    const server = await serve({ ok: true });
    const first = await upload(server.url);
    expect(first.code).toBe(0);
    const audit = join(keyDir(first.stateDir, server.url), 'audit.jsonl');
    const elsewhere = join(tempDir().dir, 'elsewhere.log');
    writeFileSync(elsewhere, 'mine\n');
    execFileSync('rm', [audit]);
    symlinkSync(elsewhere, audit);
    const run = await runCli(['team-members', fixture('team-members.csv'), '--yes', '--json', '--state', first.stateDir, '--base-url', server.url], {
      env: { UPLOAD_TOKEN: CANARY },
    });
    expect(readFileSync(elsewhere, 'utf8')).toBe('mine\n');
    expect(run.stderr).toMatch(/audit log .* could not be written.*symbolic link/);
    expect(existsSync(audit)).toBe(true);
  });
});

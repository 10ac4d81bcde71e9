// An upload writes a large body to a spool beside the intent's bytes as it plans it (on the hashing
// thread, StateStore.spool), so that its tail does not wait for 137 MB to reach the disk
// (docs/performance.md, round 6, seventh and tenth sessions); the first upload to a key makes the
// key's folder for it. Through the program as it ships, to a node:http service that hashes what it
// receives: the record is the very file the run spooled, holding the bytes received; a run refused
// after its plan (invalid, by a guard, at the lock) or ended by a signal leaves nothing in the store
// (no folder where there was none), and never another run's spool.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOKS_BIN } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { pausedAt, resume } from '../helpers/race.js';
import { startCli } from '../helpers/spawn.js';
import { keyDir, latestSnapshot } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

/** Over 16 MiB of body: hashed, and so spooled, on a thread of its own. */
const PEOPLE = 160_000;

const received: { bytes: number; sha256: string }[] = [];
let url = '';
let close: () => Promise<void>;
beforeAll(async () => {
  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    req.on('end', () => {
      received.push({ bytes, sha256: hash.digest('hex') });
      // Every upload it is sent holds PEOPLE people.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `${PEOPLE} team member(s) uploaded`, status: 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

const left = (state: string) => readdirSync(keyDir(state, url)).filter((n) => n.endsWith('.tmp'));
const spoolIn = (state: string) => left(state).find((n) => /^\.intent\.[0-9a-f]{16}\.body\.json\..*\.tmp$/.test(n));
const uploadTo = (state: string, args: string[], extra: Record<string, string> = {}) =>
  startCli(['team-members', ...args, '--json', '--state', state], { UPLOAD_TOKEN: 'test-token-123', UPLOAD_BASE_URL: url, ...extra }, HOOKS_BIN);

/**
 * A run started paused at `planned`, let go once its spool is seen: uploaded, and recorded as the very
 * file it spooled, which holds the bytes the service received; nothing else left. Its snapshot's bytes.
 */
async function recordedAsSpooled(run: ReturnType<typeof uploadTo>, state: string): Promise<Buffer> {
  await pausedAt(run, 'planned');
  const spool = spoolIn(state);
  expect(spool).toBeDefined();
  const inode = statSync(join(keyDir(state, url), spool!)).ino;
  resume(run);
  const { code, stdout } = await run.done;
  expect(JSON.parse(stdout)).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
  expect(code).toBe(0);
  const snapshot = latestSnapshot(state, url)!;
  expect(statSync(snapshot).ino).toBe(inode);
  const bytes = readFileSync(snapshot);
  expect(received.at(-1)).toEqual({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  expect(left(state)).toEqual([]);
  return bytes;
}

/** A run paused at `step` with its spool written, sent `signal` and let go: it ends as the signal says. */
async function stoppedBy(signal: 'SIGTERM' | 'SIGHUP', run: ReturnType<typeof uploadTo>, state: string, step: 'planned' | 'spooled'): Promise<void> {
  await pausedAt(run, step);
  expect(spoolIn(state)).toBeDefined();
  run.child.kill(signal);
  resume(run);
  const done = await run.done;
  // SIGTERM is the tool's to handle (130); a closed terminal's SIGHUP ends it as the signal does.
  expect(signal === 'SIGTERM' ? done.code : done.signal).toBe(signal === 'SIGTERM' ? 130 : 'SIGHUP');
}

describe('an upload to a store that has its folder spools its body as it plans it', () => {
  const t = tempDir();
  const state = join(t.dir, 'state');
  const file = writeMembers(t.dir, 'staff.csv', range(1, PEOPLE));
  const upload = (args: string[], extra: Record<string, string> = {}) => uploadTo(state, args, extra);

  it('after a first upload, the next is recorded as the file it spooled, holding the bytes received', async () => {
    const first = await upload([file, '--yes', '--no-baseline']).done;
    expect(JSON.parse(first.stdout)).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
    expect(left(state)).toEqual([]);

    const next = writeMembers(t.dir, 'next.csv', range(2, PEOPLE + 1));
    const bytes = await recordedAsSpooled(upload([next, '--yes'], { UPLOAD_TEST_PAUSE_AT: 'planned' }), state);
    expect(bytes.length).toBeGreaterThan(16 * 1024 * 1024);
    expect(JSON.parse(readFileSync(join(keyDir(state, url), 'generations', '2.json'), 'utf8'))).toMatchObject({ sha256: received.at(-1)!.sha256 });
  });

  it('a run that reads its sha256 before it sends (its review page names it) still finds its spool: uploaded and recorded', async () => {
    const sent = received.length;
    const page = join(t.dir, 'review.html');
    const again = writeMembers(t.dir, 'again.csv', range(5, PEOPLE + 4));
    const { code, stdout } = await upload([again, '--yes', '--report-html', page]).done;
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
    expect(code).toBe(0);
    expect(existsSync(page)).toBe(true);
    expect(received).toHaveLength(sent + 1);
    expect(
      createHash('sha256')
        .update(readFileSync(latestSnapshot(state, url)!))
        .digest('hex'),
    ).toBe(received.at(-1)!.sha256);
    expect(left(state)).toEqual([]);
  });

  it('a run its guard refuses after the plan leaves no spool behind', async () => {
    const sent = received.length;
    // 1,000 of the last upload's people gone: over --max-removals 10.
    const fewer = writeMembers(t.dir, 'fewer.csv', range(1002, PEOPLE + 1));
    const { code, stdout } = await upload([fewer, '--yes', '--max-removals', '10']).done;
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'refused', exitCode: 4 });
    expect(code).toBe(4);
    expect(received).toHaveLength(sent);
    expect(left(state)).toEqual([]);
  });

  it('a run refused at the lock (LOCK_HELD) removes its own spool, and leaves the spool of the run that holds it', async () => {
    const sent = received.length;
    const other = writeMembers(t.dir, 'held.csv', range(3, PEOPLE + 2));
    const holder = upload([other, '--yes'], { UPLOAD_TEST_PAUSE_AT: 'locked' });
    await pausedAt(holder, 'locked');
    const its = spoolIn(state);
    expect(its).toBeDefined();
    const refused = upload([other, '--yes'], { UPLOAD_TEST_PAUSE_AT: 'planned' });
    await pausedAt(refused, 'planned');
    expect(left(state)).toHaveLength(2);
    resume(refused);
    const { code, stdout } = await refused.done;
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_HELD' } });
    expect(code).toBe(4);
    expect(left(state)).toEqual([its]);
    resume(holder);
    expect(JSON.parse((await holder.done).stdout)).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
    expect(received).toHaveLength(sent + 1);
    expect(left(state)).toEqual([]);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)('%s with the spool written: the run ends, the spool goes, the last upload stays the latest', async (signal) => {
    const sent = received.length;
    const head = readFileSync(join(keyDir(state, url), 'head.json'), 'utf8');
    const other = writeMembers(t.dir, 'other.csv', range(4, PEOPLE + 3));
    await stoppedBy(signal, upload([other, '--yes'], { UPLOAD_TEST_PAUSE_AT: 'planned' }), state, 'planned');
    expect(received).toHaveLength(sent);
    expect(left(state)).toEqual([]);
    expect(readFileSync(join(keyDir(state, url), 'head.json'), 'utf8')).toBe(head);
    expect(existsSync(join(keyDir(state, url), 'intent.json'))).toBe(false);
  });
});

describe('the first upload to a key makes its folder to spool into, and a run that stops early removes what it made', () => {
  const t = tempDir();
  const file = writeMembers(t.dir, 'staff.csv', range(1, PEOPLE));
  const upload = uploadTo;

  it('uploaded: recorded as the very file it spooled, in the folder it made for it', async () => {
    const state = join(t.dir, 'first');
    await recordedAsSpooled(upload(state, [file, '--yes', '--no-baseline'], { UPLOAD_TEST_PAUSE_AT: 'planned' }), state);
  });

  it('a file found invalid after its spool began: nothing sent, and no state folder left where there was none', async () => {
    const sent = received.length;
    const state = join(t.dir, 'invalid');
    const bad = join(t.dir, 'bad.csv');
    writeFileSync(bad, `${readFileSync(file, 'utf8')}E9999999,not-an-email,Member X,3,STORE-001\n`);
    const run = upload(state, [bad, '--yes', '--no-baseline'], { UPLOAD_TEST_PAUSE_AT: 'spooled' });
    await pausedAt(run, 'spooled');
    expect(spoolIn(state)).toBeDefined();
    resume(run);
    const { code, stdout } = await run.done;
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'invalid', exitCode: 3 });
    expect(code).toBe(3);
    expect(received).toHaveLength(sent);
    expect(existsSync(state)).toBe(false);
  });

  // Stopped as the spool opens, long before the lock: a run stopped there removes what it made.
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s as its spool opens: nothing sent, and no state folder left where there was none', async (signal) => {
    const sent = received.length;
    const state = join(t.dir, `stopped-${signal}`);
    await stoppedBy(signal, upload(state, [file, '--yes', '--no-baseline'], { UPLOAD_TEST_PAUSE_AT: 'spooled' }), state, 'spooled');
    expect(received).toHaveLength(sent);
    expect(existsSync(state)).toBe(false);
  });
});

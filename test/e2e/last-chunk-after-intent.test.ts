// The send starts while the intent is being written, and only the body's last chunk waits for it
// (docs/state.md, steps 6 and 7): a body the service has not received whole cannot have been applied,
// so a run never lets the whole of one go before its intent is recorded, and an intent refused cuts
// the request off. Both stores, against a node:http server that notes, when a body arrives whole,
// whether the intent was recorded by then, and which requests never arrived whole.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodePayload } from '../../src/contract/json-array.js';
import { KINDS } from '../../src/contract/kinds.js';
import { send } from '../../src/send/index.js';
import { HOOKS_BIN, runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { pausedAt, resume } from '../helpers/race.js';
import { startCli } from '../helpers/spawn.js';
import { keyDir, lockOf } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

/** 6,000 team members: a body of several chunks (256 KiB each), so there is a first part to go early. */
const PEOPLE = 6000;

const stores = {
  directory: {
    make: async () => join(tempDir().dir, 'state'),
    recorded: (state: string, url: string) => Promise.resolve(existsSync(join(keyDir(state, url), 'intent.json'))),
    // Paused with its body written and its intent not yet created; the lock goes, as after a long suspend.
    pauseAt: 'writing-intent',
    loseLock: (state: string, url: string) => import('node:fs').then(({ rmSync }) => rmSync(lockOf(state, url), { force: true })),
  },
  PostgreSQL: {
    make: () => freshDatabase(),
    recorded: async (state: string) => (await asAdmin(state, 'SELECT 1 FROM upload_intents')).rowCount === 1,
    // Paused after the fence (at `writing-intent` its transaction holds the lease row); the lease lapses.
    pauseAt: 'fenced',
    loseLock: async (state: string) => void (await asAdmin(state, `UPDATE upload_leases SET expires_at = now() - interval '1 second'`)),
  },
};

interface Seen {
  readonly bytes: number;
  readonly sha256?: string;
  readonly whole: boolean;
  /** Whether the intent was recorded when the body arrived whole. */
  readonly intentRecorded?: boolean;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A service that answers success to a whole body, noting whether `recorded()` said yes when it arrived. */
async function service(recorded: () => Promise<boolean>, people = PEOPLE): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let bytes = 0;
    const hash = createHash('sha256');
    const expected = Number(req.headers['content-length']);
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    req.on('error', () => {});
    req.on('close', () => {
      if (bytes < expected) seen.push({ bytes, whole: false });
    });
    req.on('end', () => {
      void recorded().then((intentRecorded) => {
        seen.push({ bytes, sha256: hash.digest('hex'), whole: bytes === expected, intentRecorded });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `${people} team member(s) uploaded`, status: 200 }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe.each(Object.entries(stores))('with the %s store', (_name, store) => {
  it('the service has the whole body only once the intent is recorded', async () => {
    const state = await store.make();
    let url = '';
    const svc = await service(() => store.recorded(state, url));
    url = svc.url;
    const file = writeMembers(tempDir().dir, 'staff.csv', range(1, PEOPLE));
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', state], {
      env: { UPLOAD_TOKEN: 'test-token-123', UPLOAD_BASE_URL: url },
    });
    expect(r.json()).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
    expect(svc.seen).toEqual([{ bytes: expect.any(Number), sha256: expect.any(String), whole: true, intentRecorded: true }]);
    expect(svc.seen[0]!.bytes).toBeGreaterThan(512 * 1024);
  });

  it('an intent refused once the send has begun cuts the request off: the service never has the body whole (LOCK_LOST)', async () => {
    const state = await store.make();
    const svc = await service(() => Promise.resolve(false));
    const file = writeMembers(tempDir().dir, 'staff.csv', range(1, PEOPLE));
    const env = { UPLOAD_TOKEN: 'test-token-123', UPLOAD_BASE_URL: svc.url, UPLOAD_TEST_PAUSE_AT: store.pauseAt };
    const run = startCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', state], env, HOOKS_BIN);
    await pausedAt(run, store.pauseAt);
    await store.loseLock(state, svc.url);
    resume(run);
    const { code, stdout } = await run.done;
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_LOST' } });
    expect(code).toBe(4);
    // Whatever part of it had gone, no request arrived whole, and no intent is left to settle.
    expect(svc.seen.filter((s) => s.whole)).toEqual([]);
    const history = await runCli(['history', 'team-members', '--json', '--state', state], { env: { UPLOAD_BASE_URL: svc.url } });
    expect(history.json()).toMatchObject({ pending: null });
  });
});

it('a body over 16 MiB, hashed on a thread of its own: the intent and the record carry the sha256 of the bytes the service received', async () => {
  const state = join(tempDir().dir, 'state');
  const people = 160_000;
  let url = '';
  const svc = await service(() => stores.directory.recorded(state, url), people);
  url = svc.url;
  const file = writeMembers(tempDir().dir, 'staff.csv', range(1, people));
  // The program as it ships (bin/upload.js), whose thread is an eval'd script of the bundle.
  const run = startCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', state], { UPLOAD_TOKEN: 'test-token-123', UPLOAD_BASE_URL: url });
  const { code, stdout } = await run.done;
  expect(JSON.parse(stdout)).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
  expect(code).toBe(0);
  expect(svc.seen).toHaveLength(1);
  expect(svc.seen[0]).toMatchObject({ whole: true, intentRecorded: true });
  expect(svc.seen[0]!.bytes).toBeGreaterThan(16 * 1024 * 1024);
  const recorded = JSON.parse(readFileSync(join(keyDir(state, url), 'generations', '1.json'), 'utf8')) as { sha256: string; bytes: number };
  expect(recorded).toMatchObject({ sha256: svc.seen[0]!.sha256, bytes: svc.seen[0]!.bytes });
});

it('a record slower to write than --timeout: the last chunk waits for it, and the wait is not counted against the answer', async () => {
  const svc = await service(() => Promise.resolve(false));
  const texts = Array.from({ length: PEOPLE }, (_, i) => JSON.stringify({ employeeID: `E${i}`, email: `p${i}@example.com`, name: `Person ${i}` }));
  const payload = encodePayload(texts);
  expect(payload.chunks.length).toBeGreaterThan(1);
  let opened = false;
  const ready = new Promise<void>((resolve) =>
    setTimeout(() => {
      opened = true;
      resolve();
    }, 1500),
  );
  const { answer, attempts } = await send({
    info: KINDS['team-members'],
    baseUrl: new URL(svc.url),
    token: { value: 'test-token-123', from: 'UPLOAD_TOKEN' },
    payload,
    ready,
    retries: 0,
    timeoutSeconds: 0.5,
    env: {},
    tuning: { baseMs: 10, capMs: 40 },
  });
  expect(opened).toBe(true);
  expect(answer.status).toBe(200);
  expect(attempts).toBe(1);
  expect(svc.seen).toEqual([{ bytes: payload.bytes, sha256: payload.sha256, whole: true, intentRecorded: false }]);
});

it("a gateway's 502 before the last chunk went: nothing can have been passed on, so the run is unreachable, not unknown", async () => {
  // A gateway that answers as soon as the request's head arrives, reading none of the body.
  const gateway = createServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' });
    res.end('Bad Gateway');
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => gateway.close(() => resolve()));
  const texts = Array.from({ length: PEOPLE }, (_, i) => JSON.stringify({ employeeID: `E${i}`, email: `p${i}@example.com`, name: `Person ${i}` }));
  const sent = send({
    info: KINDS['team-members'],
    baseUrl: new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`),
    token: { value: 'test-token-123', from: 'UPLOAD_TOKEN' },
    payload: encodePayload(texts),
    // The intent is never recorded while this runs: the last chunk never goes.
    ready: new Promise<void>(() => {}),
    retries: 0,
    timeoutSeconds: 5,
    env: {},
    tuning: { baseMs: 10, capMs: 40 },
  });
  await expect(sent).rejects.toMatchObject({ outcome: 'unreachable', code: 'UNREACHABLE' });
});

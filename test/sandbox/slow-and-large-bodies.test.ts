// The sandbox bounds what a client can hold: a body that stops arriving is dropped after the idle
// time, and a body over the cap is 413 whether or not Content-Length announced it — even when its
// first bytes already show it is not a JSON array.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { TOKEN } from '../helpers/sandbox.js';

const MEMBERS = '/integrations/teamMembers';
let s: Sandbox | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A raw connection that sends a request head and then `body` (chunked when no length is given). */
function rawRequest(url: string, body: string, length?: number): { socket: Socket; answer: Promise<string>; closed: Promise<void> } {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  const head = [
    `POST ${MEMBERS} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${TOKEN}`,
    'Content-Type: application/json',
    'Connection: close',
    length === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  if (body) socket.write(length === undefined ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n` : body);
  let text = '';
  socket.on('data', (b: Buffer) => (text += b.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, answer: closed.then(() => text), closed };
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);

describe('a body that stops arriving', () => {
  it('is dropped after the idle time, without an answer: many such clients hold nothing', async () => {
    s = await startSandbox({ token: TOKEN, bodyIdleMs: 300 });
    // Each sends the start of an array and then nothing more, keeping its connection open.
    const stalled = Array.from({ length: 50 }, () => rawRequest(s!.url, '[{"employeeID": "E1"'));
    const answers = await Promise.all(stalled.map((r) => r.answer));
    expect(answers).toEqual(Array.from({ length: 50 }, () => ''));
    // The service is still there for everyone else, and stored nothing from them.
    const ok = await fetch(`${s.url}${MEMBERS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ employeeID: 'E1', email: 'e1@example.com', name: 'One', roleCode: null, parentKey: null }]),
    });
    expect(await ok.json()).toEqual({ message: '1 team member(s) uploaded', status: 200 });
  });

  it('a body that keeps arriving, however slowly, is not dropped by the idle time', async () => {
    s = await startSandbox({ token: TOKEN, bodyIdleMs: 500 });
    const record = '{"employeeID": "E1", "email": "e1@example.com", "name": "One", "roleCode": null, "parentKey": null}';
    const req = rawRequest(s.url, '[');
    // Ten pieces 100 ms apart: two seconds in all, never 500 ms without a byte.
    for (const piece of [...record.match(/.{1,10}/g)!, ']']) {
      await new Promise((r) => setTimeout(r, 100));
      req.socket.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
    }
    req.socket.end('0\r\n\r\n');
    const answer = await req.answer;
    expect(statusOf(answer)).toBe(200);
    expect(answer).toContain('1 team member(s) uploaded');
  });
});

describe('a body over the cap', () => {
  it.each([
    ['a JSON array, streamed without Content-Length', `[${'{"employeeID": "E1"}, '.repeat(300)}`],
    ['not JSON at all, streamed without Content-Length', 'x'.repeat(5000)],
    ['zero bytes, streamed without Content-Length', '\0'.repeat(5000)],
  ])('%s: 413, not a 400 about its first bytes', async (_what, body) => {
    s = await startSandbox({ token: TOKEN, maxBody: 1000 });
    const req = rawRequest(s.url, body);
    req.socket.write('0\r\n\r\n');
    const answer = await req.answer;
    expect(statusOf(answer)).toBe(413);
    expect(answer).toContain('"message":"body is over the limit of 1000 bytes","status":413');
  });

  it('announced by Content-Length: 413 before a byte of it is read', async () => {
    s = await startSandbox({ token: TOKEN, maxBody: 1000 });
    const answer = await rawRequest(s.url, '', 5000).answer;
    expect(statusOf(answer)).toBe(413);
    expect(answer).toContain('body of 5000 bytes is over the limit of 1000 bytes');
  });

  it('a body under the cap that is not JSON is still a 400 that says so', async () => {
    s = await startSandbox({ token: TOKEN, maxBody: 1000 });
    const req = rawRequest(s.url, 'x'.repeat(500));
    req.socket.write('0\r\n\r\n');
    const answer = await req.answer;
    expect(statusOf(answer)).toBe(400);
    expect(answer).toContain('not a JSON array');
  });
});

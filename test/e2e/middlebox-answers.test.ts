// What middleboxes do to an answer: a proxy that compresses it, interim answers nobody asked for, and a
// body that decodes into more than an answer can be. The cap counts decoded bytes.
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { upload } from '../helpers/canary.js';
import { nginxInFrontOf } from '../helpers/nginx.js';
import { serversForFile } from '../helpers/scripted-server.js';

const { serve } = serversForFile();

describe.concurrent('an encoded answer', () => {
  for (const encode of ['gzip', 'deflate', 'br'] as const) {
    it(`Content-Encoding: ${encode} is decoded before the answer is checked: uploaded, exit 0`, async () => {
      const server = await serve({ ok: true, encode });
      const run = await upload(server.url);
      expect(run.code).toBe(0);
      expect(run.json()).toMatchObject({ outcome: 'uploaded', response: { status: 200, message: '3 team member(s) uploaded' } });
    });
  }

  it('a small gzip that unpacks past 1 MiB is not unpacked further: unverified, exit 7', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const server = await serve({ status: 200, headers: { 'content-encoding': 'gzip' }, body: bomb });
    const run = await upload(server.url);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(run.code).toBe(7);
    expect(run.json()).toMatchObject({ outcome: 'unverified', error: { code: 'ANSWER_UNCONFIRMED', message: expect.stringContaining('more than 1 MiB') } });
  });

  it('an encoding this tool does not know is named: unverified, exit 7', async () => {
    const server = await serve({ status: 200, headers: { 'content-encoding': 'zstd' }, body: 'x' });
    const run = await upload(server.url);
    expect(run.code).toBe(7);
    expect(run.json().error.message).toMatch(/encoded as 'zstd', which this tool cannot decode/);
  });

  it('a body that says gzip but is not: unverified, exit 7, saying so', async () => {
    const server = await serve({ status: 200, headers: { 'content-encoding': 'gzip' }, body: '{"message":"3 team member(s) uploaded","status":200}' });
    const run = await upload(server.url);
    expect(run.code).toBe(7);
    expect(run.json().error.message).toMatch(/says it is gzip-encoded but does not decode/);
  });
});

describe('behind a real nginx', () => {
  it('an answer nginx passes on gzipped is decoded: uploaded, exit 0', async () => {
    const server = await serve({ ok: true, encode: 'gzip' });
    const nginx = await nginxInFrontOf(server.url);
    try {
      const run = await upload(nginx.url);
      expect(run.code).toBe(0);
      expect(run.json()).toMatchObject({ outcome: 'uploaded', response: { message: '3 team member(s) uploaded' } });
      expect(server.requests).toHaveLength(1);
    } finally {
      await nginx.stop();
    }
  });

  it('an nginx that gzips the answer whatever the request accepted (a proxy asking its upstream for gzip): uploaded, exit 0', async () => {
    const server = await serve({ ok: true });
    // nginx's gzip module compresses only for a request that accepts gzip; the outer nginx asks for it
    // on the client's behalf, as CDNs and some proxies do, and passes the compressed answer on.
    const inner = await nginxInFrontOf(server.url, 'gzip on; gzip_types application/json; gzip_min_length 1; gzip_proxied any;');
    const outer = await nginxInFrontOf(inner.url, 'proxy_set_header Accept-Encoding gzip;');
    try {
      const probe = await request(`${outer.url}/integrations/teamMembers`, { method: 'POST', body: '[]', headers: { 'content-type': 'application/json' } });
      await probe.body.arrayBuffer();
      expect(probe.headers['content-encoding']).toBe('gzip');
      const run = await upload(outer.url);
      expect(run.code).toBe(0);
      expect(run.json()).toMatchObject({ outcome: 'uploaded', response: { message: '3 team member(s) uploaded' } });
    } finally {
      await outer.stop();
      await inner.stop();
    }
  });
});

/**
 * A raw loopback server that reads one request whole, then writes `before` (interim answers, in the
 * given pieces) and the success answer for the records received.
 */
async function interimServer(before: readonly string[]): Promise<{ url: string; received: () => number; close: () => void }> {
  let received = 0;
  const server = createTcpServer((socket) => {
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(data.subarray(0, end).toString('latin1'))?.[1] ?? NaN);
      if (data.length < end + 4 + length) return;
      received++;
      const records = (JSON.parse(data.subarray(end + 4, end + 4 + length).toString('utf8')) as unknown[]).length;
      const body = JSON.stringify({ message: `${records} team member(s) uploaded`, status: 200 });
      void (async () => {
        for (const piece of before) {
          socket.write(piece);
          await new Promise((r) => setTimeout(r, 20));
        }
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received, close: () => server.close() };
}

describe.concurrent('interim answers before the final one', () => {
  const cases: [string, string[]][] = [
    ['an unsolicited 100 Continue', ['HTTP/1.1 100 Continue\r\n\r\n']],
    ['two 100s and a 103 Early Hints', ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </s.css>\r\n\r\n']],
    ['a 100 arriving a few bytes at a time', ['HTTP/1', '.1 10', '0 Continue\r', '\n', '\r\n']],
  ];
  for (const [name, before] of cases) {
    it(`${name} is skipped: uploaded once, exit 0`, async () => {
      const server = await interimServer(before);
      try {
        const run = await upload(server.url);
        expect(run.code).toBe(0);
        expect(run.json()).toMatchObject({ outcome: 'uploaded', response: { status: 200, message: '3 team member(s) uploaded' } });
        expect(server.received()).toBe(1);
      } finally {
        server.close();
      }
    });
  }
});

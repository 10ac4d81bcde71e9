// What middleboxes do to an answer: a proxy that compresses it, and a body that decodes into more than
// an answer can be. The cap counts decoded bytes.
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
    expect(run.json()).toMatchObject({ outcome: 'unverified', error: { code: 'ANSWER_MALFORMED', message: expect.stringContaining('more than 1 MiB') } });
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

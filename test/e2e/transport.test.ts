// Transport policy: proxies from the environment, private CAs, and plain http to a remote host
// refused before any connection. Each run is searched for the canary token.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/cli.js';
import { upload } from '../helpers/canary.js';
import { recordingProxy } from '../helpers/proxy.js';
import { scriptedServer, serversForFile } from '../helpers/scripted-server.js';

const { serve, track } = serversForFile();

describe.concurrent('proxies', () => {
  it('HTTP_PROXY is used: the upload goes through the proxy', async () => {
    const server = await serve({ ok: true });
    const proxy = track(await recordingProxy());
    const run = await upload(server.url, [], { env: { HTTP_PROXY: proxy.url } });
    expect(run.code).toBe(0);
    expect(proxy.seen).toEqual([`CONNECT 127.0.0.1:${server.port}`]);
    expect(server.requests).toHaveLength(1);
  });

  it('NO_PROXY bypasses the proxy for the hosts it names', async () => {
    const server = await serve({ ok: true });
    const proxy = track(await recordingProxy());
    const run = await upload(server.url, [], { env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
    expect(run.code).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('an empty lower-case variable turns the proxy off, as curl reads it', async () => {
    const server = await serve({ ok: true });
    const proxy = track(await recordingProxy());
    const run = await upload(server.url, [], { env: { http_proxy: '', HTTP_PROXY: proxy.url } });
    expect(run.code).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('plain http to a remote host is refused before any connection, even through a proxy', async () => {
    const proxy = track(await recordingProxy());
    const run = await upload('http://scheduling.example.com', [], { env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url } });
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'INSECURE_BASE_URL' } });
    expect(proxy.seen).toEqual([]);
  });
});

describe.concurrent('TLS and private certificate authorities', () => {
  const tls = { key: readFileSync(fixture('tls/server-key.pem'), 'utf8'), cert: readFileSync(fixture('tls/server-cert.pem'), 'utf8') };

  it('NODE_EXTRA_CA_CERTS makes a private CA trusted', async () => {
    const server = track(await scriptedServer([{ ok: true }], tls));
    // Node reads the file when a process starts: this run needs a process of its own.
    const run = await upload(server.url, [], { env: { NODE_EXTRA_CA_CERTS: fixture('tls/ca.pem') }, spawn: true });
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('without it, the certificate is refused at once: unreachable, not retried, with a hint', async () => {
    const server = track(await scriptedServer([{ ok: true }], tls));
    const run = await upload(server.url);
    expect(run.code).toBe(6);
    expect(run.json()).toMatchObject({ outcome: 'unreachable', error: { code: 'UNREACHABLE' } });
    expect(run.json().error.message).toMatch(/certificate was not accepted.*after 1 attempt/);
    expect(run.json().error.hint).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(server.requests).toHaveLength(0);
  });

  it('a service offering only TLS 1.0 is named as such, not as a certificate problem: unreachable, not retried', async () => {
    const old = { ...tls, minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' } as const;
    const server = track(await scriptedServer([{ ok: true }], old));
    const run = await upload(server.url);
    expect(run.code).toBe(6);
    expect(run.json().error.message).toMatch(/offers only a TLS version older than this tool accepts.*after 1 attempt/);
    expect(run.json().error.message).not.toMatch(/certificate/);
    expect(run.json().error.hint).toMatch(/TLS 1\.2 or newer/);
    expect(server.requests).toHaveLength(0);
  });

  it('https to a port that speaks plain http says so', async () => {
    const server = track(await scriptedServer([{ ok: true }]));
    const run = await upload(server.url.replace('http:', 'https:'));
    expect(run.code).toBe(6);
    expect(run.json().error.message).toMatch(/did not answer in TLS/);
    expect(run.json().error.hint).toMatch(/scheme and port/);
  });

  it('a NODE_EXTRA_CA_CERTS that cannot be read is a usage error, before any connection', async () => {
    const server = track(await scriptedServer([{ ok: true }], tls));
    const run = await upload(server.url, [], { env: { NODE_EXTRA_CA_CERTS: '/nonexistent/ca.pem' } });
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'BAD_CA_FILE' } });
    expect(run.stderr).toMatch(/NODE_EXTRA_CA_CERTS names \/nonexistent\/ca.pem, which cannot be read/);
  });

  it('a NODE_EXTRA_CA_CERTS file without a certificate is a usage error too', async () => {
    const server = track(await scriptedServer([{ ok: true }], tls));
    const run = await upload(server.url, [], { env: { NODE_EXTRA_CA_CERTS: fixture('team-members.csv') } });
    expect(run.code).toBe(2);
    expect(run.json().error.message).toMatch(/holds no PEM certificate/);
  });
});

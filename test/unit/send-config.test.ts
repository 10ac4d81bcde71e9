import { describe, expect, it } from 'vitest';
import { finish } from '../../src/cli/main.js';
import type { RunIo } from '../../src/cli/io.js';
import { parseReport } from '../helpers/report-schema.js';
import { checkAnswer } from '../../src/send/answer.js';
import { isLoopback, resolveBaseUrl } from '../../src/send/config.js';
import { Secrets } from '../../src/send/secrets.js';
import { KINDS } from '../../src/contract/kinds.js';
import { ServiceRejected, ServiceUnverified } from '../../src/errors.js';

describe('the base URL: https, or plain http to loopback only', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '[::1]'])('http://%s is allowed', (host) => {
    expect(resolveBaseUrl({ value: `http://${host}:8080/`, from: '--base-url' }, {}).href).toBe(`http://${host}:8080`.replace(/\/?$/, '/'));
  });
  it.each(['http://scheduling.example.com', 'http://10.0.0.5', 'http://128.0.0.1', 'http://localhost.example.com'])('%s is refused', (url) => {
    expect(() => resolveBaseUrl({ value: url, from: '--base-url' }, {})).toThrow(expect.objectContaining({ code: 'INSECURE_BASE_URL' }));
  });
  it('keeps a path prefix, refuses credentials, queries and other schemes', () => {
    expect(resolveBaseUrl({ value: 'https://api.example.com/v2/', from: 'UPLOAD_BASE_URL' }, {}).pathname).toBe('/v2');
    expect(() => resolveBaseUrl({ value: 'https://u:p@api.example.com', from: '--base-url' }, {})).toThrow(expect.objectContaining({ code: 'BAD_BASE_URL' }));
    expect(() => resolveBaseUrl({ value: 'https://api.example.com?x=1', from: '--base-url' }, {})).toThrow(expect.objectContaining({ code: 'BAD_BASE_URL' }));
    expect(() => resolveBaseUrl({ value: 'ftp://api.example.com', from: '--base-url' }, {})).toThrow(expect.objectContaining({ code: 'BAD_BASE_URL' }));
    expect(() => resolveBaseUrl({ value: null, from: 'default' }, {})).toThrow(expect.objectContaining({ code: 'NO_BASE_URL' }));
  });
  it.each([
    ['LOCALHOST', true],
    ['localhost.', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    [new URL('http://[::ffff:127.0.0.1]').hostname, true],
    ['[::ffff:7f00:1]', true],
    ['127.0.0.1.nip.io', false],
    ['[::ffff:a00:1]', false],
    ['localhost.example.com', false],
  ])('isLoopback(%s) is %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});

describe('checkAnswer', () => {
  const req = { info: KINDS['team-members'], token: { value: 'x', from: 'the file /run/token' } };
  it('accepts the success body with the right count', () => {
    expect(checkAnswer(req, 200, {}, '{"message":"3 team member(s) uploaded","status":200}', 3)).toEqual({ status: 200, message: '3 team member(s) uploaded' });
  });
  it.each([
    ['{"message":"2 team member(s) uploaded","status":200}', 'ANSWER_UNCONFIRMED'],
    ['{"message":"3 store card(s) uploaded","status":200}', 'ANSWER_UNCONFIRMED'],
    ['{"message":"3 team member(s) uploaded"}', 'ANSWER_UNCONFIRMED'],
    ['', 'ANSWER_UNCONFIRMED'],
  ])('a 2xx of %j is unverified (%s)', (text, code) => {
    expect(() => checkAnswer(req, 200, {}, text, 3)).toThrow(ServiceUnverified);
    expect(() => checkAnswer(req, 200, {}, text, 3)).toThrow(expect.objectContaining({ code }));
  });
  it('403 names where the token came from; a 3xx names its Location', () => {
    expect(() => checkAnswer(req, 403, {}, '', 3)).toThrow(/the token came from the file \/run\/token/);
    expect(() => checkAnswer(req, 308, { location: 'https://other.example/x' }, '', 3)).toThrow(ServiceRejected);
    expect(() => checkAnswer(req, 308, { location: 'https://other.example/x' }, '', 3)).toThrow(/https:\/\/other\.example\/x/);
  });
});

describe('redaction', () => {
  it('replaces a kept secret, raw and JSON-escaped', () => {
    const secrets = new Secrets();
    secrets.keep('s3cr"et-value');
    expect(secrets.redact('a s3cr"et-value b')).toBe('a *** b');
    expect(secrets.redact(JSON.stringify({ m: 'x s3cr"et-value' }))).toBe('{"m":"x ***"}');
    // Another run's secrets are its own.
    expect(new Secrets().redact('a s3cr"et-value b')).toBe('a s3cr"et-value b');
  });

  it('covers crash output, on stderr and in the --json report', async () => {
    const secrets = new Secrets();
    secrets.keep('crash-secret-123');
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      env: { UPLOAD_DEBUG: '1' },
      secrets,
    } as unknown as RunIo;
    expect(await finish({ failure: new Error('boom crash-secret-123'), json: true, facts: { kind: 'team-members', source: 'x.csv', dryRun: false } }, io)).toBe(
      1,
    );
    expect(err.join('')).toContain('boom ***');
    expect(err.join('') + out.join('')).not.toContain('crash-secret-123');
    expect(parseReport(out.join(''))).toMatchObject({ outcome: 'internal-error', exitCode: 1, error: { code: 'INTERNAL_ERROR', message: 'boom ***' } });
  });
});

import { describe, expect, it } from 'vitest';
import { debugChain } from '../../src/cli/debug.js';
import { UsageError } from '../../src/errors.js';
import { Secrets } from '../../src/send/secrets.js';

const plain = (text: string) => text;

describe('debugChain', () => {
  it('prints each cause under the error, with the fields PostgreSQL and the system give', () => {
    const pgError = Object.assign(new Error('duplicate key value violates unique constraint "upload_heads_pkey"'), {
      code: '23505',
      severity: 'ERROR',
      detail: 'Key (base_url)=(x) already exists.',
      table: 'upload_heads',
      constraint: 'upload_heads_pkey',
    });
    pgError.name = 'error';
    const err = new UsageError('STATE_UNUSABLE', 'the state store refused a statement', 'fix the database', { cause: pgError });
    expect(debugChain(err, plain)).toEqual([
      'upload: debug: STATE_UNUSABLE UsageError: the state store refused a statement',
      'upload: debug:   cause: 23505 error: duplicate key value violates unique constraint "upload_heads_pkey" (severity ERROR, detail Key (base_url)=(x) already exists., table upload_heads, constraint upload_heads_pkey)',
    ]);
  });

  it('follows the errors an AggregateError gathered, and stops at a cause seen before', () => {
    const v6 = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED', syscall: 'connect', address: '::1', port: 5432 });
    const v4 = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect', address: '127.0.0.1', port: 5432 });
    const both = Object.assign(new AggregateError([v6, v4], ''), { code: 'ECONNREFUSED' });
    const looped = new Error('outer', { cause: both });
    (v4 as Error & { cause?: unknown }).cause = looped;
    expect(debugChain(looped, plain)).toEqual([
      'upload: debug: Error: outer',
      'upload: debug:   cause: ECONNREFUSED AggregateError: ',
      'upload: debug:     one of: ECONNREFUSED Error: connect ECONNREFUSED ::1:5432 (syscall connect, address ::1, port 5432)',
      'upload: debug:     one of: ECONNREFUSED Error: connect ECONNREFUSED 127.0.0.1:5432 (syscall connect, address 127.0.0.1, port 5432)',
    ]);
  });

  it("redacts the run's secrets and masks the password of any URL", () => {
    const secrets = new Secrets();
    secrets.keep('tok-SECRET-123456');
    const inner = new Error('could not post to https://hooks.example.com/tok-SECRET-123456 via postgres://app:hunter2@db:5432/state');
    const lines = debugChain(new Error('failed', { cause: inner }), secrets.redact);
    expect(lines[1]).toBe('upload: debug:   cause: Error: could not post to https://hooks.example.com/*** via postgres://app:***@db:5432/state');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULTS, nextWait, parseRetryAfter, RETRYABLE_STATUS, retryPolicy } from '../../src/send/backoff.js';

const policy = retryPolicy(4, 300, {});

describe('backoffMs: full jitter', () => {
  it('stays within [0, min(cap, base·2^n)) for any failure count and random value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const ms = backoffMs(n, policy, () => r);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThan(Math.max(1, Math.min(policy.capMs, policy.baseMs * 2 ** n)));
      }),
    );
  });

  it.each([
    [0, 1000],
    [1, 2000],
    [3, 8000],
    [5, 30000],
    [50, 30000],
  ])('after %i failures the ceiling is %i ms', (n, ceiling) => {
    expect(backoffMs(n, policy, () => 0.999999)).toBe(ceiling - 1);
    expect(backoffMs(n, policy, () => 0)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T12:00:00Z');
  it.each<[string | undefined, number | undefined]>([
    ['0', 0],
    ['7', 7000],
    [' 120 ', 120_000],
    ['Wed, 01 Jan 2025 12:00:30 GMT', 30_000],
    ['Wednesday, 01-Jan-25 12:00:10 GMT', 10_000],
    ['Wed Jan  1 12:00:05 2025', 5000],
    ['Wed, 01 Jan 2025 11:00:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j → %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});

describe('nextWait', () => {
  it('uses Retry-After within the cap, and refuses to wait longer than the cap', () => {
    expect(nextWait(0, 5000, policy)).toEqual({ ms: 5000, retryAfter: true });
    expect(nextWait(0, DEFAULTS.retryAfterCapMs + 1, policy)).toEqual({ tooLong: DEFAULTS.retryAfterCapMs + 1 });
    expect(nextWait(2, undefined, policy, () => 0.5)).toEqual({ ms: 2000, retryAfter: false });
  });
});

describe('retryPolicy', () => {
  it('has sensible defaults and a connect timeout no longer than --timeout', () => {
    expect(retryPolicy(4, 300, {})).toEqual({ attempts: 5, baseMs: 1000, capMs: 30000, retryAfterCapMs: 120000, connectMs: 10000, answerMs: 300000 });
    expect(retryPolicy(0, 2, {}).connectMs).toBe(2000);
  });
  it('takes tighter timings passed in (never from the environment)', () => {
    const p = retryPolicy(1, 300, { baseMs: 5, connectMs: 300 });
    expect(p).toMatchObject({ baseMs: 5, capMs: 30000, connectMs: 300 });
  });
  it('retries exactly 408, 429, 500, 502, 503 and 504', () => {
    expect([...RETRYABLE_STATUS].sort()).toEqual([408, 429, 500, 502, 503, 504]);
  });
});

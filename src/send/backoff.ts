// When to try again: which answers are passing faults, how long to wait before the next attempt
// (exponential backoff with full jitter), and what a Retry-After header asks for. Pure functions.

/** Statuses worth another attempt: the service or a gateway said "not now", not "no". */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** Gateway answers after which the service itself may or may not have applied the upload. */
export const GATEWAY_STATUS: ReadonlySet<number> = new Set([502, 504]);

export interface RetryPolicy {
  /** Attempts in all: 1 + --retries. */
  readonly attempts: number;
  /** The first backoff's ceiling; each later one doubles, up to capMs. */
  readonly baseMs: number;
  readonly capMs: number;
  /** The longest Retry-After honoured; a longer one ends the retries instead. */
  readonly retryAfterCapMs: number;
  /** How long to wait for a connection (TCP, proxy tunnel and TLS). */
  readonly connectMs: number;
  /** --timeout: how long to wait for the answer to one attempt (and for a stalled send). */
  readonly answerMs: number;
}

export const DEFAULTS = { baseMs: 1_000, capMs: 30_000, retryAfterCapMs: 120_000, connectMs: 10_000 } as const;

/** Timings a caller may tighten (the tests run retries in milliseconds); never read from the environment. */
export type Tuning = Partial<Pick<RetryPolicy, 'baseMs' | 'capMs' | 'connectMs'>>;

/** The policy for a run: --retries and --timeout, with the built-in timings unless tuned. */
export function retryPolicy(retries: number, timeoutSeconds: number, tuning: Tuning = {}): RetryPolicy {
  // At least 1 ms: 0 would switch undici's timeouts off instead of making them tight.
  const answerMs = Math.max(1, Math.round(timeoutSeconds * 1000));
  return {
    attempts: retries + 1,
    baseMs: tuning.baseMs ?? DEFAULTS.baseMs,
    capMs: tuning.capMs ?? DEFAULTS.capMs,
    retryAfterCapMs: DEFAULTS.retryAfterCapMs,
    connectMs: Math.min(tuning.connectMs ?? DEFAULTS.connectMs, answerMs),
    answerMs,
  };
}

/**
 * AWS "full jitter": a uniformly random wait between 0 and min(cap, base·2^n), where n counts the
 * failures so far from 0. Random spreading keeps a fleet of nightly jobs from retrying in lockstep.
 */
export function backoffMs(failures: number, policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(failures, 30));
  return Math.floor(random() * ceiling);
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the date formats HTTP allows; Date.parse alone would accept "5" or "tomorrow-ish" strings.
  if (!/^[A-Za-z]{3,9}, \d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT$|^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/.test(text))
    return undefined;
  const at = Date.parse(text.includes('GMT') ? text : `${text} GMT`);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export type Wait = { readonly ms: number; readonly retryAfter: boolean } | { readonly tooLong: number };

/** The wait before the next attempt: what Retry-After asks within the cap, the jittered backoff otherwise. */
export function nextWait(failures: number, retryAfterMs: number | undefined, policy: RetryPolicy, random?: () => number): Wait {
  if (retryAfterMs === undefined) return { ms: backoffMs(failures, policy, random), retryAfter: false };
  if (retryAfterMs > policy.retryAfterCapMs) return { tooLong: retryAfterMs };
  return { ms: retryAfterMs, retryAfter: true };
}

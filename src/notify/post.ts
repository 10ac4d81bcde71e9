// Delivering a notification: one POST of JSON per URL, a few seconds at most, one retry. A URL is a
// secret (a webhook's path is its credential), so it is kept for redaction and named in messages only
// by its host. A notification that cannot be delivered is a warning: the run's outcome stands.
import type { EnvHttpProxyAgent } from 'undici';
import { UsageError } from '../errors.js';
import { isLoopback } from '../send/config.js';

export interface NotifyTiming {
  /** The whole of one attempt: connecting, sending, the answer. */
  readonly attemptMs: number;
  /** The pause before the one retry. */
  readonly retryAfterMs: number;
}

export const NOTIFY_TIMING: NotifyTiming = { attemptMs: 4000, retryAfterMs: 500 };

/** A --notify URL (or one from UPLOAD_NOTIFY or the config): https, or http to loopback; kept secret. */
export function parseNotifyUrl(text: string, from: string, keepSecret: (secret: string) => void): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError('BAD_NOTIFY_URL', `${from}: a notification address is not a URL`, 'give the webhook address, e.g. https://hooks.slack.com/services/…');
  }
  keepSecret(text);
  keepSecret(url.href);
  if (url.pathname.length > 8) keepSecret(url.pathname + url.search);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      'BAD_NOTIFY_URL',
      `${from}: a notification to ${url.hostname} over plain http would cross the network unencrypted`,
      'use https:// (plain http is allowed only for localhost, 127.0.0.0/8 and ::1)',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError('BAD_NOTIFY_URL', `${from}: a notification address must be https://…`, 'use https://…');
  return url;
}

/** Where a message may name a URL: its host, never the path or query that make it a credential. */
export const hostOf = (url: URL) => url.host;

export type Delivery = { readonly url: URL; readonly ok: true } | { readonly url: URL; readonly ok: false; readonly why: string };

/** Posts the body to each URL (in parallel), each with one retry; never throws. */
export async function deliver(
  urls: readonly URL[],
  body: unknown,
  env: NodeJS.ProcessEnv,
  timing: NotifyTiming = NOTIFY_TIMING,
  redact: (text: string) => string = (t) => t,
  stop?: AbortSignal,
): Promise<Delivery[]> {
  // Nothing secret is put in a notification; redact() is the last line of defence all the same.
  const json = redact(JSON.stringify(body));
  const proxy = (...names: string[]) => names.map((n) => env[n]).find(Boolean);
  // Loaded only when there is something to post: most runs notify no one.
  const { EnvHttpProxyAgent: Agent } = await import('undici');
  const dispatcher = new Agent({
    httpProxy: proxy('http_proxy', 'HTTP_PROXY'),
    httpsProxy: proxy('https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'),
    noProxy: proxy('no_proxy', 'NO_PROXY') ?? '',
    connect: { timeout: timing.attemptMs },
  });
  try {
    return await Promise.all(urls.map((url) => deliverOne(url, json, dispatcher, timing, stop)));
  } finally {
    await dispatcher.destroy().catch(() => {});
  }
}

async function deliverOne(url: URL, json: string, dispatcher: EnvHttpProxyAgent, timing: NotifyTiming, stop?: AbortSignal): Promise<Delivery> {
  let why = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, timing.retryAfterMs));
    // A signal (Ctrl-C, SIGTERM) ends the post, and no retry follows it.
    if (stop?.aborted) return { url, ok: false, why: 'stopped by a signal' };
    const outcome = await post(url, json, dispatcher, timing.attemptMs, stop);
    if (stop?.aborted) return { url, ok: false, why: 'stopped by a signal' };
    if (outcome.ok) return { url, ok: true };
    why = outcome.why;
    if (!outcome.retry) break;
  }
  return { url, ok: false, why };
}

async function post(
  url: URL,
  json: string,
  dispatcher: EnvHttpProxyAgent,
  ms: number,
  stop?: AbortSignal,
): Promise<{ ok: true } | { ok: false; why: string; retry: boolean }> {
  try {
    const { request } = await import('undici');
    const answer = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'scheduling-upload' },
      body: json,
      dispatcher,
      signal: stop ? AbortSignal.any([AbortSignal.timeout(ms), stop]) : AbortSignal.timeout(ms),
      headersTimeout: ms,
      bodyTimeout: ms,
    });
    await answer.body.dump().catch(() => {});
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { ok: true };
    const retry = answer.statusCode === 408 || answer.statusCode === 429 || answer.statusCode >= 500;
    return { ok: false, why: `HTTP ${answer.statusCode}`, retry };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { name?: string };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || /Timeout/i.test(e.code ?? '');
    return { ok: false, why: timedOut ? `no answer within ${ms / 1000} s` : (e.code ?? 'connection failed'), retry: true };
  }
}

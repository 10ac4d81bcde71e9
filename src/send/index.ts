// The send stage: the whole array in one POST, tried again through passing faults, and the answer
// checked against what was sent. A full replacement is idempotent, so sending the same bytes again
// is safe; the outcome says honestly whether the service may have applied an attempt that got no answer.
import { EnvHttpProxyAgent } from 'undici';
import { skippingContinue } from './interim.js';
import type { KindInfo } from '../contract/kinds.js';
import { Interrupted, ServiceRejected, ServiceUnreachable } from '../errors.js';
import { checkAnswer, serviceMessage, type ServiceAnswer } from './answer.js';
import { serviceSaid, type ServiceSaid } from './reasons.js';
import { attempt } from './attempt.js';
import { GATEWAY_STATUS, nextWait, parseRetryAfter, RETRYABLE_STATUS, retryPolicy, type RetryPolicy, type Tuning } from './backoff.js';
import type { Payload } from '../contract/json-array.js';
import { endpoint, type Token } from './config.js';
import { sleep } from './sleep.js';
import { Secrets } from './secrets.js';

export { checkAnswer, type ServiceAnswer } from './answer.js';

/** What the send stage reports while it works, for a spinner or progress lines. */
export type SendEvent =
  | { readonly type: 'sending'; readonly attempt: number; readonly attempts: number; readonly bytes: number; readonly total: number }
  | { readonly type: 'waiting'; readonly attempt: number; readonly attempts: number; readonly answerMs: number }
  | {
      readonly type: 'retry';
      readonly attempt: number;
      readonly attempts: number;
      readonly reason: string;
      readonly delayMs: number;
      readonly retryAfter: boolean;
    };

export interface SendRequest {
  readonly info: KindInfo;
  readonly baseUrl: URL;
  readonly token: Token;
  readonly payload: Payload;
  /** What the body's last chunk waits for (the write-ahead intent); none: it goes at once. */
  readonly ready?: Promise<void> | undefined;
  readonly retries: number;
  readonly timeoutSeconds: number;
  readonly env: NodeJS.ProcessEnv;
  readonly tuning?: Tuning | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onEvent?: ((event: SendEvent) => void) | undefined;
}

export interface SendResult {
  readonly answer: ServiceAnswer;
  readonly attempts: number;
}

export async function send(req: SendRequest): Promise<SendResult> {
  const policy = retryPolicy(req.retries, req.timeoutSeconds, req.tuning);
  const signal = req.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const url = endpoint(req.baseUrl, req.info.path);
  const total = req.payload.bytes;
  const emit = req.onEvent ?? (() => {});
  const dispatcher = makeDispatcher(policy, req.env);
  const tried: string[] = [];
  let maybeApplied = false;
  // A service that echoes the token back must not put it in what this run keeps: the answer's text is
  // quoted in messages, in --json and in the state's audit record, so it is masked once, where it arrives.
  const masked = new Secrets();
  masked.keep(req.token.value);
  try {
    for (let n = 1; ; n++) {
      const at = { attempt: n, attempts: policy.attempts };
      emit({ type: 'sending', ...at, bytes: 0, total });
      let sentThisAttempt = false;
      // The last chunk handed over (it waits for the write-ahead intent): only then can a gateway have had it all.
      let lastChunkGone = false;
      const result = await attempt({
        url,
        dispatcher,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${req.token.value}`, 'content-length': String(total) },
        chunks: req.payload.chunks,
        ready: req.ready ?? Promise.resolve(),
        answerMs: policy.answerMs,
        connectMs: policy.connectMs,
        signal,
        onBytes: (bytes) => {
          lastChunkGone = bytes === total;
          emit({ type: 'sending', ...at, bytes, total });
        },
        onSent: () => {
          sentThisAttempt = true;
          emit({ type: 'waiting', ...at, answerMs: policy.answerMs });
        },
      })
        .then((r) => (r.kind === 'answer' ? { ...r, text: masked.redact(r.text) } : r))
        .catch((err: unknown) => {
          throw err instanceof Interrupted && (maybeApplied || sentThisAttempt) ? interruptedAfterSend() : err;
        });

      let reason: string;
      let retryAfterMs: number | undefined;
      let answered: { status: number; message: string } | undefined;
      let lastSaid: ServiceSaid | undefined;
      let cause: unknown;
      if (result.kind === 'answer') {
        if (!RETRYABLE_STATUS.has(result.status)) {
          const answer = withEarlierAttempts(
            () => checkAnswer(req, result.status, result.headers, result.text, req.payload.records, result.truncated, result.unreadable),
            maybeApplied,
          );
          return { answer, attempts: n };
        }
        const said = serviceMessage(result.text);
        answered = { status: result.status, message: said ?? '' };
        lastSaid = serviceSaid(result.text);
        reason = `the service answered ${result.status}${said ? ` ("${said.slice(0, 200)}")` : ''}`;
        // Only a gateway that may have had the whole body may have passed it on.
        if (GATEWAY_STATUS.has(result.status) && lastChunkGone) maybeApplied = true;
        retryAfterMs = parseRetryAfter(result.headers['retry-after'], Date.now());
        tried.push(String(result.status));
      } else {
        reason = result.describe;
        cause = result.cause;
        if (result.delivered) maybeApplied = true;
        tried.push(result.describe);
        if (!result.retryable) throw giveUp(url, req.env, tried, reason, maybeApplied, hintFor(result.code), undefined, cause);
      }
      if (n >= policy.attempts) throw withSaid(giveUp(url, req.env, tried, reason, maybeApplied, undefined, answered, cause), lastSaid);
      const wait = nextWait(n - 1, retryAfterMs, policy);
      if ('tooLong' in wait) {
        throw withSaid(
          giveUp(
            url,
            req.env,
            tried,
            `${reason} and asked to wait ${Math.ceil(wait.tooLong / 1000)} s, longer than the ${policy.retryAfterCapMs / 1000} s this tool waits`,
            maybeApplied,
            'run again later',
            answered,
          ),
          lastSaid,
        );
      }
      emit({ type: 'retry', ...at, reason, delayMs: wait.ms, retryAfter: wait.retryAfter });
      await sleep(wait.ms, signal).catch((err: unknown) => {
        throw err instanceof Interrupted && maybeApplied ? interruptedAfterSend() : err;
      });
    }
  } finally {
    await dispatcher.destroy().catch(() => {});
  }
}

function makeDispatcher(policy: RetryPolicy, env: NodeJS.ProcessEnv): EnvHttpProxyAgent {
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the run's environment (given, not read from the process).
  // The connect timeout must be given to each connector: the proxy's, the tunnelled TLS one and the direct one.
  const connect = { timeout: policy.connectMs };
  // Direct connections also skip an unsolicited 100 Continue (interim.ts); a tunnel through a proxy is
  // undici's own, and the proxy answers for what it passes on.
  // Always a string: undici reads process.env for a setting left undefined, and this run's settings
  // are the ones in `env`.
  return new EnvHttpProxyAgent({
    httpProxy: proxySetting(env, HTTP_PROXY_VARS) ?? '',
    httpsProxy: proxySetting(env, HTTPS_PROXY_VARS) ?? '',
    noProxy: proxySetting(env, ['no_proxy', 'NO_PROXY']) ?? '',
    connect: skippingContinue(connect),
    proxyTls: connect,
    requestTls: connect,
    headersTimeout: policy.answerMs,
    bodyTimeout: policy.answerMs,
    // undici 8 forwards plain-http requests to the proxy as they are, token and body in the proxy's
    // view; a tunnel (CONNECT, as undici 7 did) keeps the proxy to host and port.
    proxyTunnel: true,
  });
}

const HTTP_PROXY_VARS = ['http_proxy', 'HTTP_PROXY'];
const HTTPS_PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/**
 * The first of `names` that is set, as curl reads them: the lower-case name first, and a variable set
 * to the empty string counts — `https_proxy=` turns the proxy off even when HTTPS_PROXY is set.
 */
function proxySetting(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  return env[names.find((n) => env[n] !== undefined) ?? ''];
}

/** Which proxy variable would carry a request to `url`, for hints (never its value: it may hold a password). */
function proxied(url: URL, env: NodeJS.ProcessEnv): string | undefined {
  const names = url.protocol === 'https:' ? HTTPS_PROXY_VARS : HTTP_PROXY_VARS;
  const name = names.find((n) => env[n] !== undefined);
  if (!name || env[name] === '') return undefined;
  const noProxy = (env.no_proxy ?? env.NO_PROXY ?? '').split(/[\s,]+/).filter(Boolean);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const excluded = noProxy.some((entry) => entry === '*' || host === entry.replace(/^\.|:\d+$/g, '') || host.endsWith(`.${entry.replace(/^\.|:\d+$/g, '')}`));
  return excluded ? undefined : name;
}

function hintFor(code: string): string | undefined {
  if (code === 'ENOTFOUND') return 'check the host name in --base-url / UPLOAD_BASE_URL (and the proxy settings)';
  if (/WRONG_VERSION_NUMBER$/.test(code)) return 'check the scheme and port in --base-url / UPLOAD_BASE_URL';
  if (/PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|NO_PROTOCOLS_AVAILABLE/.test(code))
    return 'the service (or a proxy in front of it) must offer TLS 1.2 or newer: ask its operators; lowering the security of this tool is not an option';
  return 'if the service uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its PEM file';
}

/** The final error, carrying the service's last answer when the last attempt got one. */
/** The service's reasons from its last answer, on the error that gives up after it. */
function withSaid<E extends ServiceUnreachable>(err: E, said: ServiceSaid | undefined): E {
  err.said = said;
  return err;
}

function giveUp(
  url: URL,
  env: NodeJS.ProcessEnv,
  tried: string[],
  last: string,
  maybeApplied: boolean,
  hint?: string,
  answered?: { status: number; message: string },
  /** The last attempt's own error (undici's, and the system's under it), when it failed without an answer. */
  cause?: unknown,
): ServiceUnreachable {
  const options = cause === undefined ? undefined : { cause };
  const history = tried.length > 1 ? ` (attempts: ${tried.map((t, i) => `${i + 1}. ${t}`).join('; ')})` : '';
  if (maybeApplied) {
    return new ServiceUnreachable(
      'OUTCOME_UNKNOWN',
      `${url.origin}: ${last} after ${tried.length} attempt(s)${history}; at least one attempt sent the whole body without a final answer, so the service may or may not have replaced the records`,
      'run the same upload again (a full replacement is safe to repeat, and settles it); the snapshot was not updated',
      'unknown',
      answered,
      options,
    );
  }
  return new ServiceUnreachable(
    'UNREACHABLE',
    `${url.origin}: ${last} after ${tried.length} attempt(s)${history}; nothing was changed on the service`,
    hint ??
      (proxied(url, env)
        ? `a proxy is set (${proxied(url, env)}): check that it runs and lets this through, or exclude the host with NO_PROXY; then run again`
        : 'check the address and the network, then run again'),
    'unreachable',
    answered,
    options,
  );
}

/** A refusal after an attempt that may have been applied must not read as "nothing changed". */
function withEarlierAttempts<T>(check: () => T, maybeApplied: boolean): T {
  try {
    return check();
  } catch (err) {
    if (!maybeApplied) throw err;
    const note = '; note that an earlier attempt sent the whole body without an answer, so the service may hold the new records';
    if (err instanceof ServiceRejected) {
      const again = new ServiceRejected(err.code, `${err.message}${note}`, err.hint, err.status, err.serviceMessage, { cause: err.cause });
      again.said = err.said;
      again.earlierMayHaveApplied = true;
      throw again;
    }
    if (err instanceof ServiceUnreachable) {
      throw withSaid(
        new ServiceUnreachable(
          'OUTCOME_UNKNOWN',
          `${err.message}${note}`,
          'run the same upload again (a full replacement is safe to repeat, and settles it); the snapshot was not updated',
          'unknown',
          err.lastAnswer,
          { cause: err.cause },
        ),
        err.said,
      );
    }
    throw err;
  }
}

function interruptedAfterSend(): Interrupted {
  return new Interrupted(
    'INTERRUPTED',
    'interrupted after the body was sent: the outcome is unknown, the service may or may not have replaced the records',
    'run the same upload again (a full replacement is safe to repeat, and settles it)',
    true,
  );
}

// One attempt: the POST, its body streamed from the encoded chunks, and what became of it. Whether
// the whole body left before a failure matters: if it did, the service may have applied it.
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { decodeAnswer } from './decode-answer.js';

export type AttemptResult =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: Record<string, string | string[] | undefined>;
      readonly text: string;
      /** The answer was longer than MAX_ANSWER_BYTES: `text` is its start. */
      readonly truncated: boolean;
      /** Why the body could not be decoded (an unknown or broken Content-Encoding). */
      readonly unreadable?: string;
    }
  | {
      readonly kind: 'failed';
      /** The whole body was handed to the connection: the service may have applied it. */
      readonly delivered: boolean;
      /** Worth another attempt (a certificate problem or an unknown host is not). */
      readonly retryable: boolean;
      readonly code: string;
      readonly describe: string;
      /** The error itself (undici's, with the system's as its cause): kept as the final error's cause. */
      readonly cause: unknown;
    };

export interface AttemptInput {
  readonly url: URL;
  readonly dispatcher: Dispatcher;
  readonly headers: Record<string, string>;
  /** The encoded body: the same buffers on every attempt, so every attempt sends the same bytes. */
  readonly chunks: readonly Buffer[];
  /**
   * The last chunk waits for this: the write-ahead intent being recorded (docs/state.md, step 7). A
   * body the service has not received whole cannot have been applied, so the rest of it may go first.
   */
  readonly ready: Promise<void>;
  readonly answerMs: number;
  readonly connectMs: number;
  readonly signal: AbortSignal;
  /** Called with the bytes handed to the connection so far. */
  readonly onBytes: (bytes: number) => void;
  /** Called once when the whole body has been handed over. */
  readonly onSent: () => void;
}

/** Not a certificate problem: the two ends share no TLS version, or the other end does not speak TLS. */
const TLS_VERSION_CODES = /^ERR_SSL_.*(PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|NO_PROTOCOLS_AVAILABLE|WRONG_VERSION_NUMBER)$/;
const TLS_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;

/** A success answer is a one-line JSON object; past 1 MiB an answer is not a real one, and is not read further. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export async function attempt(input: AttemptInput): Promise<AttemptResult> {
  let delivered = false;
  // --timeout bounds the whole answer — its headers and its body together — counted from when the body
  // has been sent, so a service that drips or never ends its answer cannot hold the run (and the lock).
  const answerDeadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  async function* tracked(): AsyncGenerator<Buffer> {
    let bytes = 0;
    const last = input.chunks.length - 1;
    for (const [i, chunk] of input.chunks.entries()) {
      if (i === last) await input.ready;
      bytes += chunk.length;
      input.onBytes(bytes);
      yield chunk;
    }
    // Reached only when the connection asks for more after the last chunk: all of it was written.
    delivered = true;
    timer = setTimeout(() => answerDeadline.abort(), input.answerMs);
    input.onSent();
  }
  try {
    const answer = await request(input.url, {
      dispatcher: input.dispatcher,
      method: 'POST',
      headers: input.headers,
      // A byte stream with a tiny buffer, so "pulled" means "written to the connection".
      body: Readable.from(tracked(), { objectMode: false, highWaterMark: 1 }),
      // The timer restarts with every write that has to wait, so it also catches a stalled send.
      headersTimeout: input.answerMs,
      bodyTimeout: input.answerMs,
      signal: AbortSignal.any([input.signal, answerDeadline.signal]),
      // One connection per attempt: a kept-alive socket the service has closed would blur the outcome.
      reset: true,
    });
    const raw = await readCapped(answer.body, MAX_ANSWER_BYTES);
    const decoded = raw.truncated ? raw : decodeAnswer(raw.bytes, answer.headers['content-encoding'], MAX_ANSWER_BYTES);
    const base = { kind: 'answer', status: answer.statusCode, headers: answer.headers } as const;
    if ('unreadable' in decoded) return { ...base, text: '', truncated: false, unreadable: decoded.unreadable };
    return { ...base, text: decoded.bytes.toString('utf8'), truncated: decoded.truncated };
  } catch (err) {
    if (input.signal.aborted) throw input.signal.reason;
    if (answerDeadline.signal.aborted) {
      return {
        kind: 'failed',
        delivered: true,
        retryable: true,
        code: 'ANSWER_TIMEOUT',
        describe: `the body was sent but no answer within ${input.answerMs / 1000} s`,
        cause: err,
      };
    }
    return failure(err, delivered, input);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer's first `max` bytes as sent; the rest is not read (the connection is closed instead). */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, max), truncated: true };
    }
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

function failure(err: unknown, delivered: boolean, { answerMs, connectMs }: Pick<AttemptInput, 'answerMs' | 'connectMs'>): AttemptResult {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code ?? 'ERROR';
  const secs = `${answerMs / 1000} s`;
  if (delivered) {
    const why =
      code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? `no answer within ${secs}` : `the connection broke before the answer (${code})`;
    return { kind: 'failed', delivered, retryable: true, code, describe: `the body was sent but ${why}`, cause: err };
  }
  const tlsVersion = TLS_VERSION_CODES.exec(code);
  if (tlsVersion) {
    const describe =
      tlsVersion[1] === 'WRONG_VERSION_NUMBER'
        ? `the service did not answer in TLS (${code}): the address may be plain http, or the port another service's`
        : `the service offers only a TLS version older than this tool accepts (TLS 1.2 or newer) (${code})`;
    return { kind: 'failed', delivered, retryable: false, code, describe, cause: err };
  }
  if (TLS_CODES.test(code)) {
    return { kind: 'failed', delivered, retryable: false, code, describe: `the TLS certificate was not accepted (${code})`, cause: err };
  }
  if (code === 'ENOTFOUND') return { kind: 'failed', delivered, retryable: false, code, describe: 'the host name does not exist (ENOTFOUND)', cause: err };
  const describe: Record<string, string> = {
    ECONNREFUSED: 'the connection was refused (ECONNREFUSED)',
    UND_ERR_CONNECT_TIMEOUT: `no connection within ${connectMs / 1000} s (connect timeout)`,
    UND_ERR_HEADERS_TIMEOUT: `the service stopped reading the body for ${secs}`,
  };
  return {
    kind: 'failed',
    delivered,
    retryable: true,
    code,
    describe: describe[code] ?? `the connection failed before the body was sent (${code}${e.message ? `: ${e.message}` : ''})`,
    cause: err,
  };
}

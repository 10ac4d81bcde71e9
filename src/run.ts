// A real run's side effects, in order: lock → confirm → send → record. Everything before (reading,
// planning, judging) is data; everything here touches the lock, the terminal, the network or the state.
import type { Payload } from './contract/json-array.js';
import { KINDS } from './contract/kinds.js';
import type { Diff } from './diff/index.js';
import { GuardRefusal, Interrupted, UploadError } from './errors.js';
import type { UploadOptions } from './options.js';
import { acquireLock, recordAttempt, type StatePaths } from './record/index.js';
import type { ConfirmRequest, RunEvent } from './report/events.js';
import type { ServiceAnswer } from './send/index.js';
import { normaliseBaseUrl } from './record/state.js';

export interface RunContext {
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  /** Aborted on Ctrl-C, with an Interrupted error as its reason. */
  readonly signal?: AbortSignal | undefined;
  readonly emit: (event: RunEvent) => void;
  /** Asks the person at the terminal; resolves false on anything but yes. */
  readonly confirm: (request: ConfirmRequest) => Promise<boolean>;
}

/**
 * Holds the lock for this state directory, base URL and kind around `work`. A real run takes it before
 * the baseline is read and keeps it until the snapshot is written, so the diff and the guards it is
 * judged by cannot go stale under another run.
 */
export async function withLock<T>(paths: StatePaths, what: string, ctx: RunContext, work: () => Promise<T>): Promise<T> {
  const lock = await acquireLock(paths.lock, what);
  try {
    if (lock.recovered) ctx.emit({ type: 'lock-recovered', owner: lock.recovered });
    return await work();
  } finally {
    await lock.release();
  }
}

/** What a real run sends and where its outcome is recorded. */
export interface Job {
  readonly options: UploadOptions & { readonly baseUrl: URL; readonly token: NonNullable<UploadOptions['token']> };
  readonly paths: StatePaths;
  readonly payload: Payload;
  readonly diff: Diff;
}

/** Confirm → send → record. Every attempt that reached the service is audited; only success moves the snapshot. */
export async function execute(job: Job, ctx: RunContext): Promise<ServiceAnswer> {
  const { options, payload } = job;
  const info = KINDS[options.kind];
  if (options.confirm !== 'yes') {
    const request = { kind: options.kind, count: payload.records, where: normaliseBaseUrl(options.baseUrl), diff: job.diff };
    const yes = await ctx.confirm(request).catch((err: unknown) => {
      // Ctrl-C at the prompt rejects the question: an interruption, not a bug.
      if ((err as Error).name === 'AbortError') throw new Interrupted('INTERRUPTED', 'interrupted at the confirmation; nothing was sent');
      throw err;
    });
    if (!yes) throw new GuardRefusal('DECLINED', 'not confirmed; nothing was sent', 'run again and answer y to upload');
  }

  ctx.signal?.throwIfAborted();
  const origin = options.baseUrl.origin;
  const attempt = { paths: job.paths, baseUrl: options.baseUrl, kind: options.kind, source: options.source, diff: job.diff, payload };
  ctx.emit({ type: 'sending', kind: options.kind, count: payload.records, origin });
  let answer: ServiceAnswer;
  // Loaded only to send: a dry run never pays for the HTTP client.
  const { send } = await import('./send/index.js');
  try {
    ({ answer } = await send({
      info,
      baseUrl: options.baseUrl,
      token: options.token,
      payload,
      retries: options.retries,
      timeoutSeconds: options.timeoutSeconds,
      env: ctx.env,
      signal: ctx.signal,
      onEvent: (event) => ctx.emit({ type: 'send', event, origin }),
    }));
  } catch (err) {
    if (err instanceof UploadError) {
      ctx.emit({ type: 'sent' });
      const status = err.response?.status ?? null;
      for (const message of await recordAttempt(attempt, { outcome: err.outcome, status, error: err.code })) ctx.emit({ type: 'warning', message });
    }
    throw err;
  }
  ctx.emit({ type: 'sent' });
  ctx.emit({ type: 'uploaded', message: answer.message });
  for (const message of await recordAttempt(attempt, { outcome: 'uploaded', status: answer.status, error: null })) ctx.emit({ type: 'warning', message });
  return answer;
}

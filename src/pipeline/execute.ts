// A real run's side effects, in order: lock → check → confirm → send → record. Everything before
// (reading, planning, judging) is data; everything here touches the lock, the terminal, the network or
// the state store. The plan was made without the lock, against generation `expected`; under the lock,
// a store that has moved since (another upload in between) refuses the run rather than let it act on
// a stale diff.
import type { Payload } from '../contract/json-array.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import {
  GuardRefusal,
  Interrupted,
  isUploadError,
  resolveFixes,
  ServiceRejected,
  ServiceUnreachable,
  UploadError,
  UsageError,
  type Outcome,
  type ServiceSaid,
} from '../errors.js';
import { baselineOf, describeBaseline, type BaselineReport } from '../report/report.js';
import type { send as sendBody, ServiceAnswer } from '../send/index.js';
import type { Token } from '../send/config.js';
import { pauseAt } from '../state/pause.js';
import { lockLost } from '../state/refusals.js';
import type { ApprovalStory, AuditEntry, Generation, Intended, IntentFacts, Lease, Operation, RecordedLayout, StateKey, StateStore } from '../state/types.js';
import { uncertain } from './baseline.js';
import { toolVersion } from '../version.js';
import type { RunContext } from './context.js';
import type { Identity, SendOptions } from './options.js';
import type { Executed } from '../report/result.js';
import { explainServiceReasons, type Locate } from './service-reasons.js';

/** What a real run sends, where, and what it was judged against. */
export interface Job {
  readonly kind: Kind;
  readonly source: string;
  readonly baseUrl: URL;
  readonly token: Token;
  readonly confirm: SendOptions['confirm'];
  readonly retries: number;
  readonly timeoutSeconds: number;
  readonly keep: number;
  readonly identity: Identity;
  readonly store: StateStore;
  readonly key: StateKey;
  /** The generation the plan was compared with (0: none yet). */
  readonly expected: number;
  readonly against: BaselineReport;
  readonly payload: Payload;
  readonly diff: Diff;
  /** The refusal when the store moved under the lock (a saved plan says PLAN_STALE). */
  readonly staleCode?: 'STATE_MOVED' | 'PLAN_STALE' | undefined;
  /** For restore and apply: what the new generation says it came from. */
  readonly restoredFrom?: number | null;
  readonly plan?: string | null;
  /** What the upload is (a merge, a removal …), and the removals it held back, for the history. */
  readonly operation?: Operation | undefined;
  readonly heldRemovals?: readonly string[] | undefined;
  /** --hours-as-of, for the history. */
  readonly hoursAsOf?: string | undefined;
  /** The file's header and the mapping it was read with, recorded for the next run (../map/layout-memory.ts). */
  readonly layout?: RecordedLayout | undefined;
  /** Where a record the service names by its index came from (line, key). */
  readonly locate?: Locate | undefined;
  /** Four eyes: the history's account, and the approvals checked again just before the first byte. */
  readonly approval?: { readonly story: ApprovalStory; recheck(): Promise<void> } | undefined;
}

/**
 * The write-ahead protocol (docs/state.md numbers its steps): every decision to send is taken under the
 * lock on facts read after taking it, the intent is written only while they still hold, and only this
 * run's own intent is ever removed by it.
 */
export async function execute(job: Job, ctx: RunContext): Promise<Executed> {
  const { store, key, payload } = job;
  const info = KINDS[job.kind];
  pauseAt('planned');
  // The body's sha256, for the intent: a large body's is worked out on another thread (as it was made,
  // for an upload's plan; from now on, for others) while this one takes the lock and writes.
  const digest = payload.digest();
  const lease = await store.lock(key, { ...job.identity, pid: process.pid, what: `${info.noun}s to ${key.baseUrl}` });
  try {
    if (lease.recovered) ctx.emit({ type: 'lock-recovered', owner: lease.recovered });
    // What the store did to be written to (an old folder migrated, tables created): said where it is seen.
    for (const message of lease.notices ?? []) ctx.emit({ type: 'notice', message });
    pauseAt('locked');
    // Fresh facts: what was read while planning may be stale by now (another run recorded an upload, or
    // died after sending one, while this one waited for the lock or took a dead holder's over).
    await freshFacts(job);
    if (job.confirm !== 'yes') await confirm(job, ctx);

    ctx.signal?.throwIfAborted();
    // The question may have stood open for an hour, a laptop may have slept: just before the first byte,
    // prove the lock is still ours and nobody uploaded since the plan was made.
    await fence(job, lease);
    pauseAt('fenced');
    const version = await toolVersion();
    let meta!: Omit<Generation, 'generation'>;
    const origin = job.baseUrl.origin;
    // Write-ahead (steps 6 and 7): what is about to be sent is recorded first — only while the lock is
    // ours, the head is the plan's and no other upload waits to be settled — so a run whose outcome is
    // never learnt leaves a trace that the next run cannot miss (BASELINE_UNCERTAIN). The send starts
    // while the store writes: the HTTP client loads (a dry run never pays for it) and all but the
    // body's last chunk goes, but that chunk waits for the intent, which waits for the sha256. A body
    // the service has not received whole cannot have been applied; an intent refused cuts it off.
    const refused = new AbortController();
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, refused.signal]) : refused.signal;
    let open!: () => void;
    let shut!: (err: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => ((open = resolve), (shut = reject)));
    // The last chunk awaits it, if the send gets that far.
    ready.catch(() => {});
    let sending: Promise<Awaited<ReturnType<typeof sendBody>>> | undefined;
    const intending = writeIntent(job, async () => {
      ctx.emit({ type: 'sending', kind: job.kind, count: payload.records, origin });
      sending = import('../send/index.js').then(({ send }) =>
        send({
          info,
          baseUrl: job.baseUrl,
          token: job.token,
          payload,
          ready,
          retries: job.retries,
          timeoutSeconds: job.timeoutSeconds,
          env: ctx.env,
          tuning: ctx.tuning,
          signal,
          onEvent: (event) => ctx.emit({ type: 'send', event, origin }),
        }),
      );
      // Awaited once the intent is written; a send that fails before that is not an unhandled one.
      sending.catch(() => {});
      await digest;
      return (meta = provenance(job, version));
    });
    let intended: Intended;
    try {
      intended = await intending;
      pauseAt('intended');
      open();
    } catch (err) {
      // Nothing was sent whole: the request, if it started, is cut off before its last chunk.
      refused.abort(err);
      shut(err);
      await sending?.catch(() => {});
      throw err;
    }
    let answer: ServiceAnswer;
    try {
      ({ answer } = await sending!);
    } catch (err) {
      // The send stage says whether any attempt may have been applied (the whole body sent without a
      // final answer, or a gateway's 502/504): only then does the intent stay, to be settled. A
      // refusal, an error answered every time, a connection never made or a body cut off mid-send
      // changed nothing: this run's own intent goes (an adopted one was another run's, and stays).
      if (!mayHaveLanded(err) && !intended.adopted) await store.forget(key, intended.id).catch(() => {});
      // Every attempt that reached the service is audited with its outcome; only success moves the state.
      if (isUploadError(err)) {
        explainServiceReasons(err, job.locate);
        ctx.emit({ type: 'sent' });
        await audit(job, ctx, {
          outcome: err.outcome,
          status: err.response?.status ?? null,
          error: err.code,
          generation: null,
          ...(err.said ? { said: err.said } : {}),
        });
      }
      throw err;
    }
    ctx.emit({ type: 'sent' });
    ctx.emit({ type: 'uploaded', message: answer.message });
    pauseAt('answered');
    // The upload is done and must be recorded: from here on a signal (SIGTERM) cuts no statement short,
    // only the store's bounds do — the lease's check, its connection and the record's transaction.
    if (!(await lease.stillHeld(true).catch(() => false))) {
      // Another run could have taken the lock and uploaded while this one was sending: which set the
      // service holds now is not known. The intent stays, so the next run asks for it to be settled.
      await audit(job, ctx, { outcome: 'unknown', status: answer.status, error: 'LOCK_LOST_WHILE_SENDING', generation: null });
      throw new ServiceUnreachable(
        'LOCK_LOST_WHILE_SENDING',
        `the service confirmed the upload (${answer.message}), but the lock on ${KINDS[job.kind].noun}s to ${key.baseUrl} was lost while sending: another upload may have run at the same time, so what the service holds now is not known`,
        `see \`upload history ${job.kind}\`, then settle it with \`upload state resolve ${job.kind} --sent\` (the service holds this upload) or \`--previous\`, or upload again`,
        'unknown',
        answer,
      ).withFixes(...resolveFixes(job.kind, '--sent', '--previous'));
    }
    const generation = await record(job, ctx, meta, intended.id, answer);
    pauseAt('recorded');
    await audit(job, ctx, { outcome: 'uploaded', status: answer.status, error: null, generation });
    return { answer, generation };
  } finally {
    await lease.release();
  }
}

/** Under the lock, before the question: the head is still the plan's, and no other upload waits to be settled. */
async function freshFacts(job: Job): Promise<void> {
  const now = await job.store.head(job.key);
  if ((now?.generation ?? 0) !== job.expected) throw moved(job, now);
  const pending = await job.store.pending(job.key);
  // Sending the very bytes of the pending upload again is safe (whichever set the service holds, it then
  // holds this one); anything else is planned against a set the service may no longer hold.
  if (pending && pending.sha256 !== (await job.payload.digest())) throw uncertain(job.store.label, job.key, pending);
}

/** The intent, or the refusal that says why it could not be written (nothing was sent). */
async function writeIntent(job: Job, meta: IntentFacts): Promise<Intended> {
  const { store, key, payload } = job;
  try {
    return await store.intend(key, job.expected, payload.chunks, meta, () => payload.spooled());
  } catch (err) {
    if (err instanceof GuardRefusal) {
      if (err.code === 'STATE_MOVED') throw moved(job, await store.head(key));
      const pending = err.code === 'BASELINE_UNCERTAIN' ? await store.pending(key).catch(() => undefined) : undefined;
      throw pending ? uncertain(store.label, key, pending) : err;
    }
    if (isUploadError(err) && err.code !== 'INTERNAL_ERROR') throw err;
    throw new UsageError(
      'STATE_UNUSABLE',
      `cannot record the upload about to be sent in ${store.label} (${describe(err)}); nothing was sent`,
      'fix the state store, then run again',
      { cause: err },
    );
  }
}

/** Whether a failed send may have been applied by the service (the send stage's own verdict). */
function mayHaveLanded(err: unknown): boolean {
  if (err instanceof ServiceUnreachable) return err.outcome === 'unknown';
  if (err instanceof Interrupted) return err.afterSend;
  if (err instanceof ServiceRejected) return err.earlierMayHaveApplied;
  // A 2xx that does not confirm the upload, or a failure of this tool's own: the service may hold it.
  return true;
}

async function confirm(job: Job, ctx: RunContext): Promise<void> {
  const request = { kind: job.kind, count: job.payload.records, where: job.key.baseUrl, diff: job.diff, against: job.against };
  const yes = await ctx.confirm(request).catch((err: unknown) => {
    // Ctrl-C at the prompt rejects the question: an interruption, not a bug.
    if ((err as Error).name === 'AbortError') throw new Interrupted('INTERRUPTED', 'interrupted at the confirmation; nothing was sent');
    throw err;
  });
  if (!yes) throw new GuardRefusal('DECLINED', 'not confirmed; nothing was sent', `run again and ${ctx.confirmAnswer ?? 'answer y'} to upload`);
}

/** The lock still ours, the store still at the generation the plan was made against: or nothing is sent. */
async function fence(job: Job, lease: Lease): Promise<void> {
  if (!(await lease.stillHeld().catch(() => false))) throw lockLost(job.key, job.store.label);
  const now = await job.store.head(job.key);
  if ((now?.generation ?? 0) !== job.expected) throw moved(job, now);
  // An approval may have expired while the question stood open; the plan may have been applied meanwhile.
  await job.approval?.recheck();
}

function moved(job: Job, now: Generation | undefined): GuardRefusal {
  const noun = `${KINDS[job.kind].noun}s`;
  const latest = now ? describeBaseline(baselineOf(now), job.kind) : 'nothing (its history was removed)';
  return new GuardRefusal(
    job.staleCode ?? 'STATE_MOVED',
    `the ${noun} at ${job.key.baseUrl} changed while this upload was being prepared: it was compared with ${job.expected ? `upload #${job.expected}` : 'no earlier upload'}, but the latest is now ${latest}; nothing was sent`,
    'run again, so the changes are worked out against the latest upload',
  );
}

/**
 * The confirmed body becomes the next generation. The service has already replaced its records, so a
 * store that cannot record it is said loudly, never turned into a failure of the upload.
 */
function provenance(job: Job, toolVersion: string): Omit<Generation, 'generation'> {
  const { payload } = job;
  return {
    uploadedAt: new Date().toISOString(),
    ...job.identity,
    toolVersion,
    source: job.source,
    records: payload.records,
    bytes: payload.bytes,
    sha256: payload.sha256,
    restoredFrom: job.restoredFrom ?? null,
    plan: job.plan ?? null,
    ...(job.operation ? { operation: job.operation } : {}),
    ...(job.heldRemovals?.length ? { heldRemovals: job.heldRemovals } : {}),
    ...(job.hoursAsOf ? { hoursAsOf: job.hoursAsOf } : {}),
    ...(job.approval ? { approval: job.approval.story } : {}),
    ...(job.layout ? { layout: job.layout } : {}),
  };
}

/**
 * The confirmed body becomes the next generation, confirming this run's intent. The service has
 * already replaced its records: a store that cannot record it is its own outcome (`unrecorded`), and
 * the intent stays, so the next run asks for it to be settled instead of comparing with the upload before.
 */
async function record(job: Job, ctx: RunContext, intended: Omit<Generation, 'generation'>, intent: string, answer: ServiceAnswer): Promise<number> {
  const { payload } = job;
  try {
    const meta = { ...intended, uploadedAt: new Date().toISOString() };
    const generation = await job.store.commit(job.key, job.expected, payload.chunks, meta, job.keep, intent);
    ctx.emit({ type: 'recorded', generation: generation.generation, store: job.store.label });
    return generation.generation;
  } catch (err) {
    await audit(job, ctx, { outcome: 'unrecorded', status: answer.status, error: 'NOT_RECORDED', generation: null });
    throw new ServiceUnreachable(
      'NOT_RECORDED',
      `the service confirmed the upload (${answer.message}), but the state store ${job.store.label} could not record it (${describe(err)}): it stays recorded as sent but not confirmed, so no run compares with the upload before it`,
      `once the store is fixed, settle it with \`upload state resolve ${job.kind} --sent\` (the service holds this upload)`,
      'unrecorded',
      answer,
    ).withFixes(...resolveFixes(job.kind, '--sent'));
  }
}

async function audit(
  job: Job,
  ctx: RunContext,
  result: { outcome: Outcome; status: number | null; error: string | null; generation: number | null; said?: ServiceSaid },
): Promise<void> {
  const { diff, payload } = job;
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    ...job.identity,
    pid: process.pid,
    kind: job.kind,
    baseUrl: job.key.baseUrl,
    source: job.source,
    count: payload.records,
    bytes: payload.bytes,
    sha256: payload.sha256,
    baseGeneration: job.expected,
    diff: { baseline: diff.baseline, added: diff.added, removed: diff.removed, changed: diff.changed, unchanged: diff.unchanged },
    ...result,
  };
  try {
    await job.store.audit(job.key, entry);
  } catch (err) {
    ctx.emit({ type: 'warning', message: `the audit log in ${job.store.label} could not be written: ${describe(err)}` });
  }
}

function describe(err: unknown): string {
  // A signal that cut a statement short is named as that, not with the words meant for before the send.
  if (err instanceof Interrupted) return 'interrupted by a signal';
  return err instanceof UploadError ? err.message : ((err as NodeJS.ErrnoException).code ?? (err as Error).message ?? String(err));
}

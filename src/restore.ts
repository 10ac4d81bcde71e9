// `upload restore <kind>`: an earlier generation sent again through the normal path — diff against the
// latest, the guards, the question, send, record — as a new generation that says what it restored.
import type { Payload } from './contract/json-array.js';
import { decodeCanonical } from './diff/snapshot.js';
import { KINDS, type Kind } from './contract/kinds.js';
import { diffRecords } from './diff/index.js';
import { UsageError } from './errors.js';
import { judge, type RemovalLimit } from './guard/index.js';
import { generationRecords, type State } from './load.js';
import type { Identity, UploadOptions } from './options.js';
import { describeBaseline } from './report/human.js';
import { diffReport, emptyReport, markUploaded, baselineOf } from './report/types.js';
import { execute, type RunContext } from './run.js';
import type { Generation } from './state/types.js';
import { openState, type RunResult } from './upload.js';

export interface RestoreOptions {
  readonly kind: Kind;
  /** The generation to restore; undefined: the one before the latest. */
  readonly generation: number | undefined;
  readonly dryRun: boolean;
  readonly confirm: UploadOptions['confirm'];
  readonly baseUrl: URL;
  readonly token: UploadOptions['token'];
  readonly tokenEnv: string;
  readonly maxRemovals: RemovalLimit;
  readonly allowEmpty: boolean;
  readonly retries: number;
  readonly timeoutSeconds: number;
  readonly state: string;
  readonly keep: number;
  readonly identity: Identity;
}

export async function runRestore(options: RestoreOptions, ctx: RunContext): Promise<RunResult> {
  const report = emptyReport(options.kind, null, options.dryRun);
  const opened = await openState(options.state, options.baseUrl, options.kind, ctx).catch((failure: unknown) => ({ failure }));
  if ('failure' in opened) return { report, failure: opened.failure };
  const state = opened;
  try {
    const { kind } = options;
    const noun = `${KINDS[kind].noun}s`;
    const head = await state.store.head(state.key);
    if (!head)
      throw new UsageError(
        'NO_HISTORY',
        `no upload of ${noun} to ${state.key.baseUrl} is recorded in ${state.store.label}, so there is nothing to restore`,
        'check --base-url and --state; `upload history` lists what is recorded',
      );
    const target = await pick(state, head, options.generation);
    const source = `upload #${target.generation}`;
    report.source = source;
    const body = await state.store.readSnapshot(state.key, target.generation);
    const records = decodeCanonical(body, KINDS[kind].keyField);
    if (!records)
      throw new UsageError(
        'BAD_GENERATION',
        `upload #${target.generation} in ${state.store.label} is not a body this tool wrote`,
        'pick another with --generation N',
      );
    const against = baselineOf(head);
    report.baseline = against;
    const diff = diffRecords(await generationRecords(state, head), 'snapshot', [...records.keys()], records.bodies);
    report.records = records.size;
    report.diff = diffReport(diff);
    report.unchanged = diff.added === 0 && diff.removed === 0 && diff.changed === 0;
    ctx.emit({
      type: 'notice',
      message: `Restoring ${describeBaseline(baselineOf(target), kind)}`,
    });
    ctx.emit({ type: 'diff', kind, diff, against, noBaselineWhy: undefined });
    const verdict = judge({
      kind,
      source,
      count: records.size,
      diff,
      limit: options.maxRemovals,
      allowEmpty: options.allowEmpty,
      acknowledgeNoBaseline: false,
      has: { token: options.token !== undefined, tokenEnv: options.tokenEnv, baseUrl: true, confirmation: options.confirm !== 'impossible' },
    });
    ctx.emit({ type: 'guard-notes', notes: verdict.notes });
    if (verdict.refusal) throw verdict.refusal;
    if (options.dryRun) {
      report.outcome = 'dry-run';
      report.exitCode = 0;
      ctx.emit({ type: 'dry-run', kind, count: records.size, needs: verdict.needs });
      return { report };
    }
    const payload: Payload = { records: records.size, chunks: [body], bytes: body.length, sha256: target.sha256 };
    const executed = await execute(
      {
        ...options,
        source,
        token: options.token!,
        store: state.store,
        key: state.key,
        expected: head.generation,
        against,
        payload,
        diff,
        restoredFrom: target.generation,
      },
      ctx,
    );
    markUploaded(report, executed);
    return { report };
  } catch (failure) {
    return { report, failure };
  } finally {
    await state.store.close();
  }
}

/** --generation N, or the newest generation before the latest; its snapshot must still be kept. */
async function pick(state: State, head: Generation, wanted: number | undefined): Promise<Generation> {
  const kept = await state.store.generations(state.key);
  if (wanted === head.generation) {
    throw new UsageError(
      'BAD_GENERATION',
      `upload #${wanted} is the latest already: restoring it would change nothing`,
      'pick an earlier one with --generation N (see `upload history`)',
    );
  }
  const target = wanted === undefined ? kept.find((g) => g.generation < head.generation) : kept.find((g) => g.generation === wanted);
  if (!target) {
    const which = wanted === undefined ? 'no earlier upload' : `upload #${wanted} is not`;
    throw new UsageError(
      'BAD_GENERATION',
      `${which} among the snapshots kept in ${state.store.label} (${kept.map((g) => `#${g.generation}`).join(', ') || 'none'})`,
      'pick one of them with --generation N; --keep N keeps more in future',
    );
  }
  return target;
}

// `upload restore <kind>`: the planned set is an earlier generation, sent again through the normal path
// — diff against the latest, the guards, the question, send, record — as a new generation that says
// what it restored.
import { commandBasics, recordedSetGuards } from '../pipeline/definition.js';
import { knownPayload } from '../contract/json-array.js';
import { KINDS } from '../contract/kinds.js';
import { analyseChanges } from '../diff/changed.js';
import { diffRecords } from '../diff/index.js';
import { decodeCanonical } from '../diff/snapshot.js';
import { UsageError } from '../errors.js';
import { baselineOf } from '../report/report.js';
import type { Generation } from '../state/types.js';
import { latestUpload } from '../pipeline/baseline.js';
import { nothingRecorded } from '../pipeline/nothing-recorded.js';
import type { RunContext } from '../pipeline/context.js';
import { runFrame, type Definition } from '../pipeline/frame.js';
import type { Limits, RecordedSetOptions } from '../pipeline/options.js';
import type { RunResult } from '../report/result.js';
import type { State } from '../pipeline/state.js';

export interface RestoreOptions extends RecordedSetOptions {
  readonly limits: Limits;
  /** The generation to restore; undefined: the one before the latest. */
  readonly generation: number | undefined;
}

export function runRestore(options: RestoreOptions, ctx: RunContext): Promise<RunResult> {
  return runFrame(restoreDefinition(options), ctx);
}

export function restoreDefinition(options: RestoreOptions): Definition {
  const { kind } = options;
  return {
    ...commandBasics(options, { kind, source: null, dryRun: options.dryRun }),
    guards: recordedSetGuards(options.limits),
    outputs: { planOut: options.planOut, target: options.target },
    locate: () => Promise.resolve({ kind, baseUrl: options.baseUrl }),
    baseline: async ({ state, head }) => {
      if (!state || !head) throw nothingRecorded(kind, { baseUrl: state?.key.baseUrl, store: state?.store.label }, 'to restore');
      return latestUpload(state, head);
    },
    plan: async ({ state, head }, against, ctx) => {
      const target = await pick(state!, head!, options.generation);
      const body = await state!.store.readSnapshot(state!.key, target.generation);
      const records = decodeCanonical(body, KINDS[kind].keyField);
      if (!records)
        throw new UsageError(
          'BAD_GENERATION',
          `upload #${target.generation} in ${state!.store.label} is not a body this tool wrote`,
          'pick another with --generation N',
        );
      ctx.emit({ type: 'restoring', kind, upload: baselineOf(target) });
      const payload = knownPayload(records.size, body, target.sha256);
      const latest = against.baseline!.records;
      const [keys, bodies] = [[...records.keys()], records.bodies];
      const diff = diffRecords(latest, 'snapshot', keys, bodies);
      return {
        source: `upload #${target.generation}`,
        records: records.size,
        count: records.size,
        diff,
        changes: () => analyseChanges(kind, latest, keys, bodies, diff),
        payload: () => Promise.resolve(payload),
        what: { operation: 'restore', restoredFrom: target.generation } as const,
      };
    },
  };
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

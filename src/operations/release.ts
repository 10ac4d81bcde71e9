// `upload release <kind>`: the "allow deletes" for exactly the removals --hold-removals held back. The
// planned set is the last recorded set without the keys an upload held, sent through the same frame as
// any upload (guards, question, lock, record; on a target that needs approvals, a plan like any other).
// Naming the held keys is naming the exact removal count, as `upload remove` does.
import { KINDS } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { plural } from '../numbers.js';
import { removeKeys } from '../sets/index.js';
import { operationOf } from '../state/operation.js';
import type { Generation, ListedGeneration } from '../state/types.js';
import { latestUpload } from '../pipeline/baseline.js';
import type { RunContext } from '../pipeline/context.js';
import { commandBasics, recordedSetGuards, type Definition } from '../pipeline/definition.js';
import { plannedSet } from '../pipeline/encoded.js';
import { runFrame } from '../pipeline/frame.js';
import { nothingRecorded } from '../pipeline/nothing-recorded.js';
import type { Limits, RecordedSetOptions } from '../pipeline/options.js';
import type { RunResult } from '../report/result.js';
import type { State } from '../pipeline/state.js';

export interface ReleaseOptions extends RecordedSetOptions {
  /** The guards' limits; the removal limit is the number of keys released. */
  readonly limits: Omit<Limits, 'maxRemovals'>;
  /** --generation N: the upload whose holds are released; undefined: the latest. */
  readonly generation: number | undefined;
}

export function runRelease(options: ReleaseOptions, ctx: RunContext): Promise<RunResult> {
  return runFrame(releaseDefinition(options), ctx);
}

/** The keys upload #N held that still stand, and the upload they were held by. */
export interface Hold {
  readonly generation: number;
  readonly keys: readonly string[];
}

export function releaseDefinition(options: ReleaseOptions): Definition {
  const { kind } = options;
  return {
    ...commandBasics(options, { kind, source: null, dryRun: options.dryRun }),
    // Known once the hold is read (the planned set's guards): the removal limit is exactly the keys held.
    guards: undefined,
    outputs: { planOut: options.planOut, target: options.target },
    locate: () => Promise.resolve({ kind, baseUrl: options.baseUrl }),
    baseline: async ({ state, head }) => {
      if (!state || !head) throw nothingRecorded(kind, { baseUrl: options.baseUrl.href, store: state?.store.label }, 'held back to release');
      return latestUpload(state, head);
    },
    plan: async ({ state, head }, against) => {
      const recorded = against.baseline!.records;
      const listed = await state!.store.generations(state!.key);
      const hold = holdOf(listed, head!, options.generation, recorded);
      if (!hold.keys.length) throw nothingHeld(options, state!, listed, head!, recorded, hold.generation);
      const set = removeKeys(recorded, hold.keys);
      return {
        source: `${plural(hold.keys.length, 'held removal')} of upload #${hold.generation}`,
        records: set.keys.length,
        ...plannedSet(kind, recorded, set),
        guards: recordedSetGuards({ ...options.limits, maxRemovals: { kind: 'count', count: hold.keys.length } }),
        what: { operation: 'release', release: hold } as const,
      };
    },
  };
}

/**
 * The keys upload #N held back that are still held: still on the service (in the latest set), and not
 * brought back by a later upload of a whole file (which keeps a key it holds in its own holds, and a
 * key its file names out of them). A later merge, removal, restore or release names no file of every
 * key, so it neither brings a key back nor holds it.
 */
export function holdOf(listed: readonly Generation[], head: Generation, wanted: number | undefined, latest: ReadonlyMap<string, string>): Hold {
  const generation = wanted ?? head.generation;
  const from = listed.find((g) => g.generation === generation);
  if (!from) {
    throw new UsageError(
      'BAD_GENERATION',
      `upload #${generation} is not recorded (the latest is #${head.generation})`,
      'pick one with --generation N (see `upload history`)',
    );
  }
  const later = listed.filter((g) => g.generation > generation && (operationOf(g) === 'upload' || operationOf(g) === 'apply'));
  const stillHeld = (key: string) => latest.has(key) && later.every((g) => (g.heldRemovals ?? []).includes(key));
  return { generation, keys: (from.heldRemovals ?? []).filter(stillHeld) };
}

/** NOTHING_HELD: what the upload held (if anything) and where it went; another upload's hold that still stands is the fix. */
function nothingHeld(
  options: ReleaseOptions,
  state: State,
  listed: readonly ListedGeneration[],
  head: Generation,
  latest: ReadonlyMap<string, string>,
  n: number,
): UsageError {
  const { kind } = options;
  const noun = KINDS[kind].noun;
  const had = listed.find((x) => x.generation === n)?.heldRemovals?.length ?? 0;
  const why = had ? `the ${plural(had, noun)} it held back are no longer held (removed since, or named again by a later file)` : 'it held no removals back';
  // The newest other upload whose holds still stand: the latest (when --generation named another), or an earlier one.
  const other = listed
    .filter((x) => x.generation !== n && x.heldRemovals?.length)
    .map((x) => holdOf(listed, head, x.generation, latest))
    .find((h) => h.keys.length);
  const target = options.target ? ['--target', options.target] : ['--base-url', state.key.baseUrl];
  const args = other && ['release', kind, ...target, ...(other.generation === head.generation ? [] : ['--generation', String(other.generation)])];
  const refusal = new UsageError(
    'NOTHING_HELD',
    `nothing to release: upload #${n} of ${noun}s to ${state.key.baseUrl}${n === head.generation ? ' (the latest)' : ''} — ${why}; nothing was sent`,
    other && args
      ? `upload #${other.generation}${other.generation === head.generation ? ' (the latest)' : ''} held back ${plural(other.keys.length, noun)} that are still held: upload ${args.join(' ')}`
      : `\`upload history ${kind} ${target.join(' ')}\` shows which uploads held removals back; to remove other records: upload remove ${kind} KEY… ${target.join(' ')}`,
  );
  return args ? refusal.withFixes({ kind: 'command', args }) : refusal;
}

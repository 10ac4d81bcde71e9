// `upload remove <kind> KEY… [--keys-file FILE]`: the planned set is the last recorded set without
// those keys, sent through the same frame as any upload. Naming the keys is naming the exact number of
// removals, which is what --max-removals asks for; every other guard judges as usual.
import { KINDS } from '../contract/kinds.js';
import { InputError } from '../errors.js';
import { removeKeys } from '../sets/index.js';
import { nearKeys } from '../sets/near-keys.js';
import { latestUpload } from '../pipeline/baseline.js';
import { nothingRecorded } from '../pipeline/nothing-recorded.js';
import { commandBasics, recordedSetGuards, type Definition } from '../pipeline/definition.js';
import { plannedSet } from '../pipeline/encoded.js';
import { runFrame } from '../pipeline/frame.js';
import type { Limits, RecordedSetOptions } from '../pipeline/options.js';
import type { RunContext } from '../pipeline/context.js';
import type { RunResult } from '../report/result.js';

export interface RemoveOptions extends RecordedSetOptions {
  /** The guards' limits; the removal limit is the number of keys named. */
  readonly limits: Omit<Limits, 'maxRemovals'>;
  /** The keys to remove, each once. */
  readonly keys: readonly string[];
  /** How the keys were given, for the report and the history: "keys E1, E2" or "keys in leavers.txt". */
  readonly source: string;
}

export function runRemove(options: RemoveOptions, ctx: RunContext): Promise<RunResult> {
  return runFrame(removeDefinition(options), ctx);
}

export function removeDefinition(options: RemoveOptions): Definition {
  const { kind, keys } = options;
  const noun = `${KINDS[kind].noun}s`;
  return {
    ...commandBasics(options, { kind, source: options.source, dryRun: options.dryRun }),
    guards: recordedSetGuards({ ...options.limits, maxRemovals: { kind: 'count', count: keys.length } }),
    outputs: { planOut: options.planOut, target: options.target },
    locate: () => Promise.resolve({ kind, baseUrl: options.baseUrl }),
    baseline: async ({ state, head }) => {
      if (!state || !head)
        throw nothingRecorded(kind, { baseUrl: options.baseUrl.href, store: state?.store.label }, `to remove ${keys.length === 1 ? 'the key' : 'keys'} from`);
      return latestUpload(state, head);
    },
    plan: (_opened, against) => {
      const recorded = against.baseline!.records;
      const set = removeKeys(recorded, keys);
      if (set.unknown.length) {
        const listed = set.unknown.slice(0, 10).map((k) => `'${k}'`);
        const which = set.unknown.length === 1 ? `${KINDS[kind].keyField} ${listed[0]} is` : `${set.unknown.length} keys are`;
        const list = set.unknown.length === 1 ? '' : `: ${listed.join(', ')}${set.unknown.length > 10 ? ', …' : ''}`;
        const meant = set.unknown.slice(0, 10).flatMap((k) => {
          const near = nearKeys(k, recorded.keys());
          return near.length ? [`'${k}': did you mean ${near.map((n) => `'${n}'`).join(' or ')}?`] : [];
        });
        throw new InputError(
          'UNKNOWN_KEY',
          `${which} not in the last recorded set of ${noun}${list}${meant.length ? ` (${meant.join('; ')})` : ''}; nothing was sent`,
          `check the spelling (keys are compared exactly, case included); \`upload export ${kind}\` lists what is recorded`,
        );
      }
      return Promise.resolve({ source: options.source, records: set.keys.length, ...plannedSet(kind, recorded, set), what: { operation: 'remove' } as const });
    },
  };
}

// The diff stage: the planned records against the baseline, keyed by nodeKey / employeeID.
// Records are compared as the bytes of their canonical wire JSON, so "changed" means "the service would
// store something different"; only the few examples are decoded and parsed.
import { RUN, sameRun, type Bodies } from '../contract/json-array.js';
import type { RecordsByKey } from './records.js';

export type { RecordsByKey } from './records.js';

export type BaselineSource = 'snapshot' | 'file' | 'none';

export interface FieldChange {
  readonly field: string;
  readonly before: unknown;
  readonly after: unknown;
}

export interface ChangeExample {
  readonly key: string;
  readonly changes: readonly FieldChange[];
}

export interface Diff {
  readonly baseline: BaselineSource;
  /** Counts are null when there is no baseline to compare with. */
  readonly added: number | null;
  readonly removed: number | null;
  readonly changed: number | null;
  readonly unchanged: number | null;
  /** Size of the baseline (null without one): the base of a percentage removal limit. */
  readonly baselineCount: number | null;
  /** Per planned record, by its place in the plan: ADDED, CHANGED or UNCHANGED (empty without a baseline). */
  readonly status: Uint8Array;
  readonly examples: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly ChangeExample[];
  };
}

const EXAMPLES = 5;

/** A planned record's place in the diff (Diff.status), so the field analysis visits only what changed. */
export const UNCHANGED = 0;
export const ADDED = 1;
export const CHANGED = 2;

export function noBaseline(): Diff {
  return {
    baseline: 'none',
    added: null,
    removed: null,
    changed: null,
    unchanged: null,
    baselineCount: null,
    status: new Uint8Array(0),
    examples: { added: [], removed: [], changed: [] },
  };
}

/**
 * The plan's records against the baseline. `planned` answers whether the plan holds a key (the
 * validator's key index, so no second set of a million keys is built); keys are unique in a plan.
 */
export function diffRecords(
  baseline: RecordsByKey,
  source: Exclude<BaselineSource, 'none'>,
  keys: readonly string[],
  bodies: Bodies,
  planned: (key: string) => boolean = setOf(keys),
): Diff {
  let added = 0;
  let changed = 0;
  let unchanged = 0;
  const addedKeys: string[] = [];
  const changedExamples: ChangeExample[] = [];
  const status = new Uint8Array(keys.length);
  // A file exported again is mostly in the order of the last upload: each key is first tried against the
  // baseline record after the last one found, and looked up by key only when that is not it.
  let next = 0;
  // The repeat upload, the common case: a run of records that are byte for byte the baseline's next
  // ones is unchanged as a whole, by one native comparison (sameRun; a run that differs, up to its first
  // difference). From a record that differs, records are compared one by one up to `single`, so a change
  // costs one failed comparison, not one per record after it.
  let single = 0;
  for (let i = 0; i < keys.length; i++) {
    if (i >= single && next < baseline.size) {
      const run = sameRun(baseline.bodies, next, bodies, i);
      if (run > 0) {
        unchanged += run;
        next += run;
        i += run - 1;
        continue;
      }
      single = i + RUN;
    }
    const key = keys[i]!;
    const r = next < baseline.size && baseline.keyIs(next, key) ? next : baseline.find(key);
    if (r !== -1) next = r + 1;
    if (r === -1) {
      added++;
      status[i] = ADDED;
      if (addedKeys.length < EXAMPLES) addedKeys.push(key);
    } else if (baseline.same(r, bodies, i)) unchanged++;
    else {
      changed++;
      status[i] = CHANGED;
      if (changedExamples.length < EXAMPLES) changedExamples.push({ key, changes: fieldChanges(baseline.json(r), bodies.json(i)) });
    }
  }
  // Every planned key that is not added is in the baseline, so what remains of it was removed.
  const removed = baseline.size - (changed + unchanged);
  const removedKeys: string[] = [];
  for (let r = 0; r < baseline.size && removed > 0; r++) {
    const key = baseline.keyOf(r);
    if (planned(key)) continue;
    removedKeys.push(key);
    if (removedKeys.length === EXAMPLES) break;
  }
  return {
    baseline: source,
    added,
    removed,
    changed,
    unchanged,
    baselineCount: baseline.size,
    status,
    examples: { added: addedKeys, removed: removedKeys, changed: changedExamples },
  };
}

export function fieldChanges(beforeJson: string, afterJson: string): FieldChange[] {
  const before = JSON.parse(beforeJson) as Record<string, unknown>;
  const after = JSON.parse(afterJson) as Record<string, unknown>;
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...fields]
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

function setOf(keys: readonly string[]): (key: string) => boolean {
  const set = new Set(keys);
  return (key) => set.has(key);
}

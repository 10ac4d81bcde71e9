// The field analysis (./fields.ts) fed from a plan and its baseline as they are held: records as the
// bytes of their canonical wire JSON, the diff's status per planned record. Only the changed records
// are decoded and parsed. The holders among the unchanged ones are counted only for a field that lost
// values, and by a search of the records' bytes, not a parse: a routine run that empties nothing costs
// nothing here.
import type { Bodies } from '../contract/json-array.js';
import type { Kind } from '../contract/kinds.js';
import { CHANGED, UNCHANGED, type Diff } from './index.js';
import type { RecordsByKey } from './records.js';
import { tallyChanges, withUnchangedHolders, type ChangeTally, type RecordChange } from './fields.js';

/** What the upload changes, field by field; undefined without a baseline. */
export function analyseChanges(kind: Kind, baseline: RecordsByKey | undefined, keys: readonly string[], bodies: Bodies, diff: Diff): ChangeTally | undefined {
  if (!baseline || diff.baseline === 'none') return undefined;
  const tally = tallyChanges(kind, changedRecords(baseline, keys, bodies, diff.status));
  const lost = tally.losses.filter((l) => l.records > 0).map((l) => l.field);
  if (lost.length === 0) return tally;
  const held = new Map(lost.map((field) => [field, holders(field, bodies, diff.status)]));
  return withUnchangedHolders(tally, held);
}

function* changedRecords(baseline: RecordsByKey, keys: readonly string[], bodies: Bodies, status: Uint8Array): Iterable<RecordChange> {
  for (let i = 0; i < keys.length; i++) {
    if (status[i] !== CHANGED) continue;
    const key = keys[i]!;
    yield { key, before: JSON.parse(baseline.get(key)!) as RecordChange['before'], after: JSON.parse(bodies.json(i)) as RecordChange['after'] };
  }
}

/**
 * How many unchanged records hold a value in a field, read from their bytes. In compact JSON a raw
 * quote only ever delimits a string, so `"roleCode":null` can only be that field's null, and `"1":{`
 * only the Monday entry of the hours (no other object in a record has digit keys).
 */
function holders(field: string, bodies: Bodies, status: Uint8Array): number {
  const dot = field.indexOf('.');
  const unchanged = (i: number) => status[i] === UNCHANGED;
  if (dot !== -1) return bodies.holding(Buffer.from(`"${field.slice(dot + 1)}":{`), unchanged);
  // Unchanged records holding a value: those with neither a null nor an empty text in the field.
  const empty = bodies.holding(Buffer.from(`"${field}":null`), unchanged) + bodies.holding(Buffer.from(`"${field}":""`), unchanged);
  let count = 0;
  for (let i = 0; i < bodies.length; i++) if (unchanged(i)) count++;
  return count - empty;
}

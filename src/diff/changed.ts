// The field analysis (./fields.ts) fed from a plan and its baseline as they are held today: records as
// canonical wire JSON strings, the diff's status per planned record. Only the changed records are
// parsed. The holders among the unchanged ones are counted only for a field that lost values, and by
// a search of the record's text, not a parse: a routine run that empties nothing costs nothing here.
import type { Kind } from '../contract/kinds.js';
import { CHANGED, UNCHANGED, type Diff } from './index.js';
import { tallyChanges, withUnchangedHolders, type ChangeTally, type RecordChange } from './fields.js';

/** What the upload changes, field by field; undefined without a baseline. */
export function analyseChanges(
  kind: Kind,
  baseline: ReadonlyMap<string, string> | undefined,
  keys: readonly string[],
  bodies: readonly string[],
  diff: Diff,
): ChangeTally | undefined {
  if (!baseline || diff.baseline === 'none') return undefined;
  const tally = tallyChanges(kind, changedRecords(baseline, keys, bodies, diff.status));
  const lost = tally.losses.filter((l) => l.records > 0).map((l) => l.field);
  if (lost.length === 0) return tally;
  const held = new Map(lost.map((f) => [f, 0]));
  const tests = lost.map((field) => ({ field, holds: holdsValue(field) }));
  for (let i = 0; i < bodies.length; i++) {
    if (diff.status[i] !== UNCHANGED) continue;
    const body = bodies[i]!;
    for (const { field, holds } of tests) if (holds(body)) held.set(field, held.get(field)! + 1);
  }
  return withUnchangedHolders(tally, held);
}

function* changedRecords(
  baseline: ReadonlyMap<string, string>,
  keys: readonly string[],
  bodies: readonly string[],
  status: Uint8Array,
): Iterable<RecordChange> {
  for (let i = 0; i < keys.length; i++) {
    if (status[i] !== CHANGED) continue;
    const key = keys[i]!;
    yield { key, before: JSON.parse(baseline.get(key)!) as RecordChange['before'], after: JSON.parse(bodies[i]!) as RecordChange['after'] };
  }
}

/**
 * Whether a canonical record holds a value in a field, read from its text. In compact JSON a raw quote
 * only ever delimits a string, so `"roleCode":null` can only be that field's null, and `"1":{` only
 * the Monday entry of the hours (no other object in a record has digit keys).
 */
function holdsValue(field: string): (body: string) => boolean {
  const dot = field.indexOf('.');
  if (dot !== -1) {
    const day = `"${field.slice(dot + 1)}":{`;
    return (body) => body.includes(day);
  }
  const nul = `"${field}":null`;
  const blank = `"${field}":""`;
  return (body) => !body.includes(nul) && !body.includes(blank);
}

// A set's request body, encoded once when first asked for: a dry run without --payload-out never pays
// for it, and a real run encodes it once for sending, the hash and the record.
import type { Payload } from '../contract/json-array.js';
import type { Kind } from '../contract/kinds.js';
import { analyseChanges } from '../diff/changed.js';
import { diffRecords, type RecordsByKey } from '../diff/index.js';
import { bodiesOf, type RecordSet } from '../sets/index.js';

export function encoded(bodies: readonly string[]): () => Promise<Payload> {
  let payload: Promise<Payload> | undefined;
  return () => (payload ??= import('../contract/json-array.js').then(({ encodePayload }) => encodePayload(bodies)));
}

/**
 * What a plan of a set made from the recorded records says (`merge`, `remove`, `release`): its count,
 * its diff against them, its changes and its body.
 */
export function plannedSet(kind: Kind, recorded: RecordsByKey, set: RecordSet) {
  const diff = diffRecords(recorded, 'snapshot', set.keys, bodiesOf(set));
  return {
    count: set.keys.length,
    diff,
    changes: () => analyseChanges(kind, recorded, set.keys, bodiesOf(set), diff),
    payload: encoded(set.bodies),
    set,
  };
}

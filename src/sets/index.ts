// Where the planned set comes from, when it is not the file alone. The service only takes complete
// sets, but the state store holds the exact set it last confirmed: these pure functions build the
// complete set a merge, a removal or a held-back removal means, from that set and the file's records.
// Records are canonical wire JSON by key, as the diff compares them; order is kept where it can be,
// so an unchanged record stays where it was in the body.
import { Bodies } from '../contract/json-array.js';

/** Records in the order they are sent. */
export interface RecordSet {
  readonly keys: readonly string[];
  readonly bodies: readonly string[];
}

/**
 * `--merge`: the file's records replace the recorded ones with the same key, where they stand; new
 * keys follow in the file's order; every other recorded record is kept as it is.
 */
export function mergeSets(recorded: ReadonlyMap<string, string>, file: RecordSet): RecordSet {
  const fromFile = new Map<string, string>();
  file.keys.forEach((key, i) => fromFile.set(key, file.bodies[i]!));
  const keys: string[] = [];
  const bodies: string[] = [];
  for (const [key, body] of recorded) {
    keys.push(key);
    bodies.push(fromFile.get(key) ?? body);
  }
  file.keys.forEach((key, i) => {
    if (recorded.has(key)) return;
    keys.push(key);
    bodies.push(file.bodies[i]!);
  });
  return { keys, bodies };
}

/** `upload remove`: the recorded set without the given keys; keys it does not hold are returned as unknown. */
export function removeKeys(recorded: ReadonlyMap<string, string>, remove: readonly string[]): RecordSet & { readonly unknown: readonly string[] } {
  const gone = new Set(remove);
  const unknown = [...gone].filter((key) => !recorded.has(key));
  const keys: string[] = [];
  const bodies: string[] = [];
  for (const [key, body] of recorded) {
    if (gone.has(key)) continue;
    keys.push(key);
    bodies.push(body);
  }
  return { keys, bodies, unknown };
}

/**
 * `--hold-removals`: the planned set plus every recorded record it leaves out, so nothing is deleted.
 * `planned` answers whether the plan holds a key (the validator's index, as in the diff). The held
 * records follow the planned ones, in the recorded order.
 */
export function holdRemovals(
  recorded: ReadonlyMap<string, string>,
  planned: RecordSet,
  holds: (key: string) => boolean = keySet(planned.keys),
): RecordSet & { readonly held: readonly string[] } {
  const keys = [...planned.keys];
  const bodies = [...planned.bodies];
  const held: string[] = [];
  for (const [key, body] of recorded) {
    if (holds(key)) continue;
    held.push(key);
    keys.push(key);
    bodies.push(body);
  }
  return { keys, bodies, held };
}

function keySet(keys: readonly string[]): (key: string) => boolean {
  const set = new Set(keys);
  return (key) => set.has(key);
}

/** A set's bodies as the diff, the change analysis and the payload hold them (built once per set). */
export function bodiesOf(set: RecordSet): Bodies {
  let bodies = built.get(set);
  if (!bodies) built.set(set, (bodies = Bodies.of(set.bodies)));
  return bodies;
}
const built = new WeakMap<RecordSet, Bodies>();

/** A file's planned records as a set (their text, one string each). */
export function setOf(keys: readonly string[], bodies: Bodies): RecordSet {
  return { keys, bodies: Array.from({ length: bodies.length }, (_, i) => bodies.json(i)) };
}

// A set's request body, encoded once when first asked for: a dry run without --payload-out never pays
// for it, and a real run encodes it once for sending, the hash and the record.
import type { Payload } from '../contract/json-array.js';

export function encoded(bodies: readonly string[]): () => Promise<Payload> {
  let payload: Promise<Payload> | undefined;
  return () => (payload ??= import('../contract/json-array.js').then(({ encodePayload }) => encodePayload(bodies)));
}

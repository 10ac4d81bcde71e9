// The snapshot reader finds each record by a one-byte search for `}` and checks the rest of the
// pattern after it (docs/performance.md, round 6). It must find exactly what the search for the whole
// `},{"<key>":"` found before, and refuse exactly what it refused, for any body: canonical or damaged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCanonical } from '../../src/diff/snapshot.js';

/** A key as read, or that reading it failed. */
function outcome(read: () => string): string {
  try {
    return `key ${read()}`;
  } catch {
    return 'unreadable';
  }
}

/** The reader as it was: one search for the whole pattern per record, then each key's end. */
function byPattern(body: Buffer, keyField: string): { starts: number[]; ends: number[]; keys: string[] } | 'declined' | 'refused' {
  if (body.length < 2 || body[0] !== 0x5b || body[body.length - 1] !== 0x5d) return 'refused';
  const found = { starts: [] as number[], ends: [] as number[], keys: [] as string[] };
  if (body.length === 2) return found;
  const open = Buffer.from(`{"${keyField}":"`);
  const between = Buffer.from(`},{"${keyField}":"`);
  if (body.indexOf('}{') !== -1) return 'declined';
  const last = body.length - 1;
  // (The reader before threw a RangeError on a body shorter than the first key's opening.)
  if (body.length < 1 + open.length || body.compare(open, 0, open.length, 1, 1 + open.length) !== 0) return 'declined';
  for (let start = 1; ;) {
    const next = body.indexOf(between, start);
    const end = next === -1 || next >= last ? last : next + 1;
    found.starts.push(start);
    found.ends.push(end);
    if (end === last) break;
    start = next + 2;
  }
  for (let r = 0; r < found.starts.length; r++) {
    let at = found.starts[r]! + open.length;
    for (; at < found.ends[r]!; at++) {
      if (body[at] === 0x22) break;
      if (body[at] === 0x5c) at++;
    }
    if (at >= found.ends[r]!) return 'refused';
    found.keys.push(
      outcome(() => {
        const raw = body.toString('utf8', found.starts[r]! + open.length, at);
        return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      }),
    );
  }
  return found;
}

describe('decodeCanonical, by a one-byte search', () => {
  // Values full of the pattern's own characters, so that `}` and `},{"employeeID":"` stand inside strings.
  const unit = fc.constantFrom('}', '{', ',', '"', '\\', ':', 'employeeID', 'E', 'é', ' ', '}{', '},{"employeeID":"');
  const text = fc.string({ unit, maxLength: 8 });
  const records = fc.uniqueArray(fc.record({ employeeID: text, name: text, hours: fc.option(fc.record({ open: text }), { nil: undefined }) }), {
    selector: (r) => r.employeeID,
    maxLength: 12,
  });
  const damage = fc.array(fc.record({ at: fc.nat(), byte: fc.constantFrom(0x7d, 0x7b, 0x2c, 0x22, 0x5c, 0x20, 0x45) }), { maxLength: 3 });

  it('finds the records and keys the whole pattern found, and refuses what it refused (property)', () => {
    fc.assert(
      fc.property(records, damage, fc.boolean(), (recs, hits, cut) => {
        let body = Buffer.from(JSON.stringify(recs));
        for (const { at, byte } of hits) body[at % body.length] = byte;
        if (cut && body.length > 3) body = Buffer.concat([body.subarray(0, body.length >> 1), Buffer.from(']')]);
        const expected = byPattern(body, 'employeeID');
        const decoded = decodeCanonical(body, 'employeeID');
        if (expected === 'refused') expect(decoded).toBeUndefined();
        else if (expected !== 'declined') {
          expect(decoded).toBeDefined();
          // A damaged escape in a key fails when the key is read, in both.
          expect(Array.from({ length: decoded!.size }, (_, r) => outcome(() => decoded!.keyOf(r)))).toEqual(expected.keys);
          expect(Array.from({ length: decoded!.size }, (_, r) => [decoded!.bodies.startOf(r), decoded!.bodies.endOf(r)])).toEqual(
            expected.starts.map((s, r) => [s, expected.ends[r]]),
          );
        }
        // A canonical body is always read back, record for record.
        if (hits.length === 0 && !cut) expect(new Map(decoded)).toEqual(new Map(recs.map((r) => [r.employeeID, JSON.stringify(r)])));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the same when records hold objects, searched for the whole pattern after many misses (property)', () => {
    const day = fc.record({ open: text, close: text });
    const card = fc.record({ nodeKey: text, hours: fc.dictionary(fc.constantFrom('1', '2', '3', '4', '5', '6', '7'), day) });
    fc.assert(
      fc.property(fc.uniqueArray(card, { selector: (r) => r.nodeKey, minLength: 40, maxLength: 120 }), damage, (cards, hits) => {
        const body = Buffer.from(JSON.stringify(cards));
        for (const { at, byte } of hits) body[at % body.length] = byte;
        const expected = byPattern(body, 'nodeKey');
        const decoded = decodeCanonical(body, 'nodeKey');
        if (expected === 'refused') expect(decoded).toBeUndefined();
        else if (expected !== 'declined') {
          expect(Array.from({ length: decoded!.size }, (_, r) => [decoded!.bodies.startOf(r), decoded!.bodies.endOf(r)])).toEqual(
            expected.starts.map((s, r) => [s, expected.ends[r]]),
          );
          expect(Array.from({ length: decoded!.size }, (_, r) => outcome(() => decoded!.keyOf(r)))).toEqual(expected.keys);
        }
        if (hits.length === 0) expect(decoded!.size).toBe(cards.length);
      }),
      { numRuns: 300 },
    );
  });
});

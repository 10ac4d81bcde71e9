// A snapshot's records by key, read in place. A snapshot is the exact body this tool sent, checked
// against its sha256 by the store, and written canonically (compact JSON, the key field first), so it
// is neither parsed nor decoded: the records are found in its bytes with one native search each, and
// only their offsets are kept (docs/performance.md, "Bodies as bytes"). The diff compares them, as
// bytes, with the planned records; a record's text is decoded only when something asks for it.
import { Bodies, grown } from '../contract/json-array.js';
import { closingQuote, RecordsByKey } from './records.js';

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]
const BRACE = 0x7d; // }
const QUOTE = 0x22;

/**
 * The records of a body this tool encoded, by key. Anything that is not a canonical body — whitespace,
 * another field first, a duplicate key — gives undefined.
 */
export function decodeCanonical(body: Buffer, keyField: string): RecordsByKey | undefined {
  if (body.length < 2 || body[0] !== OPEN || body[body.length - 1] !== CLOSE) return undefined;
  const found = findRecords(body, keyField);
  if (found === BROKEN) return undefined;
  if (found) return RecordsByKey.withKeyEnds(Bodies.adopt(body, found.starts, found.ends, found.count), keyField, found.keyEnds);
  const scanned = scanRecords(body, keyField);
  return scanned && RecordsByKey.index(Bodies.adopt(body, scanned.starts, scanned.ends, scanned.count), keyField);
}

interface Found {
  starts: Uint32Array<ArrayBuffer>;
  ends: Uint32Array<ArrayBuffer>;
  count: number;
}

class Ranges implements Found {
  starts = new Uint32Array(1024);
  ends = new Uint32Array(1024);
  count = 0;

  add(start: number, end: number): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
  }
}

/** findRecords() found the records, and a key that does not end inside its record. */
const BROKEN = 'broken';

/** Ranges with where each record's key ends (its closing quote), found in the same pass. */
class KeyedRanges extends Ranges {
  keyEnds = new Uint32Array(1024);

  addKeyed(start: number, end: number, keyEnd: number): void {
    if (this.count === this.keyEnds.length) this.keyEnds = grown(this.keyEnds);
    this.keyEnds[this.count] = keyEnd;
    this.add(start, end);
  }
}

/**
 * In compact JSON a raw quote only ever starts or ends a string, so `},{"<key>":"` can only stand
 * between two records. Each `}` is found by a native search for that one byte and the rest of the
 * pattern checked after it: a one-byte search costs a third of a search for the pattern, and a team
 * member holds one `}` (a store card with hours holds eight: it is searched for the pattern). Each key's closing quote is found as its record is. Undefined when the body
 * holds a `}{` (in a value; the byte scanner reads those, as before); BROKEN when a key does not end
 * inside its record (not a body this tool wrote).
 */
function findRecords(body: Buffer, keyField: string): KeyedRanges | typeof BROKEN | undefined {
  const ranges = new KeyedRanges();
  if (body.length === 2) return ranges;
  const open = Buffer.from(`{"${keyField}":"`);
  if (body.indexOf('}{') !== -1) return undefined;
  const last = body.length - 1;
  // The first record's start is checked here; every other one's is checked after the `},` it follows.
  if (body.length < 1 + open.length || body.compare(open, 0, open.length, 1, 1 + open.length) !== 0) return undefined;
  let start = 1;
  let keyEnd = closingQuote(body, start + open.length, last);
  // The search starts at the key, as the search for the whole pattern did: a key that does not end
  // before the next record starts is refused, not read past.
  const between = Buffer.from(`},{"${keyField}":"`);
  // Records with objects inside (a store card's hours) hold a `}` per day: after more misses than
  // records, the rest is searched for the whole pattern, as before.
  let misses = 0;
  let whole = false;
  for (let from = start + open.length; ;) {
    const brace = from >= last ? -1 : whole ? body.indexOf(between, from) : body.indexOf(BRACE, from);
    if (brace === -1) {
      if (keyEnd >= last) return BROKEN;
      ranges.addKeyed(start, last, keyEnd);
      return ranges;
    }
    if (!whole && (body[brace + 1] !== COMMA || !startsWith(body, brace + 2, open))) {
      from = brace + 1;
      whole = ++misses > ranges.count + 64;
      continue;
    }
    if (keyEnd > brace) return BROKEN;
    ranges.addKeyed(start, brace + 1, keyEnd);
    start = brace + 2;
    keyEnd = closingQuote(body, start + open.length, last);
    from = start + open.length;
  }
}

/** Whether `body` holds `bytes` at `at`. */
function startsWith(body: Buffer, at: number, bytes: Buffer): boolean {
  if (at + bytes.length > body.length) return false;
  for (let i = 0; i < bytes.length; i++) if (body[at + i] !== bytes[i]) return false;
  return true;
}

/** Anything findRecords() declines: every byte scanned. */
function scanRecords(body: Buffer, keyField: string): Found | undefined {
  const ranges = new Ranges();
  if (body.length === 2) return ranges;
  const prefix = Buffer.from(`{"${keyField}":"`);
  const last = body.length - 1;
  let at = 1;
  for (;;) {
    if (!body.subarray(at, at + prefix.length).equals(prefix)) return undefined;
    const end = objectEnd(body, at);
    if (end === -1) return undefined;
    ranges.add(at, end + 1);
    if (end + 1 === last) return ranges;
    if (body[end + 1] !== COMMA) return undefined;
    at = end + 2;
  }
}

/** The index of the `}` that closes the object opening at `start`, or -1. */
function objectEnd(body: Buffer, start: number): number {
  let depth = 0;
  for (let i = start; i < body.length; i++) {
    const c = body[i]!;
    if (c === QUOTE) i = closingQuote(body, i + 1, body.length);
    else if (c === 0x7b || c === OPEN) depth++;
    else if ((c === BRACE || c === CLOSE) && --depth === 0) return i;
  }
  return -1;
}

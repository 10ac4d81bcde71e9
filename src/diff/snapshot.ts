// A snapshot's records by key, read in place. A snapshot is the exact body this tool sent, checked
// against its sha256 by the store, and written canonically (compact JSON, the key field first), so it
// is neither parsed nor decoded: the records are found in its bytes with one native search each, and
// only their offsets are kept (docs/performance.md, "Bodies as bytes"). The diff compares them, as
// bytes, with the planned records; a record's text is decoded only when something asks for it.
import { Bodies, grown } from '../contract/json-array.js';
import { RecordsByKey } from './records.js';

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/**
 * The records of a body this tool encoded, by key. Anything that is not a canonical body — whitespace,
 * another field first, a duplicate key — gives undefined.
 */
export function decodeCanonical(body: Buffer, keyField: string): RecordsByKey | undefined {
  if (body.length < 2 || body[0] !== OPEN || body[body.length - 1] !== CLOSE) return undefined;
  const found = findRecords(body, keyField) ?? scanRecords(body, keyField);
  return found && RecordsByKey.index(Bodies.adopt(body, found.starts, found.ends, found.count), keyField);
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

/**
 * In compact JSON a raw quote only ever starts or ends a string, so `},{"<key>":"` can only stand
 * between two records: one native search per record instead of a scan of every byte. Undefined when
 * the body holds a `}{` (in a value; the byte scanner reads those, as before).
 */
function findRecords(body: Buffer, keyField: string): Found | undefined {
  const ranges = new Ranges();
  if (body.length === 2) return ranges;
  const open = Buffer.from(`{"${keyField}":"`);
  const between = Buffer.from(`},{"${keyField}":"`);
  if (body.indexOf('}{') !== -1) return undefined;
  const last = body.length - 1;
  // The first record's start is checked here; every other one's is part of the `between` it follows.
  if (body.compare(open, 0, open.length, 1, 1 + open.length) !== 0) return undefined;
  for (let start = 1; ;) {
    const next = body.indexOf(between, start);
    if (next === -1 || next >= last) {
      ranges.add(start, last);
      return ranges;
    }
    ranges.add(start, next + 1);
    start = next + 2;
  }
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
    if (c === 0x22) i = stringEnd(body, i);
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i;
  }
  return -1;
}

/** The index of the quote that ends the JSON string opening at `open`. */
function stringEnd(body: Buffer, open: number): number {
  for (let i = open + 1; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return body.length;
}

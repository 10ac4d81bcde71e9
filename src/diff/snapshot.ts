// A snapshot's records by key, read in place. A snapshot is the exact body this tool sent, checked
// against its sha256 by the store, and written canonically (compact JSON, the key field first), so it
// is not parsed record by record: the body is decoded once, the records are found with one native
// search each, and only their offsets and a key index are kept. A record's text is a slice of the
// decoded body made when it is asked for, so nothing of the baseline outlives the diff but a few
// strings and typed arrays (docs/performance.md, "Baseline and diff").
import { doubled, KeyIndex } from '../validate/key-index.js';

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/** Decoded text per part, cut between records, each far below V8's longest string (tests pass less). */
const PART_BYTES = 64 * 1024 * 1024;

/**
 * The records of a body this tool encoded: key → record JSON, as a read-only Map. Anything that is not
 * a canonical body — whitespace, another field first, a duplicate key — gives undefined.
 */
export function decodeCanonical(body: Buffer, keyField: string, partBytes = PART_BYTES): ReadonlyMap<string, string> | undefined {
  if (body.length < 2 || body[0] !== OPEN || body[body.length - 1] !== CLOSE) return undefined;
  if (body.length === 2) return new Map();
  return SnapshotRecords.read(body, keyField, partBytes) ?? decodeBytes(body, keyField);
}

class SnapshotRecords implements ReadonlyMap<string, string> {
  private readonly parts: string[] = [];
  /** Per record: its part, where it starts and ends in it, and where its key ends. */
  private part = new Int32Array(1024);
  private start = new Int32Array(1024);
  private end = new Int32Array(1024);
  private keyEnd = new Int32Array(1024);
  /** Keys written with an escape (a quote, a backslash, a control character), unescaped. */
  private readonly escaped = new Map<number, string>();
  private readonly index = new KeyIndex((record) => this.keyOf(record));
  size = 0;

  private constructor(private readonly keyOffset: number) {}

  /**
   * In compact JSON a raw quote only ever ends a string, so `},{"<key>":"` can only stand between two
   * records: one native search per record instead of a scan of every byte. Undefined when the body
   * holds anything this cannot tell apart (`}{` in a value, an escaped quote in a key): the byte
   * scanner reads those.
   */
  static read(body: Buffer, keyField: string, partBytes: number): SnapshotRecords | undefined {
    const open = `{"${keyField}":"`;
    const between = Buffer.from(`},${open}`);
    if (!body.subarray(1, 1 + open.length).equals(Buffer.from(open))) return undefined;
    const records = new SnapshotRecords(open.length);
    // The body without its brackets, cut into parts between records.
    for (let from = 1; from < body.length - 1;) {
      let to = body.length - 1;
      if (to - from > partBytes) {
        const cut = body.indexOf(between, from + partBytes);
        if (cut !== -1 && cut + 1 < to) to = cut + 1;
      }
      if (!records.add(body.toString('utf8', from, to), open)) return undefined;
      from = to + 1; // past the comma
    }
    return records;
  }

  /** One part: `{record},{record}…`. False when it is not what read() can take apart. */
  private add(text: string, open: string): boolean {
    const between = `},${open}`;
    const part = this.parts.push(text) - 1;
    let brace = text.indexOf('}{');
    for (let start = 0; ;) {
      if (!text.startsWith(open, start)) return false;
      const next = text.indexOf(between, start);
      const end = next === -1 ? text.length : next + 1;
      const keyStart = start + open.length;
      const keyEnd = text.indexOf('"', keyStart);
      if (keyEnd === -1 || keyEnd > end || text.charCodeAt(keyEnd - 1) === 0x5c) return false;
      // The next `}{` is looked up only once the search passes it: linear over the whole text.
      if (brace !== -1 && brace < start) brace = text.indexOf('}{', start);
      if (brace !== -1 && brace < end) return false;
      const record = this.size;
      this.place(record, part, start, end, keyEnd);
      const raw = text.slice(keyStart, keyEnd);
      if (raw.includes('\\')) this.escaped.set(record, JSON.parse(`"${raw}"`) as string);
      if (this.index.firstLine(this.keyOf(record), record) !== undefined) return false; // a key twice
      this.size++;
      if (next === -1) return true;
      start = next + 2;
    }
  }

  private place(record: number, part: number, start: number, end: number, keyEnd: number): void {
    if (record === this.start.length) {
      this.part = doubled(this.part);
      this.start = doubled(this.start);
      this.end = doubled(this.end);
      this.keyEnd = doubled(this.keyEnd);
    }
    this.part[record] = part;
    this.start[record] = start;
    this.end[record] = end;
    this.keyEnd[record] = keyEnd;
  }

  private keyOf(record: number): string {
    return this.escaped.get(record) ?? this.parts[this.part[record]!]!.slice(this.start[record]! + this.keyOffset, this.keyEnd[record]);
  }

  private textOf(record: number): string {
    return this.parts[this.part[record]!]!.slice(this.start[record], this.end[record]);
  }

  get(key: string): string | undefined {
    // The index gives the "line" a key was added on: here, its record's number.
    const record = this.index.lineOf(key);
    return record === undefined ? undefined : this.textOf(record);
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  *keys(): MapIterator<string> {
    for (let r = 0; r < this.size; r++) yield this.keyOf(r);
  }

  *values(): MapIterator<string> {
    for (let r = 0; r < this.size; r++) yield this.textOf(r);
  }

  *entries(): MapIterator<[string, string]> {
    for (let r = 0; r < this.size; r++) yield [this.keyOf(r), this.textOf(r)];
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(visit: (value: string, key: string, map: ReadonlyMap<string, string>) => void): void {
    for (let r = 0; r < this.size; r++) visit(this.textOf(r), this.keyOf(r), this);
  }
}

/** Anything read() declines: every byte scanned, records decoded one by one into a Map. */
function decodeBytes(body: Buffer, keyField: string): Map<string, string> | undefined {
  const prefix = Buffer.from(`{"${keyField}":"`);
  const records = new Map<string, string>();
  const last = body.length - 1;
  let at = 1;
  for (;;) {
    if (!body.subarray(at, at + prefix.length).equals(prefix)) return undefined;
    const start = at;
    const end = objectEnd(body, start);
    if (end === -1) return undefined;
    const keyOpen = start + prefix.length - 1;
    const key = JSON.parse(body.toString('utf8', keyOpen, stringEnd(body, keyOpen) + 1)) as string;
    if (records.has(key)) return undefined;
    records.set(key, body.toString('utf8', start, end + 1));
    if (end + 1 === last) return records;
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

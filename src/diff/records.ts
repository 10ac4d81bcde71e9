// A baseline's records by key, as bytes: the records of a snapshot (read in place) or of a --baseline
// file (planned like any upload), indexed by their key without making a string of it. Canonical JSON
// starts every record with `{"<keyField>":"`, so a key is the bytes up to the next unescaped quote; an
// ASCII key without escapes is hashed and compared byte by byte, anything else is decoded first. The
// diff then compares a planned record's bytes with the baseline's (docs/performance.md, "Bodies as bytes").
import { Bodies } from '../contract/json-array.js';
import { fnv1a } from '../validate/key-index.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class RecordsByKey implements ReadonlyMap<string, string> {
  /**
   * Open addressing, at most half full: per slot the hash of a key, then its record number + 1 (0:
   * empty). Built on the first lookup by key: a diff of records in the same order as the baseline's
   * never needs it (diffRecords walks both in step).
   */
  private table: Int32Array | undefined;
  private mask = 0;
  /** Per record: where its key's bytes end (its closing quote). */
  private readonly keyEnds: Uint32Array;
  private readonly keyOffset: number;

  private constructor(
    readonly bodies: Bodies,
    keyField: string,
    keyEnds?: Uint32Array,
  ) {
    this.keyOffset = keyField.length + 5; // {"<keyField>":"
    this.keyEnds = keyEnds ?? new Uint32Array(bodies.length);
  }

  /**
   * The records of `bodies` by key, where each key's end (its closing quote) is known already: the
   * snapshot reader finds them as it finds the records. Every key must end inside its record.
   */
  static withKeyEnds(bodies: Bodies, keyField: string, keyEnds: Uint32Array): RecordsByKey {
    return new RecordsByKey(bodies, keyField, keyEnds);
  }

  /**
   * The records of `bodies` by key; undefined when a key does not end inside its record. Every record
   * must start with `{"<keyField>":"`: planned bodies always do, and the snapshot reader checks it as it
   * finds them. Keys are unique in a body this tool wrote (the validator sees to it, and the store
   * checks a snapshot's sha256); were one given twice, the first would be found.
   */
  static index(bodies: Bodies, keyField: string): RecordsByKey | undefined {
    const records = new RecordsByKey(bodies, keyField);
    for (let r = 0; r < bodies.length; r++) {
      const end = bodies.endOf(r);
      const keyEnd = closingQuote(bodies.bufferOf(r), bodies.startOf(r) + records.keyOffset, end);
      if (keyEnd >= end) return undefined;
      records.keyEnds[r] = keyEnd;
    }
    return records;
  }

  /** No records (an empty baseline). */
  static empty(keyField: string): RecordsByKey {
    return RecordsByKey.index(new Bodies(), keyField)!;
  }

  get size(): number {
    return this.bodies.length;
  }

  /** The record number of `key`, or -1. */
  find(key: string): number {
    const h = fnv1a(key);
    const table = this.table ?? this.build();
    const { mask } = this;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const entry = table[2 * at + 1]!;
      if (entry === 0) return -1;
      if (table[2 * at] === h && this.keyIs(entry - 1, key)) return entry - 1;
    }
  }

  /** Whether record `r`'s key is `key`, without decoding it when both are plain ASCII. */
  keyIs(r: number, key: string): boolean {
    const buf = this.bodies.bufferOf(r);
    const start = this.bodies.startOf(r) + this.keyOffset;
    const end = this.keyEnds[r]!;
    // A key that is not plain ASCII (or needs escapes) has more bytes than characters: decoded to compare.
    if (end - start !== key.length) return this.keyOf(r) === key;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c >= 0x80 || c < 0x20 || c === QUOTE || c === BACKSLASH) return this.keyOf(r) === key;
      if (buf[start + i] !== c) return false;
    }
    return true;
  }

  /** Record `r`'s key. */
  keyOf(r: number): string {
    return keyText(this.bodies.bufferOf(r), this.bodies.startOf(r) + this.keyOffset, this.keyEnds[r]!);
  }

  /**
   * The record holding the key of record `i` of `other` (a plan's bodies, written canonically with the
   * same key field first), or -1. Record `guess` is compared first, as bytes: a changed record in a
   * file in the baseline's order is found without building the index by key.
   */
  locate(other: Bodies, i: number, guess: number): number {
    const buf = other.bufferOf(i);
    const start = other.startOf(i) + this.keyOffset;
    const end = closingQuote(buf, start, other.endOf(i));
    if (guess >= 0 && guess < this.size) {
      const theirs = this.bodies.startOf(guess) + this.keyOffset;
      const theirEnd = this.keyEnds[guess]!;
      if (theirEnd - theirs === end - start && buf.compare(this.bodies.bufferOf(guess), theirs, theirEnd, start, end) === 0) return guess;
    }
    return this.find(keyText(buf, start, end));
  }

  /** Record `r`'s canonical JSON. */
  json(r: number): string {
    return this.bodies.json(r);
  }

  /** Whether record `r` is byte for byte record `i` of `other` (a plan's bodies). */
  same(r: number, other: Bodies, i: number): boolean {
    return this.bodies.same(r, other, i);
  }

  get(key: string): string | undefined {
    const r = this.find(key);
    return r === -1 ? undefined : this.json(r);
  }

  has(key: string): boolean {
    return this.find(key) !== -1;
  }

  *keys(): MapIterator<string> {
    for (let r = 0; r < this.size; r++) yield this.keyOf(r);
  }

  *values(): MapIterator<string> {
    for (let r = 0; r < this.size; r++) yield this.json(r);
  }

  *entries(): MapIterator<[string, string]> {
    for (let r = 0; r < this.size; r++) yield [this.keyOf(r), this.json(r)];
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(visit: (value: string, key: string, map: ReadonlyMap<string, string>) => void): void {
    for (let r = 0; r < this.size; r++) visit(this.json(r), this.keyOf(r), this);
  }

  /** The index by key, built once: each key hashed from its bytes as fnv1a of its text. */
  private build(): Int32Array {
    let slots = 16;
    while (slots < this.size * 2) slots *= 2;
    this.mask = slots - 1;
    const table = new Int32Array(slots * 2);
    const { mask, bodies } = this;
    for (let r = 0; r < this.size; r++) {
      const buf = bodies.bufferOf(r);
      const end = this.keyEnds[r]!;
      // For ASCII without escapes, a key's bytes are its code units.
      let h = 0x811c9dc5;
      let plain = true;
      for (let at = bodies.startOf(r) + this.keyOffset; at < end; at++) {
        const c = buf[at]!;
        if (c >= 0x80 || c === BACKSLASH) plain = false;
        h = Math.imul(h ^ c, 0x01000193);
      }
      const key = plain ? undefined : this.keyOf(r);
      h = key === undefined ? h | 0 : fnv1a(key);
      for (let slot = h & mask; ; slot = (slot + 1) & mask) {
        const entry = table[2 * slot + 1]!;
        if (entry === 0) {
          table[2 * slot] = h;
          table[2 * slot + 1] = r + 1;
          break;
        }
        if (table[2 * slot] === h && this.keyIs(entry - 1, key ?? this.keyOf(r))) break; // a repeat: the first stays
      }
    }
    this.table = table;
    return table;
  }
}

/** The text of the JSON string whose bytes lie from `start` to its closing quote at `end`. */
function keyText(buf: Buffer, start: number, end: number): string {
  const raw = buf.toString('utf8', start, end);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/** Where the JSON string whose text starts at `from` ends (its closing quote), or `end` when it does not. */
export function closingQuote(buf: Buffer, from: number, end: number): number {
  for (let at = from; at < end; at++) {
    const c = buf[at]!;
    if (c === QUOTE) return at;
    if (c === BACKSLASH) at++;
  }
  return end;
}

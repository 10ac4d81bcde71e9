// Repeated keys among millions, without keeping them: the keys' hashes in a typed array, sorted once at
// the end. When two hashes are equal the keys themselves are compared, fetched from their owner through
// `recall`, so the list holds no strings and the garbage collector has nothing in it to trace.

/**
 * Duplicates among millions of keys, found all at once at the end. The plan loop only appends each
 * key's hash to a typed array; finish() sorts the hashes (a radix sort, carrying each hash's entry) and
 * compares the keys (through `recall`) only where hashes are equal. Sequential writes and one sort cost
 * half what probing a table of a million keys does in the plan loop (docs/performance.md, "Hot loop").
 */
export class KeyList {
  private hashes = new Int32Array(1 << 16);
  private entries = 0;
  /** After finish(), with `lookups`: the hashes in order, and the entry each belongs to. */
  private sorted: Sorted | undefined;
  /** A bit per hash value seen, when the owner wants to know which keys may repeat an earlier one. */
  private readonly seen: Uint8Array | undefined;
  private readonly hash: (key: string) => number;
  /** What two keys are compared as (their folded text), when not as written. */
  private readonly fold: ((key: string) => string) | undefined;
  private readonly lookups: boolean;

  /**
   * `recall(entry)` gives back an entry's key, or undefined for an entry added without one; with
   * `flagRepeats`, add() tells whether the key may repeat an earlier one (never wrong when it says no);
   * with `lookups`, has() answers after finish() (the sorted hashes are kept for it).
   */
  constructor(
    private readonly recall: (entry: number) => string | undefined,
    options: {
      readonly flagRepeats?: boolean;
      readonly lookups?: boolean;
      /** With `fold`: equal folded keys must hash alike (see foldHash). */
      readonly hash?: (key: string) => number;
      readonly fold?: (key: string) => string;
    } = {},
  ) {
    this.hash = options.hash ?? fnv1a;
    this.fold = options.fold;
    this.lookups = options.lookups === true;
    if (options.flagRepeats) this.seen = new Uint8Array(SEEN_BITS / 8);
  }

  get size(): number {
    return this.entries;
  }

  /** Adds the next entry (a key, or undefined for a record without one). */
  add(key: string | undefined): boolean {
    if (this.entries === this.hashes.length) this.hashes = doubled(this.hashes);
    const h = key === undefined ? 0 : this.hash(key);
    this.hashes[this.entries++] = h;
    if (!this.seen || key === undefined) return false;
    const bit = h & (SEEN_BITS - 1);
    const was = (this.seen[bit >>> 3]! >>> (bit & 7)) & 1;
    this.seen[bit >>> 3]! |= 1 << (bit & 7);
    return was === 1;
  }

  /** Each entry whose key equals an earlier entry's, with the first entry of that key, in entry order. */
  finish(): { readonly entry: number; readonly first: number }[] {
    const sorted = sortByHash(new Uint32Array(this.hashes.buffer, 0, this.entries));
    this.hashes = new Int32Array(0);
    if (this.lookups) this.sorted = sorted;
    const { hashes, entries } = sorted;
    const found: { entry: number; first: number }[] = [];
    for (let i = 0; i < hashes.length;) {
      let j = i + 1;
      while (j < hashes.length && hashes[j] === hashes[i]) j++;
      if (j - i > 1) {
        // Entries of one hash come in entry order (the sort is stable), so the first of each key is its earliest.
        const firsts = new Map<string, number>();
        for (let k = i; k < j; k++) {
          const entry = entries[k]!;
          const written = this.recall(entry);
          if (written === undefined) continue;
          const key = this.fold ? this.fold(written) : written;
          const first = firsts.get(key);
          if (first === undefined) firsts.set(key, entry);
          else found.push({ entry, first });
        }
      }
      i = j;
    }
    return found.sort((a, b) => a.entry - b.entry);
  }

  /** Whether `key` was added, exactly as written; only after finish(), and with `lookups`. */
  has(key: string): boolean {
    if (!this.sorted) throw new Error('KeyList.has needs lookups and finish()');
    const { hashes, entries } = this.sorted;
    const h = this.hash(key) >>> 0;
    let lo = 0;
    let hi = hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hashes[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < hashes.length && hashes[k] === h; k++) if (this.recall(entries[k]!) === key) return true;
    return false;
  }
}

interface Sorted {
  readonly hashes: Uint32Array<ArrayBuffer>;
  readonly entries: Int32Array<ArrayBuffer>;
}

/**
 * The hashes in ascending order, each with the entry (its index in `hashes`) it came from: a stable
 * radix sort in three passes of 11 bits, a third of the time of sorting packed doubles natively for a
 * million hashes, and next to nothing for ten (its table of counts is 2,048 long).
 */
function sortByHash(hashes: Uint32Array<ArrayBuffer>): Sorted {
  const n = hashes.length;
  let from: Sorted = { hashes, entries: new Int32Array(n) };
  for (let i = 0; i < n; i++) from.entries[i] = i;
  let to: Sorted = { hashes: new Uint32Array(n), entries: new Int32Array(n) };
  const starts = new Int32Array(DIGITS + 1);
  for (const shift of [0, 11, 22]) {
    starts.fill(0);
    for (let i = 0; i < n; i++) starts[((from.hashes[i]! >>> shift) & (DIGITS - 1)) + 1]!++;
    for (let d = 1; d < DIGITS; d++) starts[d]! += starts[d - 1]!;
    for (let i = 0; i < n; i++) {
      const at = starts[(from.hashes[i]! >>> shift) & (DIGITS - 1)]!++;
      to.hashes[at] = from.hashes[i]!;
      to.entries[at] = from.entries[i]!;
    }
    [from, to] = [to, from];
  }
  return from;
}

const DIGITS = 1 << 11;

/** Bits of add()'s repeat filter: 2 MB, so about one key in 16 is flagged at a million. */
const SEEN_BITS = 1 << 24;

/** Which run a numbered item belongs to, given each run's first number in ascending order (`firsts[0]` ≤ n). */
export function runOf(firsts: readonly number[], n: number): number {
  let lo = 0;
  for (let hi = firsts.length - 1; lo < hi;) {
    const mid = (lo + hi + 1) >>> 1;
    if (firsts[mid]! <= n) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A copy of `a` twice as long (a growable list of ints over a typed array). */
export function doubled(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** FNV-1a over UTF-16 code units, as a signed 32-bit integer (as the Int32Array holds it). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

const NOT_ASCII = /[\u0080-\uffff]/;

/**
 * A key as two keys are compared: NFKC (full-width `ＪＰ－００１` is `JP-001`, `ﬁ` is `fi`) and lower
 * case, so look-alikes are one key. ASCII needs only the lower case.
 */
export function foldKey(key: string): string {
  return NOT_ASCII.test(key) ? key.normalize('NFKC').toLowerCase() : key.toLowerCase();
}

/**
 * Below U+0300, each code unit as foldKey makes it: its lower case where NFKC keeps it and lower case
 * is one unit (`Ø` is `ø`), else -1 (`²`, `İ`): the whole key is folded then. No character below
 * U+0300 combines with another, so such a key folds unit by unit. Made on the first key beyond ASCII.
 */
let latinFold: Int32Array | undefined;

function latinFolds(): Int32Array {
  if (latinFold) return latinFold;
  latinFold = new Int32Array(0x300);
  for (let c = 0; c < 0x300; c++) {
    const ch = String.fromCharCode(c);
    const lower = ch.toLowerCase();
    latinFold[c] = ch.normalize('NFKC') === ch && lower.length === 1 ? lower.charCodeAt(0) : -1;
  }
  return latinFold;
}

/**
 * The hash of a folded key (foldHash's): FNV-1a over its code units taken two at a time (one
 * multiplication per pair, not per unit), then mixed (murmur3's finaliser) so that the low bits, which
 * add()'s repeat filter uses, depend on every unit. Not fnv1a: nothing outside this file compares it.
 */
export function foldedHash(s: string): number {
  let h = 0x811c9dc5;
  const n = s.length;
  let i = 0;
  for (; i + 1 < n; i += 2) h = Math.imul(h ^ (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16)), 0x01000193);
  if (i < n) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mixed(h);
}

function mixed(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * foldedHash of foldKey(key); a key in ASCII and Latin letters is folded as it is hashed, two units at
 * a time, with no string made (the common case: `søren.müller@exämple.se` too). A hash per unit was
 * 0.4 s of a million keys and emails; by pairs 0.3 s (issue 44).
 */
export function foldHash(key: string): number {
  let h = 0x811c9dc5;
  const n = key.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    let c = key.charCodeAt(i);
    let d = key.charCodeAt(i + 1);
    if ((c | d) <= 0x7f) {
      if (c >= 65 && c <= 90) c += 32;
      if (d >= 65 && d <= 90) d += 32;
    } else {
      c = c < 0x300 ? latinFolds()[c]! : -1;
      d = d < 0x300 ? latinFolds()[d]! : -1;
      if (c === -1 || d === -1) return foldedHash(foldKey(key));
    }
    h = Math.imul(h ^ (c | (d << 16)), 0x01000193);
  }
  if (i < n) {
    let c = key.charCodeAt(i);
    if (c <= 0x7f) c = c >= 65 && c <= 90 ? c + 32 : c;
    else {
      c = c < 0x300 ? latinFolds()[c]! : -1;
      if (c === -1) return foldedHash(foldKey(key));
    }
    h = Math.imul(h ^ c, 0x01000193);
  }
  return mixed(h);
}

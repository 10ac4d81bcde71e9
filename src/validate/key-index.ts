// "Where did I first see this key?" for millions of keys, without keeping them: open addressing over
// one typed array of (hash, entry) pairs, and the line of each entry in another. When two hashes are
// equal the keys themselves are compared, fetched from their owner through `recall` (the validator
// keeps each key; an email it finds in the record's body), so the index holds no strings and the
// garbage collector has nothing in it to trace. Half the time of keeping the strings in the index
// (docs/performance.md, "Hot loop").

export class KeyIndex {
  private mask = (1 << 16) - 1;
  /** Per slot: the hash of its key, then its entry number + 1 (0 = an empty slot). */
  private table = new Int32Array((this.mask + 1) * 2);
  /** Per entry: the line its key was first seen on. */
  private lines = new Int32Array(1 << 16);
  private entries = 0;

  /**
   * `recall(entry)` gives back the key of an entry (entries are numbered from 0 as keys are added);
   * `hash` is for tests, which make collisions common.
   */
  constructor(
    private readonly recall: (entry: number) => string,
    private readonly hash: (key: string) => number = fnv1a,
  ) {}

  /** How many distinct keys were added; the next one added is entry `size`. */
  get size(): number {
    return this.entries;
  }

  /** The line `key` was first seen on; or undefined, and then `key` is added as seen on `line`. */
  firstLine(key: string, line: number): number | undefined {
    const h = this.hash(key);
    const { table } = this;
    for (let at = h & this.mask; ; at = (at + 1) & this.mask) {
      const entry = table[2 * at + 1]!;
      if (entry === 0) {
        this.add(at, h, line);
        return undefined;
      }
      if (table[2 * at] === h && this.recall(entry - 1) === key) return this.lines[entry - 1];
    }
  }

  /** The line `key` was first seen on, or undefined when it has not been added. */
  lineOf(key: string): number | undefined {
    const h = this.hash(key);
    const { table } = this;
    for (let at = h & this.mask; ; at = (at + 1) & this.mask) {
      const entry = table[2 * at + 1]!;
      if (entry === 0) return undefined;
      if (table[2 * at] === h && this.recall(entry - 1) === key) return this.lines[entry - 1];
    }
  }

  /** Whether `key` has been added. */
  has(key: string): boolean {
    return this.lineOf(key) !== undefined;
  }

  private add(at: number, h: number, line: number): void {
    if (this.entries === this.lines.length) {
      const lines = new Int32Array(this.lines.length * 2);
      lines.set(this.lines);
      this.lines = lines;
    }
    this.lines[this.entries] = line;
    this.table[2 * at] = h;
    this.table[2 * at + 1] = ++this.entries;
    if (this.entries * 2 > this.mask) this.grow();
  }

  /** Doubles the table (kept at most half full, so probe runs stay short). */
  private grow(): void {
    const old = this.table;
    this.mask = this.mask * 2 + 1;
    const table = new Int32Array((this.mask + 1) * 2);
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let at = old[i]! & this.mask;
      while (table[2 * at + 1] !== 0) at = (at + 1) & this.mask;
      table[2 * at] = old[i]!;
      table[2 * at + 1] = old[i + 1]!;
    }
    this.table = table;
  }
}

/** FNV-1a over UTF-16 code units, as a signed 32-bit integer (as the Int32Array holds it). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

// "Where did I first see this key?" for millions of keys, cheaper than a Map<string, number>:
// open addressing over typed arrays holding a hash and an entry number, with the keys and their
// lines in plain arrays. Strings are compared only when the hashes match, and the garbage collector
// sees two flat arrays instead of a million-entry hash table.

export class KeyIndex {
  private mask = (1 << 16) - 1;
  /** Entry number + 1 per slot (0 = empty), and the hash of that entry's key. */
  private slots = new Int32Array(this.mask + 1);
  private hashes = new Int32Array(this.mask + 1);
  private readonly keys: string[] = [];
  private readonly lines: number[] = [];

  /** The line `key` was first seen on; or undefined, and then `key` is remembered as seen on `line`. */
  firstLine(key: string, line: number): number | undefined {
    const h = hash(key);
    for (let at = h & this.mask; ; at = (at + 1) & this.mask) {
      const entry = this.slots[at]!;
      if (entry === 0) {
        this.keys.push(key);
        this.lines.push(line);
        this.slots[at] = this.keys.length;
        this.hashes[at] = h;
        if (this.keys.length * 2 > this.mask) this.grow();
        return undefined;
      }
      if (this.hashes[at] === h && this.keys[entry - 1] === key) return this.lines[entry - 1];
    }
  }

  /** Whether `key` has been seen. */
  has(key: string): boolean {
    const h = hash(key);
    for (let at = h & this.mask; ; at = (at + 1) & this.mask) {
      const entry = this.slots[at]!;
      if (entry === 0) return false;
      if (this.hashes[at] === h && this.keys[entry - 1] === key) return true;
    }
  }

  /** Doubles the table (kept at most half full, so probe runs stay short). */
  private grow(): void {
    const { slots, hashes } = this;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array(this.mask + 1);
    this.hashes = new Int32Array(this.mask + 1);
    for (let i = 0; i < slots.length; i++) {
      if (slots[i] === 0) continue;
      let at = hashes[i]! & this.mask;
      while (this.slots[at] !== 0) at = (at + 1) & this.mask;
      this.slots[at] = slots[i]!;
      this.hashes[at] = hashes[i]!;
    }
  }
}

/** FNV-1a over UTF-16 code units, as a signed 32-bit integer. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0; // as the Int32Array holds it
}

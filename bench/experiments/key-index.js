// EXPERIMENT: first-line-of-each-key without a JS Map: open addressing on typed arrays, holding only
// record indexes (the strings already live in keys[]); string comparison only on a hash match.
// Usage: node bench/experiments/key-index.js  (compares with Map on 1M ids and emails)
export class KeyIndex {
  constructor(bits = 16) {
    this.mask = (1 << bits) - 1;
    this.slots = new Int32Array(1 << bits).fill(-1); // record index + 1 stored as index
    this.hashes = new Int32Array(1 << bits);
    this.size = 0;
    this.keys = [];
    this.lines = [];
  }
  static hash(s) {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h | 1;
  }
  /** The line where `key` was first seen, or undefined (and `key` is remembered at `line`). */
  firstLine(key, line) {
    const h = KeyIndex.hash(key);
    for (let at = h & this.mask; ; at = (at + 1) & this.mask) {
      const slot = this.slots[at];
      if (slot === -1) {
        this.slots[at] = this.keys.length;
        this.hashes[at] = h;
        this.keys.push(key);
        this.lines.push(line);
        if (++this.size * 2 > this.mask) this.grow();
        return undefined;
      }
      if (this.hashes[at] === h && this.keys[slot] === key) return this.lines[slot];
    }
  }
  grow() {
    const old = this.slots;
    const oldHashes = this.hashes;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array(this.mask + 1).fill(-1);
    this.hashes = new Int32Array(this.mask + 1);
    for (let i = 0; i < old.length; i++) {
      if (old[i] === -1) continue;
      let at = oldHashes[i] & this.mask;
      while (this.slots[at] !== -1) at = (at + 1) & this.mask;
      this.slots[at] = old[i];
      this.hashes[at] = oldHashes[i];
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const N = 1_000_000;
  const ids = Array.from({ length: N }, (_, i) => `E${String(i).padStart(8, '0')}`);
  const emails = Array.from({ length: N }, (_, i) => `francois.obrien.${i}@corp.example.net`);
  for (let round = 0; round < 3; round++) {
    let t = performance.now();
    const a = new Map(); const b = new Map();
    for (let i = 0; i < N; i++) { if (a.get(ids[i]) === undefined) a.set(ids[i], i); if (b.get(emails[i]) === undefined) b.set(emails[i], i); }
    const mapMs = performance.now() - t;
    t = performance.now();
    const x = new KeyIndex(); const y = new KeyIndex();
    for (let i = 0; i < N; i++) { x.firstLine(ids[i], i); y.firstLine(emails[i], i); }
    const idxMs = performance.now() - t;
    console.log(`2 × 1M keys: Map ${mapMs.toFixed(0)} ms, KeyIndex ${idxMs.toFixed(0)} ms; duplicate found: ${x.firstLine(ids[5], 0) === 5}`);
  }
}

// The key list finds exactly the repeats a Map of first entries would, through growth and collisions;
// it keeps no keys itself, so equal hashes are told apart by the keys its owner recalls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyList } from '../../src/validate/key-index.js';

describe('KeyList', () => {
  /** What finish() must give: each later entry of a key with the first entry of that key. */
  function repeatsOf(keys: readonly (string | undefined)[]): { entry: number; first: number }[] {
    const first = new Map<string, number>();
    const out: { entry: number; first: number }[] = [];
    keys.forEach((key, entry) => {
      if (key === undefined) return;
      const at = first.get(key);
      if (at === undefined) first.set(key, entry);
      else out.push({ entry, first: at });
    });
    return out;
  }

  const keyArb = fc.option(fc.string({ unit: fc.constantFrom('a', 'B', '1', 'é', '😀'), maxLength: 3 }), { nil: undefined });

  it('finds every repeat a Map would, with its first entry, however hashes collide', () => {
    for (const hash of [undefined, (key: string) => key.length, () => 7]) {
      fc.assert(
        fc.property(fc.array(keyArb, { maxLength: 200 }), (keys) => {
          const list = new KeyList((entry) => keys[entry], { flagRepeats: true, lookups: true, ...(hash ? { hash } : {}) });
          const seen = new Set<string>();
          const missed: string[] = [];
          for (const key of keys) {
            const flagged = list.add(key);
            // The filter may flag a new key, never miss a repeat.
            if (key !== undefined && seen.has(key) && !flagged) missed.push(key);
            if (key !== undefined) seen.add(key);
          }
          // Collected, then asserted once: an assertion per key was most of this test's time.
          expect(missed).toEqual([]);
          expect(list.size).toBe(keys.length);
          expect(list.finish()).toEqual(repeatsOf(keys));
          expect([...seen].filter((key) => !list.has(key))).toEqual([]);
          expect(list.has('not a key')).toBe(false);
        }),
        { numRuns: 200 },
      );
    }
  });

  it('finds the one repeat among 2.2 million entries', () => {
    const n = 2_200_000;
    const key = (i: number) => (i === n - 1 ? 'K17' : `K${i}`);
    const list = new KeyList((entry) => key(entry), { lookups: true });
    for (let i = 0; i < n; i++) list.add(key(i));
    expect(list.finish()).toEqual([{ entry: n - 1, first: 17 }]);
    expect(list.has('K2199998')).toBe(true);
    expect(list.has('K2200000')).toBe(false);
  });
});

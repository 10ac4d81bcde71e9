// The uniqueness index answers exactly as a Map of first lines would, through growth and collisions;
// it keeps no keys itself, so equal hashes are told apart by the keys its owner recalls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyIndex, KeyList } from '../../src/validate/key-index.js';

/** An index over a list the test owns, as the validator owns its keys. */
function indexOf(hash?: (key: string) => number): { index: KeyIndex; firstLine: (key: string, line: number) => number | undefined } {
  const added: string[] = [];
  const index = new KeyIndex((entry) => added[entry]!, hash);
  return {
    index,
    firstLine: (key, line) => {
      const first = index.firstLine(key, line);
      if (first === undefined) added.push(key);
      return first;
    },
  };
}

describe('KeyIndex', () => {
  it('gives the first line of every key seen before, like a Map', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'B', '1', 'é', '😀'), maxLength: 3 }), { maxLength: 300 }), (keys) => {
        const { index, firstLine } = indexOf();
        const map = new Map<string, number>();
        keys.forEach((key, line) => {
          expect(firstLine(key, line)).toBe(map.get(key));
          if (!map.has(key)) map.set(key, line);
        });
        expect(index.size).toBe(map.size);
        for (const key of keys) expect(index.has(key)).toBe(true);
        expect(index.has('not a key')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('tells keys with equal hashes apart by the keys themselves', () => {
    // A hash of the length alone: every key of one length collides with every other.
    const { index, firstLine } = indexOf((key) => key.length);
    const wrong: string[] = [];
    for (let i = 0; i < 2_000; i++) if (firstLine(`K${i}`, i + 2) !== undefined) wrong.push(`K${i}`);
    for (let i = 0; i < 2_000; i += 3) if (firstLine(`K${i}`, 0) !== i + 2) wrong.push(`K${i} again`);
    expect(wrong).toEqual([]);
    expect(index.has('K1999')).toBe(true);
    expect(index.has('K2000')).toBe(false);
  });

  it('keeps every key through many doublings of the table', () => {
    const { index, firstLine } = indexOf();
    const wrong: number[] = [];
    for (let i = 0; i < 300_000; i++) if (firstLine(`E${i}`, i + 2) !== undefined) wrong.push(i);
    for (let i = 0; i < 300_000; i += 7) if (firstLine(`E${i}`, 0) !== i + 2) wrong.push(i);
    expect(wrong).toEqual([]);
    expect(index.size).toBe(300_000);
  });
});

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
          for (const key of keys) {
            const flagged = list.add(key);
            // The filter may flag a new key, never miss a repeat.
            if (key !== undefined && seen.has(key)) expect(flagged).toBe(true);
            if (key !== undefined) seen.add(key);
          }
          expect(list.size).toBe(keys.length);
          expect(list.finish()).toEqual(repeatsOf(keys));
          for (const key of seen) expect(list.has(key)).toBe(true);
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

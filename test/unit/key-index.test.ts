// The uniqueness index answers exactly as a Map of first lines would, through growth and collisions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../src/validate/key-index.js';

describe('KeyIndex', () => {
  it('gives the first line of every key seen before, like a Map', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'B', '1', 'é', '😀'), maxLength: 3 }), { maxLength: 300 }), (keys) => {
        const index = new KeyIndex();
        const map = new Map<string, number>();
        keys.forEach((key, line) => {
          expect(index.firstLine(key, line)).toBe(map.get(key));
          if (!map.has(key)) map.set(key, line);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every key through many doublings of the table', () => {
    const index = new KeyIndex();
    const wrong: number[] = [];
    for (let i = 0; i < 300_000; i++) if (index.firstLine(`E${i}`, i + 2) !== undefined) wrong.push(i);
    for (let i = 0; i < 300_000; i += 7) if (index.firstLine(`E${i}`, 0) !== i + 2) wrong.push(i);
    expect(wrong).toEqual([]);
  });
});

// Counts are written as toLocaleString('en-US') writes them, without loading ICU's number formatting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thousands } from '../../src/numbers.js';

describe('thousands', () => {
  it('writes every integer as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.integer({ min: 0, max: 2_000_000_000 }), fc.constantFrom(0, 999, 1000, 999_999, 1_000_000)), (n) => {
        expect(thousands(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
  });
});

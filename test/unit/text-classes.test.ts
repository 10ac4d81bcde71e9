// plainClasses (src/validate/text.ts) answers, in one pass, what three tests of a plain record's key or
// email answered each: a unit beyond ASCII, one NFKC rewrites, one that needs a skeleton.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { needsSkeleton } from '../../src/validate/lookalike.js';
import { BEYOND_ASCII, COMPATIBLE, COMPATIBLE_BELOW_0300, NEEDS_SKELETON, plainClasses } from '../../src/validate/text.js';

/** The tests it stands for, as the validator ran them. */
function byTheTests(text: string): number {
  return (/[\u0080-\uffff]/.test(text) ? BEYOND_ASCII : 0) | (COMPATIBLE_BELOW_0300.test(text) ? COMPATIBLE : 0) | (needsSkeleton(text) ? NEEDS_SKELETON : 0);
}

describe('plainClasses', () => {
  it('agrees with the three tests on every unit below U+0300', () => {
    for (let c = 0; c < 0x300; c++) expect([c, plainClasses(String.fromCharCode(c))]).toEqual([c, byTheTests(String.fromCharCode(c))]);
  });

  it('agrees with them on any text of such units', () => {
    const unit = fc.integer({ min: 0, max: 0x2ff }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => plainClasses(units.join('')) === byTheTests(units.join(''))),
      { numRuns: 2000 },
    );
  });

  it('says all three of a unit from U+0300 up (no plain record holds one)', () => {
    expect(plainClasses('e\u0301')).toBe(BEYOND_ASCII | COMPATIBLE | NEEDS_SKELETON);
  });
});

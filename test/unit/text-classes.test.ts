// plainClasses (src/validate/text.ts) answers, in one pass, what three tests of a plain record's key or
// email answered each: a unit beyond ASCII, one NFKC rewrites, one that needs a skeleton.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/pipeline/plan.js';
import { needsSkeleton } from '../../src/validate/lookalike.js';
import { BEYOND_ASCII, BEYOND_TABLE, COMPATIBLE, COMPATIBLE_BELOW_0300, NEEDS_SKELETON, plainClasses } from '../../src/validate/text.js';

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

  it('sends a value with a unit from U+0300 up (a --map value table may make one) to the tests themselves', () => {
    expect(plainClasses('Trần')).toBe(BEYOND_ASCII | BEYOND_TABLE);
    expect(plainClasses('Store\u093e') & BEYOND_TABLE).toBe(BEYOND_TABLE);
  });
});

describe('a plain record whose value a value table wrote beyond U+0300', () => {
  // The reviewer's cases: `Trần1` and `Trầnl` need no skeleton (ầ is a Latin letter with marks), so
  // they are two keys told apart as written, as they were before plainClasses.
  it('is judged by the tests themselves: two keys that need no skeleton are not look-alikes', async () => {
    const text = 'employeeID,email,name\nA,a@x.example,Ann\nB,b@x.example,Bo\n';
    const plan = await buildPlan({
      kind: 'team-members',
      path: '-',
      read: { source: 't.csv', format: 'csv' },
      mapping: { values: { employeeID: { A: 'Trần1', B: 'Trầnl' } } },
      stdin: () => Readable.from([Buffer.from(text)]),
    });
    expect(plan.issues.map((i) => i.code)).toEqual([]);
    expect(plan.keys).toEqual(['Trần1', 'Trầnl']);
  });
});

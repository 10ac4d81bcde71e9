// Property: wireJson writes exactly what JSON.stringify writes for a record in contract order, whatever
// its strings hold (quotes, backslashes, control characters, lone or paired surrogates), with numbers,
// nulls, the hours object, and fields left out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELDS } from '../../src/contract/fields.js';
import { wireJson } from '../../src/contract/wire-json.js';

/** Any UTF-16 code unit, so lone surrogates and control characters come up often. */
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 });
const value = fc.oneof(
  { weight: 4, arbitrary: anyText },
  { weight: 4, arbitrary: fc.constantFrom('E1', 'ann@example.com', 'Zoë 李 😀', 'say "hi"', 'back\\slash', 'tab\there', '\ud800', '\udc00x') },
  { weight: 1, arbitrary: fc.constantFrom(null, 12, 1.5, -0, 0, undefined) },
  { weight: 1, arbitrary: fc.constant({ '0': { since: 6, to: 30 }, '6': { since: 23.5, to: 26.5 } }) },
);

describe('wireJson', () => {
  it.each(['team-members', 'store-cards'] as const)('%s: the same text as JSON.stringify', (kind) => {
    fc.assert(
      fc.property(fc.array(value, { minLength: FIELDS[kind].length, maxLength: FIELDS[kind].length }), (values) => {
        const record: Record<string, unknown> = {};
        FIELDS[kind].forEach((field, i) => {
          record[field] = values[i];
        });
        expect(wireJson(kind, record)).toBe(JSON.stringify(record));
      }),
      { numRuns: 3000 },
    );
  });
});

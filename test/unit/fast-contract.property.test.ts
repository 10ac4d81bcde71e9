// Property: the fast accept check (src/contract/fast.ts) never says "valid" where zod would not, and
// where it does, zod's output is the very record (same values, same key order, so the same JSON).
// Candidates are mostly valid and heavy on edges: hour bounds 6/23/8/30, since == to, fractions,
// odd emails, empty and whitespace strings, null against missing, extra keys, keys out of order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCEPTS, fastIsEmail, LATIN_LETTERS } from '../../src/contract/fast.js';
import { isEmail, SCHEMAS } from '../../src/contract/schemas.js';
import type { Kind } from '../../src/contract/kinds.js';

const MISSING = Symbol('missing');

const emailChar = fc.constantFrom(
  'a',
  'Z',
  '9',
  '.',
  '.',
  '-',
  '_',
  '+',
  '@',
  ' ',
  '"',
  '(',
  ',',
  '\\',
  'é',
  'ß',
  '\t',
  '\u00a0',
  '\u2003',
  '李',
  '𝒜',
  '\ud835',
  '\u0345',
  'Ⅻ',
  '١',
  'ſ',
  '\u212a',
);
const label = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('example', 'corp', 'x', 'a1', 'b-c', 'exämple', 'xn--bcher-kva', '9') },
  { weight: 1, arbitrary: fc.constantFrom('', '-a', 'a-', 'a_b', 'A B', 'ü-', '١٢', 'Ⅻ', 'a\u0345', '𝒜b', 'ſ', '\u212a') },
);
const tld = fc.constantFrom(
  'com',
  'net',
  'se',
  'c',
  'C',
  'COM',
  'co1',
  'xn--p1ai',
  'XN--P1AI',
  'xn--',
  'de-',
  'рф',
  'é',
  '',
  'Ⅻx',
  '𝒜𝒜',
  'a\u0345',
  'ſe',
  'xn--ſ',
  'ab١',
);
const local = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('ann', 'francois.obrien.1', 'a+b', 'o_brien', 'björn', 'A.B-c') },
  { weight: 3, arbitrary: fc.array(emailChar, { maxLength: 6 }).map((cs) => cs.join('')) },
);
const email = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('ann@example.com', 'francois.obrien.1@corp.example.net', 'A.B-c@Sub.Example.SE', 'björn@exämple.se', 'x@xn--bcher-kva.xn--p1ai'),
  },
  { weight: 6, arbitrary: fc.tuple(local, fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([l, ls, t]) => `${l}@${ls.join('.')}.${t}`) },
  { weight: 1, arbitrary: fc.array(emailChar, { maxLength: 12 }).map((cs) => cs.join('')) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', ' ', 'a@b.co', `${'a'.repeat(240)}@example.com`, `${'a'.repeat(250)}@ex.com`, 'a@b..com', 'a..b@c.de', '.a@b.de', 'a.@b.de'),
  },
);

const text = fc.oneof(
  { weight: 24, arbitrary: fc.constantFrom('E1', 'Ann Lee', 'STORE-1', 'x', 'Zoë', '1.23E+05', '=1', "O'Brien, Ann") },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\t', '\u00a0', '\n', ' a ', '\u2003x') },
  { weight: 1, arbitrary: fc.constantFrom(12, 0, Number.NaN, true, [], {}) },
);
const nullableText = fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: fc.constant(null) });

const hourValue = (edges: number[]) =>
  fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: fc.double({ min: 0, max: 40, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Infinity, -Infinity, '9', null, -0) },
  );
const since = hourValue([6, 6.5, 5.99, 23, 23.01, 9, 12, 22]);
const to = hourValue([8, 7.99, 30, 30.01, 22, 12, 26.5, 23]);
const day = fc.oneof(
  { weight: 60, arbitrary: fc.constantFrom([6, 30], [23, 26.5], [9, 22], [6, 8], [22.5, 23], [7.25, 23.75]).map(([s, t]) => ({ since: s, to: t })) },
  { weight: 30, arbitrary: fc.tuple(since, to).map(([s, t]) => ({ since: s, to: t })) },
  { weight: 2, arbitrary: since.map((s) => ({ since: s, to: s })) },
  { weight: 1, arbitrary: fc.tuple(since, to).map(([s, t]) => ({ to: t, since: s })) },
  { weight: 1, arbitrary: fc.constantFrom({ since: 9 }, { since: 9, to: 22, open: true }, null, [], 'closed') },
);
const dayKey = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom('0', '1', '2', '3', '4', '5', '6') },
  { weight: 1, arbitrary: fc.constantFrom('7', 'mon', ' 1', '01', '') },
);
const period = fc.oneof(
  { weight: 16, arbitrary: fc.dictionary(dayKey, day, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], 'mon 9-5', undefined) },
);

/** A record with the fields in wire order, some missing, some extra, some out of order. */
function record(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(([k, a]) =>
    fc.oneof({ weight: 40, arbitrary: a }, { weight: 1, arbitrary: fc.constant(MISSING) }).map((v) => [k, v] as const),
  );
  return fc
    .tuple(
      fc.tuple(...entries),
      fc.oneof({ weight: 20, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('extra', 'id', 'opentToGuestsPeriod') }),
      fc.boolean(),
      fc.nat(),
    )
    .map(([pairs, extra, shuffle, seed]) => {
      const kept = pairs.filter(([, v]) => v !== MISSING);
      if (shuffle && kept.length > 1 && seed % 8 === 0) kept.push(kept.shift()!);
      const out: Record<string, unknown> = {};
      for (const [k, v] of kept) out[k] = v;
      if (extra) out[extra] = 'x';
      return out;
    });
}

const CANDIDATES: Record<Kind, fc.Arbitrary<Record<string, unknown>>> = {
  'team-members': record({ employeeID: text, email, name: text, roleCode: nullableText, parentKey: nullableText }),
  'store-cards': record({
    nodeKey: text,
    email,
    storeConceptCode: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(12, 0, 1.5, -3, null) },
      { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Infinity, '12', '') },
    ),
    opentToGuestsPeriod: period,
  }),
};

describe('fast accept check against zod', () => {
  it('fastIsEmail answers exactly as isEmail', () => {
    fc.assert(
      fc.property(email, (e) => {
        expect(fastIsEmail(e)).toBe(isEmail(e));
      }),
      { numRuns: 5000 },
    );
  });

  it('fastIsEmail answers as isEmail for every character below U+0300, in every part of an address', () => {
    for (let c = 0x80; c < 0x300; c++) {
      const ch = String.fromCharCode(c);
      for (const e of [`a${ch}@example.com`, `a@b${ch}.example.com`, `a@example.c${ch}`, `${ch}@${ch}${ch}.${ch}${ch}`])
        expect([e, fastIsEmail(e)]).toEqual([e, isEmail(e)]);
    }
  });

  it("the usual address's Latin letters are letters (\\p{L}), none white space", () => {
    const latin = new RegExp(`[${LATIN_LETTERS}]`);
    const units = Array.from({ length: 0x300 }, (_, c) => String.fromCharCode(c)).filter((ch) => latin.test(ch));
    expect(units).toHaveLength(0x250 - 0xc0 - 2);
    for (const ch of units) expect([ch, /\p{L}/u.test(ch) && !/\s/u.test(ch)]).toEqual([ch, true]);
    for (const e of ['søren.müller.13@exämple.se', 'Łukasz.Ząbek@przykład.pl', 'ŞAHİN@örnek.com.tr'.replace('İ', 'I')]) expect(fastIsEmail(e)).toBe(true);
  });

  it.each(['team-members', 'store-cards'] as const)('%s: accepted fast ⇒ zod accepts, with identical data', (kind) => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(CANDIDATES[kind], (candidate) => {
        runs++;
        if (!ACCEPTS[kind](candidate)) return;
        accepted++;
        const result = SCHEMAS[kind].safeParse(candidate);
        expect(result.success).toBe(true);
        expect(result.data).toStrictEqual(candidate);
        expect(JSON.stringify(result.data)).toBe(JSON.stringify(candidate));
      }),
      { numRuns: 5000 },
    );
    // The check is meant to take most real records: the generator must exercise its accepting side.
    expect(accepted / runs).toBeGreaterThan(0.1);
  });

  it.each([
    ['team-members', { employeeID: 'E1', email: 'ann@example.com', name: 'Ann', roleCode: null, parentKey: 'S1' }],
    ['store-cards', { nodeKey: 'S1', email: 'a@b.co', storeConceptCode: 12, opentToGuestsPeriod: { '0': { since: 6, to: 30 }, '6': { since: 23, to: 26.5 } } }],
  ] as const)('%s: a typical valid record is accepted fast', (kind, candidate) => {
    expect(ACCEPTS[kind](candidate)).toBe(true);
  });
});

// A fast accept check in front of the zod schemas, for the millions of records that are valid.
// It may only ever say "valid" where zod would accept the record unchanged (zod's output equal to
// its input); on anything else it says "don't know" and zod judges, and words every message. zod
// stays the single source of truth: test/unit/fast-contract.property.test.ts checks that accepting
// here implies zod accepting with identical data, and that fastIsEmail agrees with isEmail.
import type { Kind } from './kinds.js';
import { FIELDS, HOUR_BOUNDS, isEmail } from './fields.js';

/** zod's nonEmpty: a string with a non-whitespace character (printable ASCII first is the usual case). */
function nonEmpty(v: unknown): boolean {
  if (typeof v !== 'string' || v.length === 0) return false;
  const c = v.charCodeAt(0);
  return (c > 32 && c < 127) || /\S/.test(v);
}

// ASCII character classes for the email check: allowed in the local part, a letter, a digit.
const LOCAL = 1;
const LETTER = 2;
const DIGIT = 4;
const ASCII = new Uint8Array(128);
for (let c = 33; c < 127; c++) if (!'@"(),:;<>[]\\'.includes(String.fromCharCode(c))) ASCII[c] = LOCAL;
for (let c = 65; c <= 90; c++) {
  ASCII[c] = ASCII[c]! | LETTER; // A-Z
  ASCII[c + 32] = ASCII[c + 32]! | LETTER; // a-z
}
for (let c = 48; c <= 57; c++) ASCII[c] = ASCII[c]! | DIGIT;

// Beyond ASCII, tested one UTF-16 unit at a time: a surrogate half is no letter, so a domain with an
// astral character is left to isEmail.
const SPACE = /\s/u;
// Made on first use, like each `…Made` below: V8 parses a `\p{…}` class when the expression is
// made, milliseconds of every start-up for values few runs hold (docs/performance.md, start-up).
let letterOrDigitMade: RegExp | undefined;
const LETTER_OR_DIGIT = () => (letterOrDigitMade ??= /[\p{L}\p{N}]/u);
let unicodeLetterMade: RegExp | undefined;
const UNICODE_LETTER = () => (unicodeLetterMade ??= /\p{L}/u);

/**
 * The same classes for U+0080 to U+02FF (`ø`, `ü`, `ł`, `ş`), by the same tests, each character's
 * worked out the first time an address holds it: a table lookup, not a regular expression, per
 * character (issue 44). Not the whole table at once: its 640 characters by three expressions cost a
 * 10-row run ~2 ms (docs/performance.md, start-up).
 */
const LATIN_END = 0x300;
const latin = new Uint8Array(LATIN_END);
/** A letter or a number of any script (\p{L}\p{N}): a domain label's character. */
const LETTER_OR_NUMBER = 8;
/** Set on a character once its classes are in the table (an entry of 0 is "not yet"). */
const KNOWN = 16;

function latinClasses(c: number): number {
  const known = latin[c]!;
  if (known !== 0) return known;
  const ch = String.fromCharCode(c);
  return (latin[c] = KNOWN | (SPACE.test(ch) ? 0 : LOCAL) | (UNICODE_LETTER().test(ch) ? LETTER : 0) | (LETTER_OR_DIGIT().test(ch) ? LETTER_OR_NUMBER : 0));
}

function localChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (ASCII[c]! & LOCAL) !== 0;
  return c < LATIN_END ? (latinClasses(c) & LOCAL) !== 0 : !SPACE.test(s[i]!);
}

function labelChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (ASCII[c]! & (LETTER | DIGIT)) !== 0;
  return c < LATIN_END ? (latinClasses(c) & LETTER_OR_NUMBER) !== 0 : LETTER_OR_DIGIT().test(s[i]!);
}

function tldChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (ASCII[c]! & LETTER) !== 0;
  return c < LATIN_END ? (latinClasses(c) & LETTER) !== 0 : UNICODE_LETTER().test(s[i]!);
}

/** The letters of the Latin alphabets, U+00C0 to U+024F but × and ÷: each one \p{L}, none white space. */
export const LATIN_LETTERS = '\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f';
let usualMade: RegExp | undefined;
/**
 * The usual address (`søren.müller.13@exämple.se`) by one regular expression: dot-separated runs of
 * ASCII letters, digits, the local part's other ASCII characters and Latin letters, then labels of
 * letters and digits with inner hyphens, then a top level of two letters or more. A subset of what
 * isEmail accepts (test/unit/fast-contract.property.test.ts), and half the time of the loop below.
 */
const USUAL = () => {
  if (usualMade) return usualMade;
  const atom = `[A-Za-z0-9${LATIN_LETTERS}!#$%&'*+/=?^_\`{|}~-]+`;
  const letterOrDigit = `[A-Za-z0-9${LATIN_LETTERS}]`;
  return (usualMade = new RegExp(
    `^${atom}(?:\\.${atom})*@(?:${letterOrDigit}(?:[A-Za-z0-9${LATIN_LETTERS}-]*${letterOrDigit})?\\.)+[A-Za-z${LATIN_LETTERS}]{2,}$`,
  ));
};

/**
 * isEmail, without running its Unicode regular expression for the common shapes: the usual address by
 * USUAL, other shapes by hand; what neither accepts (an xn-- top level, a surrogate pair, anything
 * invalid) goes to isEmail itself, so the answer is always isEmail's.
 */
export function fastIsEmail(s: string): boolean {
  return (s.length <= 254 && USUAL().test(s)) || plainEmail(s) || isEmail(s);
}

function plainEmail(s: string): boolean {
  const n = s.length;
  if (n > 254) return false;
  const at = s.indexOf('@');
  if (at < 1) return false;
  for (let i = 0; i < at; i++) {
    if (!localChar(s, i)) return false;
    if (s.charCodeAt(i) === 46 && s.charCodeAt(i + 1) === 46) return false; // '..'
  }
  // Domain: labels of letters, digits and inner hyphens, each followed by a dot, then a top level of
  // two or more letters.
  let labelStart = at + 1;
  let labels = 0;
  for (let i = labelStart; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (i === labelStart || s.charCodeAt(i - 1) === 45 || s.charCodeAt(labelStart) === 45) return false;
      labels++;
      labelStart = i + 1;
    } else if (c !== 45 && !labelChar(s, i)) return false;
  }
  if (labels === 0 || n - labelStart < 2) return false;
  for (let i = labelStart; i < n; i++) if (!tldChar(s, i)) return false;
  return true;
}

function nullableNonEmpty(v: unknown): boolean {
  return v === null || nonEmpty(v);
}

/**
 * A plain object whose keys are exactly `keys`, in that order: the schemas are strict (an extra key is
 * an error) and zod's output lists the keys in schema order, which the wire JSON must keep.
 */
function keysAre(o: object, keys: readonly string[]): boolean {
  if (Object.getPrototypeOf(o) !== Object.prototype) return false;
  let k = 0;
  for (const key in o) if (key !== keys[k++]) return false;
  return k === keys.length;
}

const DAY_KEYS = ['since', 'to'] as const;

function hour(v: unknown, b: { readonly min: number; readonly max: number }): v is number {
  return typeof v === 'number' && v >= b.min && v <= b.max; // NaN fails both comparisons
}

function teamMember(c: Record<string, unknown>): boolean {
  return (
    keysAre(c, FIELDS['team-members']) &&
    nonEmpty(c.employeeID) &&
    typeof c.email === 'string' &&
    fastIsEmail(c.email) &&
    nonEmpty(c.name) &&
    nullableNonEmpty(c.roleCode) &&
    nullableNonEmpty(c.parentKey)
  );
}

function storeCard(c: Record<string, unknown>): boolean {
  if (!keysAre(c, FIELDS['store-cards']) || !nonEmpty(c.nodeKey) || typeof c.email !== 'string' || !fastIsEmail(c.email)) return false;
  const code = c.storeConceptCode;
  if (code !== null && !(typeof code === 'number' && Number.isFinite(code))) return false;
  const period = c.opentToGuestsPeriod;
  if (period === null || typeof period !== 'object' || Array.isArray(period) || Object.getPrototypeOf(period) !== Object.prototype) return false;
  for (const day in period) {
    if (day.length !== 1 || day < '0' || day > '6') return false;
    const d = (period as Record<string, unknown>)[day];
    if (d === null || typeof d !== 'object' || !keysAre(d, DAY_KEYS)) return false;
    const { since, to } = d as Record<string, unknown>;
    if (!hour(since, HOUR_BOUNDS.since) || !hour(to, HOUR_BOUNDS.to) || !(since < to)) return false;
  }
  return true;
}

/** True only when zod's schema for `kind` accepts `candidate` and returns it unchanged. */
export const ACCEPTS: Readonly<Record<Kind, (candidate: Record<string, unknown>) => boolean>> = {
  'team-members': teamMember,
  'store-cards': storeCard,
};

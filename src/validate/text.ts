// Text as it looks: two strings a person cannot tell apart must not be two different values.
// Every text value is sent in Unicode NFC (José typed on macOS, exported NFD, equals José typed on
// Windows), and keys, emails and names may not hold characters that show nothing or move other text.
import { issue, type Issue } from '../issues.js';
import { hiddenCharacter, mayHide, nameOf, needsSkeleton } from './lookalike.js';

/** Pure ASCII needs no normalising: the common case costs one regular-expression test. */
const NOT_ASCII = /[\u0080-\uffff]/;

/** Every string value of a candidate record in NFC, in place. */
export function toNfc(candidate: Record<string, unknown>): void {
  for (const field in candidate) {
    const value = candidate[field];
    if (typeof value === 'string' && NOT_ASCII.test(value)) candidate[field] = value.normalize('NFC');
  }
}

/** Fields that identify a record or a person: a hidden character there makes a second, look-alike one. */
export const IDENTIFYING = new Set(['nodeKey', 'employeeID', 'parentKey', 'email']);

/** Fields that may hold no control and no invisible character: the identifying ones, and a person's name. */
export const SHOWN_AS_IS = new Set([...IDENTIFYING, 'name']);

/** What trimming takes from a cell's ends: never sent, so never refused there. */
const EDGE_SPACE = /^[\t-\r ]+|[\t-\r ]+$/g;

/**
 * INVISIBLE_CHARACTER for a key, email or name cell (as written) holding a format character (Cf) or
 * another default-ignorable one (U+034F, U+180E, a variation selector), INVALID_CHARACTER for one
 * holding a control (ESC, BEL, a line break inside it), or undefined. The character is named
 * (U+202E RIGHT-TO-LEFT OVERRIDE). When deleting it is certainly what the person means (it moves no
 * text and is no control), the fix writes the cell without it.
 */
export function invisibleCharacter(field: string, written: unknown, plain: boolean, at: { line: number; column: string | null }): Issue | undefined {
  // A plain record's cells hold no control and nothing from U+0300 up: the only hidden characters
  // below U+0300 are the controls and the soft hyphen, which the reader found (read/csv-parser.ts).
  if (typeof written !== 'string' || plain) return undefined;
  // Most cells of a record that is not plain (a name's ễ) hold none either: found so in one search.
  if (!mayHide(written)) return undefined;
  const lead = /^[\t-\r ]*/.exec(written)![0].length;
  const text = written.replace(EDGE_SPACE, '');
  const found = hiddenCharacter(text, field === 'name');
  if (!found) return undefined;
  const position = [...written.slice(0, lead)].length + found.position;
  const what = nameOf(found.cp);
  const value = escaped(written);
  if (found.control) {
    return issue(
      'error',
      'INVALID_CHARACTER',
      `${field} holds ${what} at position ${position}, a control character: it is no part of any ${field} and would be sent as it is; delete it from the cell (retype the value), or export the file again`,
      { line: at.line, column: at.column, field, value },
    );
  }
  if (found.bidi) {
    return issue(
      'error',
      'INVISIBLE_CHARACTER',
      `${field} holds ${what} at position ${position}, a direction mark that changes how the text around it shows: it may look like another ${field} but is not; retype the value as it should read, without the mark`,
      { line: at.line, column: at.column, field, value },
    );
  }
  const fixes = at.column === null || found.without === undefined ? [] : [{ kind: 'cell' as const, line: at.line, column: at.column, text: found.without }];
  return issue(
    'error',
    'INVISIBLE_CHARACTER',
    `${field} holds ${what} at position ${position}, an invisible character: it would make a ${field} that looks like another but is not; delete the character${fixes.length ? ` (write '${found.without}' in the cell)` : ''}`,
    { line: at.line, column: at.column, field, value, fixes },
  );
}

/** A cell as JSON text with every control and invisible character escaped (`"E\\u202e10000"`), so showing it moves nothing. */
function escaped(written: string): string {
  return JSON.stringify(written).replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}\u0080-\u009f]/gu, (c) =>
    c
      .split('')
      .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

/**
 * Below U+0300, where a plain record (read/types.ts) may still hold them: the 52 characters NFKC
 * rewrites (NBSP, ², µ, ſ, Ĳ…), exactly, so `ø` or `ü` costs no NFKC of the whole value (a unit test
 * checks the list against String.normalize). No character below U+0300 combines with another, so a
 * plain value is its own NFKC unless it holds one of these.
 */
export const COMPATIBLE_BELOW_0300 =
  /[\u00a0\u00a8\u00aa\u00af\u00b2-\u00b5\u00b8-\u00ba\u00bc-\u00be\u0132\u0133\u013f\u0140\u0149\u017f\u01c4-\u01cc\u01f1-\u01f3\u02b0-\u02b8\u02d8-\u02dd\u02e0-\u02e4]/;

/**
 * LOOKALIKE_CHARACTER for a key or email (as sent) that NFKC rewrites: full-width `ＪＰ－００１`,
 * ligatures, superscripts. It looks like its plain form but is other text, so the service would hold
 * two records a person cannot tell apart.
 */
export function lookalikeCharacter(field: string, value: unknown, plain: boolean, at: { line: number; column: string | null }): Issue | undefined {
  if (typeof value !== 'string' || (plain && !COMPATIBLE_BELOW_0300.test(value))) return undefined;
  const folded = value.normalize('NFKC');
  if (folded === value) return undefined;
  const chars = [...value];
  const first = chars.find((c) => c.normalize('NFKC') !== c)!;
  const hex = `U+${first.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return issue(
    'error',
    'LOOKALIKE_CHARACTER',
    `${field} '${value}' is written with full-width or compatibility characters ('${first}', ${hex}, at position ${chars.indexOf(first) + 1}); it looks like '${folded}' but is other text, and would make a second ${field} a person cannot tell apart: write it as '${folded}'`,
    // The plain form is what it looks like, so the cell's correction is certain.
    {
      line: at.line,
      column: at.column,
      field,
      value,
      fixes: at.column === null ? undefined : [{ kind: 'cell', line: at.line, column: at.column, text: folded }],
    },
  );
}

/** plainClasses(): a unit beyond ASCII, one NFKC rewrites (COMPATIBLE_BELOW_0300), one that needs a skeleton (needsSkeleton). */
export const BEYOND_ASCII = 1;
export const COMPATIBLE = 2;
export const NEEDS_SKELETON = 4;
/**
 * A unit from U+0300 up, which no cell of a plain record holds but a --map value table may put in
 * one of its values: the tests themselves are asked then (needsSkeleton passes `ễ`, U+1EC5).
 */
export const BEYOND_TABLE = 8;

let unitClassesMade: Uint8Array | undefined;
/** Each unit's classes below U+0300, worked out on first use by the very tests they stand for. */
function unitClasses(): Uint8Array {
  if (unitClassesMade) return unitClassesMade;
  const table = new Uint8Array(0x300);
  for (let c = 0; c < 0x300; c++) {
    const ch = String.fromCharCode(c);
    table[c] = (c >= 0x80 ? BEYOND_ASCII : 0) | (COMPATIBLE_BELOW_0300.test(ch) ? COMPATIBLE : 0) | (needsSkeleton(ch) ? NEEDS_SKELETON : 0);
  }
  return (unitClassesMade = table);
}

/**
 * What the checks of a key or an email ask of a value of a plain record (every unit of its cells below
 * U+0300, read/types.ts) that is not all ASCII, in one pass: BEYOND_ASCII, COMPATIBLE and NEEDS_SKELETON,
 * or-ed; BEYOND_TABLE when a unit is not below U+0300 after all.
 * It stands for two searches of each such value (a regular expression and needsSkeleton's loop) in a
 * 1M dry run whose emails are half `søren.müller@exämple.se`; test/unit/text-classes.test.ts holds it
 * to them.
 */
export function plainClasses(text: string): number {
  const table = unitClasses();
  let seen = 0;
  for (let i = 0; i < text.length; i++) seen |= table[text.charCodeAt(i)] ?? BEYOND_ASCII | BEYOND_TABLE;
  return seen;
}

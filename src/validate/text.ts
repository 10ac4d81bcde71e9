// Text as it looks: two strings a person cannot tell apart must not be two different values.
// Every text value is sent in Unicode NFC (José typed on macOS, exported NFD, equals José typed on
// Windows), and keys and emails may not hold characters that show nothing at all.
import { issue, type Issue } from '../issues.js';

/** Pure ASCII needs no normalising: the common case costs one regular-expression test. */
const NOT_ASCII = /[\u0080-\uffff]/;

/** Every string value of a candidate record in NFC, in place. */
export function toNfc(candidate: Record<string, unknown>): void {
  for (const field in candidate) {
    const value = candidate[field];
    if (typeof value === 'string' && NOT_ASCII.test(value)) candidate[field] = value.normalize('NFC');
  }
}

/** Invisible format characters; a no-break space is not among them: it is trimmed like a space. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/;
const NAMES: Record<number, string> = {
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (a byte order mark)',
  0x00ad: 'SOFT HYPHEN',
};

/** Fields that identify a record or a person: a hidden character there makes a second, look-alike one. */
export const IDENTIFYING = new Set(['nodeKey', 'employeeID', 'parentKey', 'email']);

/** INVISIBLE_CHARACTER for a key or email cell (as written, before trimming) holding one, or undefined. */
export function invisibleCharacter(field: string, written: unknown, at: { line: number; column: string | null }): Issue | undefined {
  if (typeof written !== 'string' || !INVISIBLE.test(written)) return undefined;
  const index = written.search(INVISIBLE);
  const code = written.charCodeAt(index);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  // Positions count characters as a person does, from 1 (a surrogate pair is one).
  const position = [...written.slice(0, index)].length + 1;
  return issue(
    'error',
    'INVISIBLE_CHARACTER',
    `${field} holds an invisible character, ${hex} ${NAMES[code]}, at position ${position}; it would make a ${field} that looks like another but is not: delete the character (retyping the value does it)`,
    { line: at.line, column: at.column, field, value: JSON.stringify(written) },
  );
}

/** Below U+0300, where a plain record (read/types.ts) may still hold them: the characters NFKC rewrites (NBSP, ², µ, ſ, Ĳ…). */
const COMPATIBLE_BELOW_0300 = /[\u00a0-\u02ff]/;

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
    { line: at.line, column: at.column, field, value },
  );
}

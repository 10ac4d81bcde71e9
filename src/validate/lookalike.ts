// Look-alike text (issue 40): characters that show nothing or move other text, keys and emails that
// look like another record's (UTS #39 skeletons), and words written in two scripts at once.
import { CONFUSABLES, PLAIN_BELOW_1F00 } from './confusables-table.js';

/** `U+202E`: a code point as Unicode writes it. */
export function hexOf(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

// ---------------------------------------------------------------------------------------------------
// Characters that show nothing: controls (Cc), format characters (Cf) and the rest of Unicode's
// Default_Ignorable_Code_Point (U+034F, the Hangul fillers, variation selectors).

// Made on first use, like each `…Made` below: V8 parses a `\p{…}` class when the expression is
// made, milliseconds of every start-up for values few runs hold (docs/performance.md, start-up).
let controlMade: RegExp | undefined;
const CONTROL = () => (controlMade ??= /\p{Cc}/u);
let hiddenMade: RegExp | undefined;
const HIDDEN = () => (hiddenMade ??= /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u);
/** What moves the text around it on screen: removing it changes what the person saw. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The test of a whole value: anything that is a control or shows nothing. */
let anyHiddenMade: RegExp | undefined;
const ANY_HIDDEN = () => (anyHiddenMade ??= /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u);

const C0 = [
  'NULL', 'START OF HEADING', 'START OF TEXT', 'END OF TEXT', 'END OF TRANSMISSION', 'ENQUIRY', 'ACKNOWLEDGE', 'BELL',
  'BACKSPACE', 'CHARACTER TABULATION', 'LINE FEED', 'LINE TABULATION', 'FORM FEED', 'CARRIAGE RETURN', 'SHIFT OUT',
  'SHIFT IN', 'DATA LINK ESCAPE', 'DEVICE CONTROL ONE', 'DEVICE CONTROL TWO', 'DEVICE CONTROL THREE',
  'DEVICE CONTROL FOUR', 'NEGATIVE ACKNOWLEDGE', 'SYNCHRONOUS IDLE', 'END OF TRANSMISSION BLOCK', 'CANCEL',
  'END OF MEDIUM', 'SUBSTITUTE', 'ESCAPE', 'INFORMATION SEPARATOR FOUR', 'INFORMATION SEPARATOR THREE',
  'INFORMATION SEPARATOR TWO', 'INFORMATION SEPARATOR ONE',
]; // prettier-ignore

const NAMES: Record<number, string> = {
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0xad: 'SOFT HYPHEN',
  0x34f: 'COMBINING GRAPHEME JOINER',
  0x61c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x180b: 'MONGOLIAN FREE VARIATION SELECTOR ONE',
  0x180c: 'MONGOLIAN FREE VARIATION SELECTOR TWO',
  0x180d: 'MONGOLIAN FREE VARIATION SELECTOR THREE',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x180f: 'MONGOLIAN FREE VARIATION SELECTOR FOUR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (a byte order mark)',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
  0xe0001: 'LANGUAGE TAG',
  0xe0020: 'TAG SPACE',
  0xe007f: 'CANCEL TAG',
};

/** The Unicode name of a control or invisible character (`U+202E RIGHT-TO-LEFT OVERRIDE`), or what it is. */
export function nameOf(cp: number): string {
  const hex = hexOf(cp);
  if (cp < 0x20) return `${hex} ${C0[cp]}`;
  if (NAMES[cp]) return `${hex} ${NAMES[cp]}`;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return `${hex} VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `${hex} VARIATION SELECTOR-${cp - 0xe0100 + 17}`;
  if (cp > 0xe0020 && cp < 0xe007f) return `${hex} TAG ${asciiName(cp - 0xe0000)}`;
  if (cp >= 0x80 && cp <= 0x9f) return `${hex} (a C1 control character)`;
  const c = String.fromCodePoint(cp);
  if (CONTROL().test(c)) return `${hex} (a control character)`;
  if (HIDDEN().test(c)) return `${hex} (an invisible format character)`;
  return `${hex} '${c}' (${scriptName(c)})`;
}

function asciiName(c: number): string {
  const ch = String.fromCharCode(c);
  if (ch >= 'A' && ch <= 'Z') return `LATIN CAPITAL LETTER ${ch}`;
  if (ch >= 'a' && ch <= 'z') return `LATIN SMALL LETTER ${ch.toUpperCase()}`;
  if (ch >= '0' && ch <= '9') return `DIGIT ${['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'][c - 48]}`;
  return `'${ch}'`;
}

export interface Hidden {
  /** The first character found (its code point), and where: 1-based, counting characters as a person does. */
  readonly cp: number;
  readonly position: number;
  readonly control: boolean;
  /** It moves the text around it: the value shows otherwise than it reads. */
  readonly bidi: boolean;
  /** The value without any of the characters refused here (only when none is a control or moves text). */
  readonly without: string | undefined;
}

/** Whether `text` holds any control or invisible character at all: one search, the usual answer no. */
export function mayHide(text: string): boolean {
  return ANY_HIDDEN().test(text);
}

/**
 * The first control or invisible character in `text` a value of this kind may not hold, or undefined.
 * A key or an email may hold none. A name may hold what writing needs: a zero-width (non-)joiner
 * between two letters (Persian, Indic scripts), a joiner between two emoji and a variation selector
 * right after one (❤️, 👩‍💻), and a line break or tab, which a cell shows — everything else (ESC, BEL,
 * direction marks, tags) is refused there too.
 */
export function hiddenCharacter(text: string, name: boolean): Hidden | undefined {
  if (!ANY_HIDDEN().test(text)) return undefined;
  const chars = [...text];
  let found: { cp: number; position: number } | undefined;
  let control = false;
  let bidi = false;
  const kept: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    // NUL is INVALID_CHARACTER in any field already (validate/index.ts): not named twice.
    if (!ANY_HIDDEN().test(c) || c === '\0' || (name && allowedInName(chars, i))) {
      kept.push(c);
      continue;
    }
    found ??= { cp: c.codePointAt(0)!, position: i + 1 };
    control ||= CONTROL().test(c);
    bidi ||= BIDI.test(c);
  }
  if (!found) return undefined;
  return { ...found, control, bidi, without: control || bidi ? undefined : kept.join('') };
}

let letterMade: RegExp | undefined;
const LETTER = () => (letterMade ??= /[\p{L}\p{M}]/u);
let emojiMade: RegExp | undefined;
const EMOJI = () => (emojiMade ??= /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Emoji_Component}]/u);

function allowedInName(chars: readonly string[], i: number): boolean {
  const c = chars[i]!;
  // A line break or tab inside a name shows in the cell as what it is (Excel's Alt+Enter): sent as written.
  if (c === '\n' || c === '\r' || c === '\t') return true;
  const before = chars[i - 1] ?? '';
  const after = chars[i + 1] ?? '';
  if (c === '\u200c' || c === '\u200d') {
    if (LETTER().test(before) && LETTER().test(after)) return true;
    return c === '\u200d' && /\p{Extended_Pictographic}/u.test(after) && (EMOJI().test(before) || before === '\ufe0f');
  }
  if (c === '\ufe0e' || c === '\ufe0f') return /\p{Emoji}/u.test(before) && !/[0-9#*]/.test(before);
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Scripts.

/** The scripts a key or an email is told in; a letter of none of them counts as its own "other" script. */
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Nko', 'Devanagari', 'Bengali',
  'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan',
  'Myanmar', 'Georgian', 'Hangul', 'Ethiopic', 'Cherokee', 'Canadian_Aboriginal', 'Ogham', 'Runic', 'Khmer',
  'Mongolian', 'Hiragana', 'Katakana', 'Bopomofo', 'Han', 'Yi', 'Lisu', 'Vai', 'Bamum', 'Coptic', 'Tifinagh', 'Adlam',
  'Osage', 'Gothic', 'Deseret', 'Glagolitic', 'Old_Italic', 'Tai_Le', 'Buginese', 'Javanese', 'Balinese', 'Sundanese',
]; // prettier-ignore
// Compiled on first use (a character beyond ASCII): fifty Unicode property classes are milliseconds
// of every start-up.
let scriptTests: readonly (readonly [string, RegExp])[] | undefined;
const scriptTestsOf = () => (scriptTests ??= SCRIPTS.map((s) => [s, new RegExp(`\\p{Script_Extensions=${s}}`, 'u')] as const));
/** Common and Inherited: digits, punctuation, marks; they go with any script (UTS #39 §5.1). */
let anyScriptMade: RegExp | undefined;
const ANY_SCRIPT = () => (anyScriptMade ??= /[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]/u);
/** UTS #39's augmented sets: Japanese, Korean and Chinese write Han beside their own scripts. */
const AUGMENTED: Record<string, readonly string[]> = {
  Han: ['Han', 'Jpan', 'Kore', 'Hanb'],
  Hiragana: ['Hiragana', 'Jpan'],
  Katakana: ['Katakana', 'Jpan'],
  Hangul: ['Hangul', 'Kore'],
  Bopomofo: ['Bopomofo', 'Hanb'],
};

const CJK_WITH_LATIN = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/** The scripts a character may be written in (its Script_Extensions), or undefined for one that goes with any. */
function scriptsOf(c: string): readonly string[] | undefined {
  if (c < '\u0080') return /[A-Za-z]/.test(c) ? ['Latin'] : undefined;
  if (ANY_SCRIPT().test(c)) return undefined;
  const found = scriptTestsOf()
    .filter(([, re]) => re.test(c))
    .flatMap(([s]) => AUGMENTED[s] ?? [s]);
  return found.length ? found : ['other'];
}

/** A character's script, for a message: `Cyrillic`, `Latin`, or `Common` for digits and punctuation. */
export function scriptName(c: string): string {
  const scripts = scriptsOf(c);
  if (!scripts) return 'no script: a digit, mark or punctuation';
  return scripts[0] === 'other' ? 'another script' : scripts[0]!.replace(/_/g, ' ');
}

export interface MixedScripts {
  /** The word (a run of letters and digits) that mixes them. */
  readonly word: string;
  readonly scripts: readonly [string, string];
  /** The characters of the word's less used script, with their 1-based positions in the value. */
  readonly odd: readonly { readonly char: string; readonly position: number }[];
}

/**
 * The first word of `text` whose letters share no script (UTS #39 "mixed script", with Common and
 * Inherited going with any, per word: `ivan@пример.рф` is two words of one script each), or undefined.
 */
export function mixedScripts(text: string): MixedScripts | undefined {
  const chars = [...text];
  for (let start = 0; start < chars.length;) {
    while (start < chars.length && !WORD().test(chars[start]!)) start++;
    let end = start;
    while (end < chars.length && WORD().test(chars[end]!)) end++;
    const found = mixedWord(chars, start, end);
    if (found) return found;
    start = end;
  }
  return undefined;
}

let wordMade: RegExp | undefined;
const WORD = () => (wordMade ??= /[\p{L}\p{M}\p{N}]/u);

function mixedWord(chars: readonly string[], start: number, end: number): MixedScripts | undefined {
  let common: readonly string[] | undefined;
  const first = new Map<string, number>();
  const counts = new Map<string, number>();
  for (let i = start; i < end; i++) {
    const scripts = scriptsOf(chars[i]!);
    if (!scripts) continue;
    const main = scripts[0]!;
    counts.set(main, (counts.get(main) ?? 0) + 1);
    if (!first.has(main)) first.set(main, i);
    common = common === undefined ? scripts : common.filter((s) => scripts.includes(s));
  }
  if (common === undefined || common.length > 0) return undefined;
  // UTS #39's Highly Restrictive level: Latin beside Japanese, Chinese or Korean writing is normal (`Tokyo東京`).
  const used = [...counts.keys()];
  if (CJK_WITH_LATIN.some((allowed) => used.every((s) => allowed.includes(s)))) return undefined;
  // The script the word is mostly in, then the other one (the less used, or the later on a tie).
  const ranked = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || first.get(a)! - first.get(b)!);
  const [major, minor] = ranked as [string, string];
  const odd = [];
  for (let i = start; i < end; i++) if (scriptsOf(chars[i]!)?.[0] === minor) odd.push({ char: chars[i]!, position: i + 1 });
  return { word: chars.slice(start, end).join(''), scripts: [major.replace(/_/g, ' '), minor.replace(/_/g, ' ')], odd };
}

// ---------------------------------------------------------------------------------------------------
// Skeletons (UTS #39 §4): two strings look alike when their skeletons are equal.

let prototypes: Map<number, string> | undefined;

/** confusables.txt's mappings, parsed on first use (a file of plain keys never needs them). */
function table(): Map<number, string> {
  if (prototypes) return prototypes;
  prototypes = new Map();
  for (const entry of CONFUSABLES.split(',')) {
    const eq = entry.indexOf('=');
    const to = entry
      .slice(eq + 1)
      .split(' ')
      .map((h) => String.fromCodePoint(parseInt(h, 16)));
    prototypes.set(parseInt(entry.slice(0, eq), 16), to.join(''));
  }
  return prototypes;
}

let ignorableMade: RegExp | undefined;
const IGNORABLE = () => (ignorableMade ??= /\p{Default_Ignorable_Code_Point}/u);

/**
 * A value as look-alikes are compared: UTS #39's skeleton (NFD, default-ignorables removed, each
 * character replaced by its prototype, NFD again) of its NFKC form, in lower case, as keys are
 * compared ignoring case (`Е00001`, `Ε00001` and `e00001` all give `eooool`).
 */
export function skeleton(text: string): string {
  const map = table();
  let out = '';
  for (const c of text.normalize('NFKC').normalize('NFD')) {
    if (IGNORABLE().test(c)) continue;
    out += map.get(c.codePointAt(0)!) ?? c;
  }
  return out.normalize('NFD').toLowerCase();
}

/** Below U+1F00, the code units whose values need no skeleton (from the generated table). */
const PLAIN = new Uint8Array(0x1f00);
for (const [from, to] of PLAIN_BELOW_1F00) PLAIN.fill(1, from, to + 1);

/**
 * Whether a value (NFC) needs the look-alike checks: it holds a character other than ASCII, the
 * letters of European alphabets and the Latin letters and marks no confusable mapping names (é, ø,
 * ł, ñ, ß, ễ). A value of only those is told apart as it is written; two such values are never
 * compared by their skeletons (0/O, 1/l, rn/m are how real keys differ), only with the values that
 * need the check.
 */
export function needsSkeleton(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x1f00 || PLAIN[c] === 0) return true;
  }
  return false;
}

/** Each plain code unit's own skeleton (ASCII and the plain letters), built on first use. */
let unitSkeletons: string[] | undefined;

/**
 * A hash of a plain value's skeleton (see needsSkeleton), without making the string: the skeleton of
 * each character in turn. It may differ from fnv1a(skeleton(text)) where marks reorder across
 * characters, so a match is confirmed with skeleton() itself; it never misses a value whose
 * characters' skeletons join to the other's.
 */
export function plainSkeletonHash(text: string): number {
  if (!unitSkeletons) {
    unitSkeletons = [];
    for (let c = 0; c < 0x1f00; c++) unitSkeletons.push(PLAIN[c] ? skeleton(String.fromCharCode(c)) : '');
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const s = unitSkeletons[text.charCodeAt(i)]!;
    for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  }
  return h | 0;
}

/** The same hash of a skeleton string. */
export function skeletonHash(s: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h | 0;
}

/** The characters of `text` that are not in `other`, position by position when both are as long; for a message. */
export function differing(text: string, other: string): string {
  const a = [...text];
  const b = [...other];
  const parts: string[] = [];
  if (a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      parts.push(`${describeChar(a[i]!)} at position ${i + 1} where the other has ${describeChar(b[i]!)}`);
    }
  } else {
    a.forEach((c, i) => {
      if (needsSkeleton(c) && !b.includes(c)) parts.push(`${describeChar(c)} at position ${i + 1}`);
    });
  }
  return parts.slice(0, 3).join('; ') + (parts.length > 3 ? `; and ${parts.length - 3} more` : '');
}

/** Text for a message, with every control and invisible character escaped (`Downtown\\u000aUptown`): a message shows what a value holds, and moves nothing. */
export function shown(text: string): string {
  return ANY_HIDDEN().test(text) ? text.replace(ANY_HIDDEN_ALL(), (c) => `\\u${hexOf(c.codePointAt(0)!).slice(2).toLowerCase()}`) : text;
}

let anyHiddenAllMade: RegExp | undefined;
const ANY_HIDDEN_ALL = () => (anyHiddenAllMade ??= new RegExp(ANY_HIDDEN().source, 'gu'));

/** `'Е' (U+0415, Cyrillic)`. */
export function describeChar(c: string): string {
  const cp = c.codePointAt(0)!;
  if (ANY_HIDDEN().test(c)) return nameOf(cp);
  return `'${c}' (${hexOf(cp)}, ${scriptName(c)})`;
}

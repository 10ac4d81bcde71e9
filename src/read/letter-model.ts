// How likely a text is to be words of some language, from the letters beyond ASCII it holds. Each
// language is a table of how often its letters occur (per 100 letters of running text, rounded from
// published letter-frequency counts); a text scores the log of those frequencies under the language
// that fits it best. A wrong code page turns letters into rare ones (`ë`, `è` for Lithuanian `ė`,
// `č`), into symbols glued to letters (`£ukasz`), controls, or into case flips (`нМЭЦЮ` for
// `Ольга`, `MŸller` for `Müller`): each of these costs more than any real spelling.
import { LANGUAGES } from './letter-frequencies.js';

/** The cost of a letter no language here writes, in log units (0.001%). */
const UNKNOWN = Math.log(0.001);
/** A letter of another language costs this much more than the best language's score for it. */
const FOREIGN = 3;
/**
 * Frequencies count for half their log: tables from running text undersell letters that names use
 * often (`García`'s í), so which letters a language writes at all weighs more than how often.
 */
const TEMPER = 0.5;
/** A word that fits another language better than the file's costs this much (a foreign name). */
const FOREIGN_WORD = 4;
const SYMBOL_IN_WORD = -6;
const SYMBOL_ALONE = -1;
const CONTROL = -10;
const MIXED_SCRIPTS = -6;
const CASE_FLIP = -4;
/**
 * Typographic quotes and dashes: Excel writes them, and they sit between words as often as in them.
 * Not `·`: inside a word it is what DOS pages make of `ú` (`Rep·blica`); Catalan `l·l` pays alike in every page.
 */
const PUNCTUATION = new Set([...'’‘“”„–—…•«»']);

interface LanguageScores {
  readonly name: string;
  readonly score: ReadonlyMap<string, number>;
}

/**
 * Per language, each letter's score: its own log frequency, or a foreign letter's, less FOREIGN. Made
 * on first use: only a file that is not UTF-8 needs it, and making it is milliseconds of every start-up.
 */
let languageScores: readonly LanguageScores[] | undefined;
const scoresOf = (): readonly LanguageScores[] => (languageScores ??= makeScores());
function makeScores(): readonly LanguageScores[] {
  const best = new Map<string, number>();
  // Not Vietnamese: its toned letters are foreign letters only inside a Vietnamese word (a syllable).
  for (const [name, table] of Object.entries(LANGUAGES())) {
    if (name === 'vietnamese') continue;
    for (const [ch, f] of Object.entries(table)) best.set(ch, Math.max(best.get(ch) ?? UNKNOWN, Math.log(f)));
  }
  return Object.entries(LANGUAGES()).map(([name, table]) => {
    const score = new Map<string, number>();
    for (const [ch, f] of best) score.set(ch, TEMPER * f - FOREIGN);
    for (const [ch, f] of Object.entries(table)) score.set(ch, TEMPER * Math.log(f));
    return { name, score };
  });
}

/** ASCII characters that end a word: spaces, punctuation, digits (by code, for speed). */
const SEPARATOR = new Uint8Array(128);
for (const ch of ' \t\r\n\f\v,;|"\'()[]{}<>:=/\\.!?@#&*+_0123456789-') SEPARATOR[ch.charCodeAt(0)] = 1;
// Made on first use, like each `…Made` below: V8 parses a `\p{…}` class when the expression is
// made, milliseconds of every start-up for values few runs hold (docs/performance.md, start-up).
let upperMade: RegExp | undefined;
const UPPER = () => (upperMade ??= /\p{Lu}/u);
let lowerMade: RegExp | undefined;
const LOWER = () => (lowerMade ??= /\p{Ll}/u);
let nonLatinMade: RegExp | undefined;
const NON_LATIN = () => (nonLatinMade ??= /[\p{Script=Cyrillic}\p{Script=Greek}]/u);

type Kind = 'letter' | 'control' | 'mark' | 'punctuation' | 'symbol';
const kinds = new Map<string, Kind>();
function kindOf(ch: string): Kind {
  let kind = kinds.get(ch);
  if (kind === undefined) {
    kind = /\p{L}/u.test(ch) ? 'letter' : /[\p{Cc}\ufffd]/u.test(ch) ? 'control' : /\p{M}/u.test(ch) ? 'mark' : PUNCTUATION.has(ch) ? 'punctuation' : 'symbol';
    kinds.set(ch, kind);
  }
  return kind;
}

export interface Plausibility {
  /** Higher is likelier; the same bytes read in two code pages compare by it. */
  readonly score: number;
  /** The language that fits best (for tests and messages). */
  readonly language: string;
  /** Words with marks of a wrong reading whatever the language: symbols or controls in words, case flips, mixed scripts. */
  readonly marks: number;
}

/**
 * How plausible the words of `text` are: each word holding a letter beyond ASCII scores the log
 * frequencies of those letters in the file's language (or, less FOREIGN_WORD, in the language it fits
 * best: a Danish name in a Swedish file), plus the marks of a wrong reading. Distinct words are
 * scored once, so a file's cost is one pass over its text.
 */
export function plausibility(text: string): Plausibility {
  const words = new Map<string, number>();
  // NFC: windows-1258 writes tones as combining marks after the vowel; composed they are letters.
  for (const word of wordsBeyondAscii(text.normalize('NFC'))) words.set(word, (words.get(word) ?? 0) + 1);
  const languages = scoresOf();
  let penalty = 0;
  let marks = 0;
  const perLanguage = new Float64Array(languages.length);
  const scored: { n: number; scores: Float64Array; best: number }[] = [];
  for (const [word, n] of words) {
    const found = scoreWord(word);
    penalty += n * found.penalty;
    if (found.penalty < 0) marks += n;
    if (found.scores) scored.push({ n, scores: found.scores, best: found.best });
  }
  for (const { n, scores, best } of scored) {
    for (let l = 0; l < languages.length; l++) perLanguage[l]! += n * Math.max(scores[l]!, best - FOREIGN_WORD);
  }
  let language = 'none';
  let score = scored.length ? -Infinity : 0;
  for (let l = 0; l < languages.length; l++) {
    if (perLanguage[l]! > score) [score, language] = [perLanguage[l]!, languages[l]!.name];
  }
  return { score: score + penalty, language, marks };
}

interface WordScore {
  readonly penalty: number;
  /** Per language (scoresOf()'s order), the word's letters beyond ASCII; undefined when it has none. */
  readonly scores: Float64Array | undefined;
  readonly best: number;
}

// Words recur across the code pages tried (most pages read `García` alike) and across rows: each is
// scored once. Bounded, so a long run holds no more than a few thousand.
const wordCache = new Map<string, WordScore>();

function scoreWord(word: string): WordScore {
  let found = wordCache.get(word);
  if (found) return found;
  const { letters, penalty } = inspect(word);
  let scores: Float64Array | undefined;
  let best = -Infinity;
  if (letters.length) {
    const languages = scoresOf();
    const vietnamese = languages.findIndex((l) => l.name === 'vietnamese');
    scores = new Float64Array(languages.length);
    for (let l = 0; l < languages.length; l++) {
      const table = languages[l]!.score;
      let sum = 0;
      for (const ch of letters) sum += table.get(ch) ?? UNKNOWN - FOREIGN;
      if (l === vietnamese && sum > -Infinity && !vietnameseSyllable(word)) sum = -Infinity;
      scores[l] = sum;
      if (sum > best) best = sum;
    }
  }
  found = { penalty, scores, best };
  if (wordCache.size >= 5000) wordCache.clear();
  wordCache.set(word, found);
  return found;
}

/** A word's letters beyond ASCII (lower case) and what its other characters cost. */
function inspect(word: string): { letters: string[]; penalty: number } {
  const chars = [...word];
  const all = chars.filter((ch) => ch < '\u0080' || kindOf(ch) === 'letter');
  const letters: string[] = [];
  let penalty = 0;
  for (const ch of chars) {
    if (ch < '\u0080') continue;
    const kind = kindOf(ch);
    if (kind === 'letter') letters.push(ch === 'İ' ? ch : ch.toLowerCase());
    else if (kind === 'control') penalty += CONTROL;
    else if (kind === 'mark')
      penalty += SYMBOL_IN_WORD; // a tone mark left on no vowel
    else if (kind === 'punctuation') penalty -= 0.5;
    else penalty += all.length ? SYMBOL_IN_WORD : SYMBOL_ALONE;
  }
  const nonLatin = all.filter((ch) => NON_LATIN().test(ch)).length;
  if (nonLatin > 0 && nonLatin < all.length) penalty += MIXED_SCRIPTS;
  if (caseFlip(all)) penalty += CASE_FLIP;
  return { letters, penalty };
}

/** The words of `text` that hold a character beyond ASCII (separators: spaces, ASCII punctuation, digits). */
function* wordsBeyondAscii(text: string): Generator<string> {
  let start = 0;
  let wide = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (code < 128 ? SEPARATOR[code] === 1 : false) {
      if (wide && i > start) yield text.slice(start, i);
      start = i + 1;
      wide = false;
    } else if (code >= 128) wide = true;
  }
}

/**
 * A Vietnamese word is one syllable: an initial consonant (or cluster), one to three vowels with at
 * most one tone mark, a final consonant from a short list. Other languages' words read in a
 * Vietnamese page (`Funẫão`, `Groư`) are not, however Vietnamese their letters look.
 */
function vietnameseSyllable(word: string): boolean {
  const decomposed = word.toLowerCase().normalize('NFD');
  if ((decomposed.match(/[\u0300\u0301\u0303\u0309\u0323]/g) ?? []).length > 1) return false;
  const toneless = decomposed.replace(/[\u0300\u0301\u0303\u0309\u0323]/g, '').normalize('NFC');
  return /^(?:ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdđghklmnpqrstvx])?[aăâeêioôơuưy]{1,3}(?:ng|nh|ch|[cmnpt])?$/u.test(toneless);
}

/**
 * A letter beyond ASCII whose case breaks the word's: upper after lower (`нМЭЦЮ`), upper before lower
 * past the first letter (`MŸller`), or lower between uppers (`MüLLER` is fine only as `MÜLLER`).
 * ASCII-only transitions (`McDonald`) are names people write.
 */
function caseFlip(letters: readonly string[]): boolean {
  for (let i = 1; i < letters.length; i++) {
    const ch = letters[i]!;
    const prev = letters[i - 1]!;
    const next = letters[i + 1];
    if (ch < '\u0080' && prev < '\u0080') continue;
    if (UPPER().test(ch) && LOWER().test(prev)) return true;
    if (UPPER().test(ch) && next !== undefined && LOWER().test(next) && ch >= '\u0080') return true;
    if (LOWER().test(ch) && UPPER().test(prev) && next !== undefined && UPPER().test(next)) return true;
  }
  return false;
}

// Days as people name them in a header or a whole-week cell: one day (`Mo`), a range (`Mo-Fr`,
// `Montag bis Freitag`, `lun.-ven.`, `ma t/m vr`), a list (`Sa/So`, `Sa und So`) or a group
// (`Weekdays`, `Werktags`, `weekend`). Short names mean different days in different languages, so the
// day references are only collected here; ./layout.ts settles their language with every other one.
import { LANGUAGES, fold, readings, type Language } from './weekdays.js';

export type TokenKind = 'word' | 'num' | 'time' | 'dash' | 'comma' | 'semi' | 'colon' | 'and' | 'other';

export interface Token {
  readonly kind: TokenKind;
  /** As written. */
  readonly raw: string;
  /** Words: lower case, no accents, no dots (`Mié.` → `mie`); others: as written. */
  readonly text: string;
}

// A time in a week cell: 9, 09:00, 9.30, 9h, 19h30, 9 h 30, 20 Uhr, 9 AM, 9:30 p.m. A comma is never
// part of one there: it separates days, periods and rules (`Mo-Fr 9-12,14-18`).
const TIME = /\d{1,2}(?:[:.]\d{2}(?::\d{2})?|[.]\d|\s*h\s*\d{2}(?!\d)|\s*h(?![a-z]))?(?:\s*(?:uhr|uur|ore|hrs?)(?![a-z]))?(?:\s*[ap]\.?\s?m(?![a-z])\.?)?/iy;
const DIGITS = /\d+/y;
// Made on first use: V8 parses the `\p{L}` classes (case-folded, with `i`) when the expressions are
// made, a millisecond of every start-up, and only a run that reads opening hours tokenizes.
type Patterns = readonly (readonly [TokenKind | 'space', RegExp])[];
let patternsMade: Patterns | undefined;
const PATTERNS = (): Patterns =>
  (patternsMade ??= [
    ['space', /\s+/y],
    ['word', /24\s*\/\s*7/y],
    ['word', /t\/m(?![a-z])/iy],
    // `～` is `~` once the text is NFKC; `〜` is the wave dash Japanese writes between days and times.
    ['dash', /[-–—‐−~〜]/y],
    ['comma', /[,、]/y],
    ['semi', /[;|]/y],
    ['colon', /:/y],
    ['and', /[&+/・]/y],
    // Portuguese days are one word with their `-feira` (`Segunda-feira`), not a range of days.
    ['word', /\p{L}+[-‐ ]feira(?!\p{L})/iuy],
    // A Japanese day is one character, with or without 曜日 (`月曜日`, `月～金`, `土日`).
    ['word', /[月火水木金土日](?:曜日?)?/uy],
    ['word', /[\p{L}][\p{L}\p{M}'’]*\.?/uy],
  ]);

/** The tokens of a header (`times` false: numbers are day numbers) or a week cell (`times` true). */
export function tokenize(text: string, times: boolean): Token[] {
  // `MondayOpen`, `mon2` and `Open2` are two words each; a line break between rules is a `;`.
  // NFKC: full-width digits and signs (`１０：００～２０：００`) are the plain ones.
  const source = text
    .normalize('NFKC')
    .replace(/[\u00a0\u2007\u2009\u200a\u202f]/g, ' ')
    .replace(/\r?\n/g, ';')
    // 土日祝 is Saturday, Sunday and public holidays: three days written without a separator.
    .replace(/祝日/g, '祝')
    .replace(/([月火水木金土日祝])(?=[月火水木金土日祝])/gu, '$1・')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
  const out: Token[] = [];
  // A long cell repeats its words: each is folded once.
  const folds = new Map<string, string>();
  const folded = (word: string) => folds.get(word) ?? folds.set(word, fold(word).replace(/['’]/g, '')).get(word)!;
  const number = times ? TIME : DIGITS;
  let at = 0;
  outer: while (at < source.length) {
    const c = source.charCodeAt(at);
    // `24/7` is a word of its own, not the time 24.
    if (c >= 48 && c <= 57 && !(c === 50 && /^24\s*\/\s*7/.test(source.slice(at, at + 8)))) {
      number.lastIndex = at;
      const n = number.exec(source);
      if (n?.[0]) {
        out.push({ kind: times ? 'time' : 'num', raw: n[0], text: n[0].trim() });
        at += n[0].length;
        continue;
      }
    }
    for (const [kind, re] of PATTERNS()) {
      re.lastIndex = at;
      const m = re.exec(source);
      if (!m) continue;
      at += m[0].length;
      if (kind === 'space') continue outer;
      out.push({ kind, raw: m[0], text: kind === 'word' ? folded(m[0]) : m[0] });
      continue outer;
    }
    out.push({ kind: 'other', raw: source[at]!, text: source[at]! });
    at++;
  }
  return out;
}

/** A word naming one day, with the day it is in each language that knows it. */
export interface DayRef {
  readonly raw: string;
  readonly readings: ReadonlyMap<Language, number>;
  /** One of the Spanish one-letter days (see LETTERS). */
  readonly letter?: true;
}

export type DayItem =
  /** `slash`: joined to the item before by `/` (`Sa/So`, `Lunedì/Sabato`), which may mean a list or a range. */
  { readonly from: DayRef; readonly to?: DayRef; readonly slash?: true } | { readonly group: readonly number[]; readonly raw: string };

const WEEKDAYS = [1, 2, 3, 4, 5];
const WEEKEND = [6, 0];
export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 0];
// Groups of days, as sequences of folded words.
const GROUPS: readonly (readonly [readonly string[], readonly number[]])[] = [
  ...['weekdays', 'weekday', 'workdays', 'werktags', 'wochentags', 'werktage', 'werkdagen', 'weekdagen', 'doordeweeks', 'feriali', 'laborables'].map(
    (w) => [[w], WEEKDAYS] as const,
  ),
  [['en', 'semaine'], WEEKDAYS],
  [['entre', 'semana'], WEEKDAYS],
  [['dias', 'laborables'], WEEKDAYS],
  [['giorni', 'feriali'], WEEKDAYS],
  [['jours', 'ouvrables'], WEEKDAYS],
  ...['weekend', 'weekends', 'wochenende', 'finesettimana'].map((w) => [[w], WEEKEND] as const),
  [['fin', 'de', 'semana'], WEEKEND],
  [['fine', 'settimana'], WEEKEND],
  ...['daily', 'everyday', 'taglich', 'dagelijks', 'quotidien', 'diario', 'diariamente'].map((w) => [[w], EVERY_DAY] as const),
  [['every', 'day'], EVERY_DAY],
  [['alle', 'tage'], EVERY_DAY],
  [['tous', 'les', 'jours'], EVERY_DAY],
  [['todos', 'los', 'dias'], EVERY_DAY],
  [['tutti', 'i', 'giorni'], EVERY_DAY],
  [['elke', 'dag'], EVERY_DAY],
  // pt, pl, sv, da, nb, tr, ja (written folded: `dias úteis` is `dias uteis`)
  ...['vardagar', 'hverdage', 'hverdager', '平日'].map((w) => [[w], WEEKDAYS] as const),
  [['dias', 'uteis'], WEEKDAYS],
  [['dni', 'robocze'], WEEKDAYS],
  [['hafta', 'ici'], WEEKDAYS],
  ...['helg', 'helgen', 'helger', '週末'].map((w) => [[w], WEEKEND] as const),
  [['fim', 'de', 'semana'], WEEKEND],
  [['hafta', 'sonu'], WEEKEND],
  ...['codziennie', 'dagligen', 'dagligt', 'daglig', '毎日'].map((w) => [[w], EVERY_DAY] as const),
  [['todos', 'os', 'dias'], EVERY_DAY],
  [['alla', 'dagar'], EVERY_DAY],
  [['alle', 'dage'], EVERY_DAY],
  [['alle', 'dager'], EVERY_DAY],
  [['her', 'gun'], EVERY_DAY],
];
// Between the ends of a range of days: `Mo-Fr`, `Montag bis Freitag`, `lundi au vendredi`, `ma t/m vr`.
// (Polish `do` is not one: it is a day in four other languages.)
const THROUGH = new Set(['to', 'through', 'thru', 'till', 'until', 'bis', 'tot', 't/m', 'tm', 'au', 'a', 'al', 'hasta', 'alle', 'ate', 'til']);
// Before a day or a range: `du lundi`, `von Montag`, `dal lunedì`, `van maandag`, `de lunes`.
const BEFORE = new Set(['from', 'von', 'van', 'vanaf', 'du', 'de', 'dal', 'desde', 'ab', 'od', 'fran', 'fra']);
// Between two days of a list: `Sa/So`, `Sa und So`, `samedi et dimanche`.
export const AND = new Set(['and', 'und', 'en', 'et', 'e', 'y', 'i', 'och', 'og', 've']);

export function dayRef(token: Token | undefined, numbers: boolean): DayRef | undefined {
  if (!token) return undefined;
  if (token.kind === 'num' && !(numbers && /^[0-6]$/.test(token.text))) return undefined;
  if (token.kind !== 'word' && token.kind !== 'num') return undefined;
  const found = readings(token.text);
  return found.size ? { raw: token.raw, readings: found } : undefined;
}

/**
 * Spanish shop signs name days by one letter: L M X J V S D (`L-V`, `L a V`, `S-D`, `L, M, X, J, V`),
 * X being miércoles. French and Italian share L, J, V, S and D, but write M for both mardi and
 * mercredi; English writes M for Monday and S for both weekend days. So a letter is read only as the
 * Spanish day, and only where no other reading is left (checkLetters): beside other letters, and `M`
 * only beside `X`, which no other language writes.
 */
const LETTERS: Readonly<Record<string, number>> = { l: 1, m: 2, x: 3, j: 4, v: 5, s: 6, d: 0 };

function letterRef(token: Token | undefined): DayRef | undefined {
  if (token?.kind !== 'word') return undefined;
  const day = LETTERS[token.text];
  return day === undefined ? undefined : { raw: token.raw, readings: new Map([['es', day]]), letter: true };
}

/** A day name or number, or a Spanish day letter. */
function dayOrLetter(token: Token | undefined, numbers: boolean): DayRef | undefined {
  return dayRef(token, numbers) ?? letterRef(token);
}

/**
 * Why the one-letter days among `refs` cannot be read one way, or undefined when they can (or there
 * are none): a letter alone could be any language's, and `M` without `X` could be French or English.
 */
export function checkLetters(refs: readonly DayRef[], where: (ref: DayRef) => string): string | undefined {
  const letters = refs.filter((r) => r.letter);
  if (!letters.length) return undefined;
  if (letters.length === 1) {
    return `${where(letters[0]!)} is a one-letter day on its own; one-letter days are read only as the Spanish L M X J V S D beside one another (L-V, S-D, L, M, X, J, V): write the day's name instead (sábado, Sa, Saturday…)`;
  }
  const m = letters.filter((r) => r.readings.get('es') === 2);
  if (m.length && !letters.some((r) => r.readings.get('es') === 3)) {
    return `${m.map(where).join(', ')} could be martes (Spanish), mardi or mercredi (French), martedì or mercoledì (Italian) or Monday (English); write Ma or martes for Tuesday, or use X for miércoles beside it so the letters are read as Spanish`;
  }
  return undefined;
}

const GROUP_STARTS = new Set(GROUPS.map(([words]) => words[0]!));

function group(tokens: readonly Token[], at: number): { days: readonly number[]; length: number; raw: string } | undefined {
  // Most words start no group: one look-up instead of a walk through the table.
  if (tokens[at]?.kind !== 'word' || !GROUP_STARTS.has(tokens[at].text)) return undefined;
  for (const [words, days] of GROUPS) {
    if (words.every((w, k) => tokens[at + k]?.kind === 'word' && tokens[at + k]!.text === w)) {
      return {
        days,
        length: words.length,
        raw: tokens
          .slice(at, at + words.length)
          .map((t) => t.raw)
          .join(' '),
      };
    }
  }
  return undefined;
}

const isWord = (t: Token | undefined, words: ReadonlySet<string>): boolean => t?.kind === 'word' && words.has(t.text);

export interface Selector {
  readonly items: readonly DayItem[];
  /** The index of the first token after the days. */
  readonly end: number;
  /** Only one short name (`Mo`, `sa`): too weak a sign that a column is about days at all. */
  readonly weak: boolean;
}

/** The days that start at `at`, or undefined when no day is named there. */
export function parseSelector(tokens: readonly Token[], at: number, numbers: boolean): Selector | undefined {
  const items: DayItem[] = [];
  let i = at;
  let slash = false;
  const startsDays = (k: number) => group(tokens, k) !== undefined || dayOrLetter(tokens[k], numbers) !== undefined;
  if (isWord(tokens[i], BEFORE) && startsDays(i + 1)) i++;
  for (;;) {
    const g = group(tokens, i);
    if (g) {
      items.push({ group: g.days, raw: g.raw });
      i += g.length;
    } else {
      const from = dayOrLetter(tokens[i], numbers);
      if (!from) break;
      const joint = tokens[i + 1];
      const through = joint?.kind === 'dash' || isWord(joint, THROUGH);
      const skip = through && isWord(tokens[i + 2], BEFORE) ? 1 : 0;
      const to = through ? dayOrLetter(tokens[i + 2 + skip], numbers) : undefined;
      const joinedBy = slash ? { slash: true as const } : {};
      if (to) {
        items.push({ from, to, ...joinedBy });
        i += 3 + skip;
      } else {
        items.push({ from, ...joinedBy });
        i++;
      }
    }
    const next = tokens[i];
    const joined = next?.kind === 'comma' || next?.kind === 'and' || isWord(next, AND);
    slash = next?.raw === '/';
    if (joined && startsDays(i + 1)) i++;
    else break;
  }
  if (!items.length) return undefined;
  const only = items[0]!;
  const weak = items.length === 1 && 'from' in only && only.to === undefined && !isFullName(only.from);
  return { items, end: i, weak };
}

function isFullName(ref: DayRef): boolean {
  const text = fold(ref.raw);
  return text.length > 3 && !/^\d$/.test(text);
}

export function refsOf(items: readonly DayItem[]): DayRef[] {
  return items.flatMap((item) => ('from' in item ? (item.to ? [item.from, item.to] : [item.from]) : []));
}

/** The days the items name, once the references are settled; a range runs forward (`Fr-Mo` is Fr, Sa, Su, Mo). */
export function expand(items: readonly DayItem[], dayOf: (ref: DayRef) => number): number[] {
  const days: number[] = [];
  for (const item of items) {
    if ('group' in item) days.push(...item.group);
    else {
      const from = dayOf(item.from);
      const to = item.to ? dayOf(item.to) : from;
      for (let d = from; ; d = (d + 1) % 7) {
        days.push(d);
        if (d === to) break;
      }
    }
  }
  return [...new Set(days)];
}

/**
 * Why items cannot be read as a person means them, or undefined. A range that starts and ends on
 * one day (`de lunes a lunes`, `Mo-Mo`) means every day to some and that day to others; `/` between
 * two days that are not neighbours (`Lunedì/Sabato`) means the two days to some and the days between
 * to others. Neighbours (`Sa/So`) read the same either way.
 */
export function unclearItems(items: readonly DayItem[], dayOf: (ref: DayRef) => number): string | undefined {
  for (const [k, item] of items.entries()) {
    if (!('from' in item)) continue;
    if (item.to && dayOf(item.from) === dayOf(item.to)) {
      const day = DAY_NAMES_EN[dayOf(item.from)]!;
      return `'${item.from.raw}' to '${item.to.raw}' starts and ends on ${day}: for every day write Mo-Su, for ${day} alone write the day once`;
    }
    const before = items[k - 1];
    if (item.slash && before && 'from' in before && !before.to && !item.to) {
      const [a, b] = [dayOf(before.from), dayOf(item.from)];
      if (b !== (a + 1) % 7 && a !== (b + 1) % 7) {
        const [x, y] = [before.from.raw, item.from.raw];
        return `'${x}/${y}' could be ${DAY_NAMES_EN[a]} and ${DAY_NAMES_EN[b]} or ${DAY_NAMES_EN[a]} to ${DAY_NAMES_EN[b]}: write ${x}-${y} for the days from one to the other, or ${x}, ${y} for the two days`;
      }
    }
  }
  return undefined;
}

const DAY_NAMES_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The day of each reference, read in one language when one language reads them all (`ma di wo do vr
 * za zo` is Dutch, so `ma` is Monday). Where the languages that fit still disagree on one (a lone
 * `Di`: Tuesday in German, Sunday in French), there is no safe reading: the answer says which.
 */
export function resolveRefs(refs: readonly DayRef[], where: (ref: DayRef) => string): { days: Map<DayRef, number> } | { ambiguous: string } {
  const all = LANGUAGES.filter((l) => refs.every((r) => r.readings.has(l)));
  const days = new Map<DayRef, number>();
  const unclear = new Set<string>();
  // Refs of one word share their readings: each is settled once, however often the word is written.
  const settled = new Map<ReadonlyMap<Language, number>, number | undefined>();
  for (const r of refs) {
    const allowed = all.length ? all : [...r.readings.keys()];
    if (!settled.has(r.readings)) {
      const meant = new Set(allowed.map((l) => r.readings.get(l)!));
      settled.set(r.readings, meant.size === 1 ? [...meant][0]! : undefined);
    }
    const day = settled.get(r.readings);
    if (day !== undefined) days.set(r, day);
    else if (unclear.size < 10) unclear.add(`${where(r)} (${allowed.map((l) => `${l}: ${DAY_NAMES_EN[r.readings.get(l)!]}`).join(', ')})`);
  }
  return unclear.size ? { ambiguous: [...unclear].join('; ') } : { days };
}

/** `Monday to Friday`, `Saturday and Sunday`, `Monday, Wednesday and Friday`. */
export function dayList(days: readonly number[]): string {
  // Monday first, as people read a week.
  const order = (d: number) => (d + 6) % 7;
  const sorted = [...days].sort((a, b) => order(a) - order(b));
  const consecutive = sorted.every((d, k) => k === 0 || order(d) === order(sorted[k - 1]!) + 1);
  if (sorted.length > 2 && consecutive) return `${DAY_NAMES_EN[sorted[0]!]} to ${DAY_NAMES_EN[sorted.at(-1)!]}`;
  const names = sorted.map((d) => DAY_NAMES_EN[d]!);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]!;
}

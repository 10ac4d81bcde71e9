// Where a file keeps opening hours: a pair of columns per day, one range column per day, or one
// column holding the JSON object itself. Day names come in six languages (./weekdays.ts); which
// day a short name means is settled for the header as a whole (resolveDays).
import { distance } from './columns.js';
import { FULL_NAMES, LANGUAGES, WEEKDAYS, fold, readings, type Language } from './weekdays.js';

const OPEN_WORDS = ['since', 'opens', 'open', 'opening', 'from', 'von', 'ab', 'van'];
const CLOSE_WORDS = ['to', 'closes', 'close', 'closing', 'until', 'bis', 'tot'];
// The wire name, its natural misspelling ("open to guests") and the plain words for it.
const JSON_COLUMNS = new Set([
  'openttoguestsperiod',
  'opentoguestsperiod',
  'hours',
  'openinghours',
  'offnungszeiten',
  'openingstijden',
  'horaires',
  'horario',
  'orari',
]);

/** Hours column names as people write them, for "did you mean" suggestions. */
export const HOURS_COLUMN_EXAMPLES: readonly string[] = [
  'opentToGuestsPeriod',
  'hours',
  ...WEEKDAYS.en.flatMap(([full, short]) =>
    [full!, short!].flatMap((d) => [d, `${d}_since`, `${d}_to`, `${d} open`, `${d} close`, `${d} opens`, `${d} closes`, `${d} from`]),
  ),
];

export type DayColumns = { readonly layout: 'pair'; readonly since?: number; readonly to?: number } | { readonly layout: 'range'; readonly index: number };

export type HoursRole = 'range' | 'since' | 'to';

export type HoursColumn = { readonly role: 'json' } | { readonly role: HoursRole; readonly readings: ReadonlyMap<Language, number> };

/** The weekday a JSON key or name stands for (`Sunday`, `sun`, `0`, `Sonntag` → 0) when every language agrees. */
export function dayIndex(name: string): number | undefined {
  const days = new Set(readings(fold(name)).values());
  return days.size === 1 ? [...days][0] : undefined;
}

/** What an hours column is, from its name: `mon_since`, `Monday Open`, `0 to`, `Di`, `mié.`… */
export function hoursColumn(column: string): HoursColumn | undefined {
  const n = fold(column);
  if (JSON_COLUMNS.has(n)) return { role: 'json' };
  // The longest day name that starts the column decides the role: `montagvon` is Montag + von.
  let best: { role: HoursRole; token: string } | undefined;
  for (let cut = Math.min(n.length, 12); cut >= 1 && !best; cut--) {
    const token = n.slice(0, cut);
    const rest = n.slice(cut);
    const role: HoursRole | undefined =
      rest === '' || rest === 'hours' ? 'range' : OPEN_WORDS.includes(rest) ? 'since' : CLOSE_WORDS.includes(rest) ? 'to' : undefined;
    if (role && readings(token).size > 0) best = { role, token };
  }
  return best && { role: best.role, readings: readings(best.token) };
}

export interface DayColumn {
  readonly index: number;
  readonly column: string;
  readonly readings: ReadonlyMap<Language, number>;
}

/**
 * The weekday of each day column, read in one language when one language reads them all (`ma di wo
 * do vr za zo` is Dutch, so `ma` is Monday). Where the languages that fit still disagree on a column
 * (a lone `Di`: Tuesday in German, Sunday in French), there is no safe reading: an error says so.
 */
export function resolveDays(columns: readonly DayColumn[]): { days: Map<number, number> } | { ambiguous: string } {
  const all = LANGUAGES.filter((l) => columns.every((c) => c.readings.has(l)));
  const days = new Map<number, number>();
  const unclear: string[] = [];
  for (const c of columns) {
    const allowed = all.length ? all : [...c.readings.keys()];
    const meant = new Set(allowed.map((l) => c.readings.get(l)!));
    if (meant.size === 1) days.set(c.index, [...meant][0]!);
    else unclear.push(`'${c.column}' (${allowed.map((l) => `${l}: ${DAY_NAMES_EN[c.readings.get(l)!]}`).join(', ')})`);
  }
  return unclear.length ? { ambiguous: unclear.join('; ') } : { days };
}

const DAY_NAMES_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A column name one or two typos from a weekday in some language (`Wednsday`, `Donerstag`). */
export function nearWeekday(column: string): string | undefined {
  const n = fold(column).replace(/(since|opens?|closes?|from|to|von|bis)$/, '');
  if (n.length < 5) return undefined;
  return FULL_NAMES.find((full) => distance(n, full) <= (full.length >= 8 ? 2 : 1));
}

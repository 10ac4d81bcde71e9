// Where a file keeps opening hours: a pair of columns per day, one range column per day, or one
// column holding the JSON object itself. Day names come in six languages (./weekdays.ts); which
// day a short name means is settled for the header as a whole (resolveDays).
import { distance } from './columns.js';
import { dayRef, parseSelector, tokenize, type DayItem } from './day-words.js';
import { fold, fullNames, readings, weekdays } from './weekdays.js';

const OPEN_WORDS = ['since', 'opens', 'open', 'opening', 'from', 'von', 'ab', 'van', 'ouverture', 'apertura', 'abre', 'opent', 'offnung', 'desde', 'dalle'];
const CLOSE_WORDS = [
  'to',
  'closes',
  'close',
  'closing',
  'until',
  'bis',
  'tot',
  'fermeture',
  'chiusura',
  'cierre',
  'cierra',
  'sluit',
  'sluiting',
  'schluss',
  'hasta',
  'alle',
];
// Two periods of one day (a lunch break): `Monday Morning` / `Monday Afternoon`, `Mo Open 2`.
const FIRST_WORDS = ['morning', 'am', 'vormittag', 'vormittags', 'morgens', 'matin', 'matinee', 'ochtend', 'voormiddag', 'manana', 'mattina', 'mattino'];
const SECOND_WORDS = [
  'afternoon',
  'pm',
  'evening',
  'nachmittag',
  'nachmittags',
  'abend',
  'abends',
  'midi',
  'soir',
  'middag',
  'namiddag',
  'avond',
  'tarde',
  'pomeriggio',
  'sera',
];
// Words that say nothing more about the column: `Monday opening time`, `Mo-Fr Öffnungszeiten`.
const FILLER_WORDS = [
  'hours',
  'hour',
  'time',
  'times',
  'zeit',
  'zeiten',
  'uhrzeit',
  'heure',
  'heures',
  'hora',
  'horas',
  'ora',
  'orario',
  'tijd',
  'uur',
  'apres',
];
const HOURS_WORDS = new Set([
  'opening',
  'hours',
  'offnungszeiten',
  'openingstijden',
  'openingsuren',
  'horaires',
  'horaire',
  'horario',
  'horarios',
  'orari',
  'orario',
  'godziny',
  'otwarcia',
  'oppettider',
  'abningstider',
  'apningstider',
  'calisma',
  'acilis',
  'saatleri',
  '営業時間',
]);
// The wire name, its natural misspelling ("open to guests") and the plain words for it.
const JSON_COLUMNS = new Set([
  'openttoguestsperiod',
  'opentoguestsperiod',
  'hours',
  'openinghours',
  // A week in one text column, as point-of-sale and listing exports head it (Lightspeed's `Store Hours`).
  'storehours',
  'businesshours',
  'locationhours',
  'regularhours',
  'offnungszeiten',
  'openingstijden',
  'horaires',
  'horario',
  'orari',
  // pt, pl, sv, da, nb, tr, ja, folded
  'horariodefuncionamento',
  'horariodeatendimento',
  'godzinyotwarcia',
  'oppettider',
  'abningstider',
  'apningstider',
  'calismasaatleri',
  'acilissaatleri',
  '営業時間',
]);

/** Hours column names as people write them, for "did you mean" suggestions. */
export function hoursColumnExamples(): readonly string[] {
  return [
    'opentToGuestsPeriod',
    'hours',
    ...weekdays().en.flatMap(([full, short]) =>
      [full!, short!].flatMap((d) => [d, `${d}_since`, `${d}_to`, `${d} open`, `${d} close`, `${d} opens`, `${d} closes`, `${d} from`]),
    ),
  ];
}

export type DayColumns = { readonly layout: 'pair'; readonly since?: number; readonly to?: number } | { readonly layout: 'range'; readonly index: number };

export type HoursRole = 'range' | 'since' | 'to';

export type HoursColumn =
  | { readonly role: 'json' }
  /** Slot 1 is a day's only or first period; 2 and 3 are later ones (`Monday Afternoon`, `Mo Open 2`). */
  | { readonly role: HoursRole; readonly slot: number; readonly items: readonly DayItem[] }
  /** Days are named, but the rest of the name is not understood (`Monday notes`). */
  | { readonly role: 'unplaced'; readonly rest: string };

/** The weekday a JSON key or name stands for (`Sunday`, `sun`, `0`, `Sonntag` → 0) when every language agrees. */
export function dayIndex(name: string): number | undefined {
  const days = new Set(readings(fold(name)).values());
  return days.size === 1 ? [...days][0] : undefined;
}

// A restaurant's services, in the order of the day (Toast's `Monday Lunch` / `Monday Dinner`): each a period.
const MEAL_SLOTS: Readonly<Record<string, number>> = { breakfast: 1, brunch: 1, lunch: 2, dinner: 3, supper: 3 };

/** Role and slot from the words after the days, or undefined when one of them is not understood. */
function roleOf(words: readonly string[]): { role: HoursRole; slot: number } | undefined {
  let role: HoursRole = 'range';
  let slot = 1;
  for (const w of words) {
    if (OPEN_WORDS.includes(w)) role = 'since';
    else if (CLOSE_WORDS.includes(w)) role = 'to';
    else if (FIRST_WORDS.includes(w)) slot = 1;
    else if (SECOND_WORDS.includes(w)) slot = 2;
    else if (/^[1-3]$/.test(w)) slot = Number(w);
    else if (Object.hasOwn(MEAL_SLOTS, w)) slot = MEAL_SLOTS[w]!;
    else if (!FILLER_WORDS.includes(w)) return undefined;
  }
  return { role, slot };
}

/** What an hours column is, from its name: `mon_since`, `Monday Open`, `0 to`, `Di`, `mié.`, `Mo-Fr`, `Weekdays`… */
export function hoursColumn(column: string): HoursColumn | undefined {
  const n = fold(column);
  if (JSON_COLUMNS.has(n)) return { role: 'json' };
  const tokens = tokenize(column, false);
  let at = 0;
  while (tokens[at]?.kind === 'word' && HOURS_WORDS.has(tokens[at]!.text) && parseSelector(tokens, at, true) === undefined) at++;
  const selector = parseSelector(tokens, at, true);
  if (selector) {
    const rest = tokens.slice(selector.end).filter((t) => t.kind === 'word' || t.kind === 'num');
    // `Mo-Fr Opening Hours` says what `Mo-Fr` says; `Monday Opening` is the opening time.
    const words = rest
      .map((t) => t.text)
      .join(' ')
      .replace(/\bopening hours\b/g, '')
      .split(' ')
      .filter((w) => w !== '' && (!HOURS_WORDS.has(w) || w === 'opening'));
    const found = roleOf(words);
    if (found) return { ...found, items: selector.items };
    // `Mon-Frei` looks like a range of days even though `Mon` alone is a weak sign; a lone letter
    // before a dash does not (`X-Ray`, `S-Bahn`).
    const lone = selector.items[0];
    const letter = lone !== undefined && 'from' in lone && lone.from.letter === true;
    if (!selector.weak || (tokens[selector.end]?.kind === 'dash' && !letter)) return { role: 'unplaced', rest: rest.map((t) => t.raw).join(' ') };
    return undefined;
  }
  // One word with no separators: the longest day name that starts it decides (`montagvon` is Montag + von).
  for (let cut = Math.min(n.length, 12); cut >= 1; cut--) {
    const from = dayRef({ kind: 'word', raw: n.slice(0, cut), text: n.slice(0, cut) }, true);
    const rest = n.slice(cut);
    const found = from && roleOf(rest === '' ? [] : [rest]);
    if (from && found) return { ...found, items: [{ from }] };
  }
  return undefined;
}

/** A column name one or two typos from a weekday in some language (`Wednsday`, `Donerstag`). */
export function nearWeekday(column: string): string | undefined {
  const n = fold(column).replace(/(since|opens?|closes?|from|to|von|bis)$/, '');
  if (n.length < 5) return undefined;
  return fullNames().find((full) => distance(n, full) <= (full.length >= 8 ? 2 : 1));
}

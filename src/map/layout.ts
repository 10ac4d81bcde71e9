// Where a file keeps opening hours: a pair of columns per day, one range column per day, or one
// column holding the JSON object itself.
import { normalise } from './columns.js';

const DAY_TOKENS: readonly (readonly string[])[] = [
  ['sunday', 'sun', 'su', '0'],
  ['monday', 'mon', 'mo', '1'],
  ['tuesday', 'tues', 'tue', 'tu', '2'],
  ['wednesday', 'wed', 'we', '3'],
  ['thursday', 'thurs', 'thur', 'thu', 'th', '4'],
  ['friday', 'fri', 'fr', '5'],
  ['saturday', 'sat', 'sa', '6'],
];
const OPEN_WORDS = ['since', 'opens', 'open', 'from'];
const CLOSE_WORDS = ['to', 'closes', 'close'];
// The wire name, its natural misspelling ("open to guests") and the plain words for it.
const JSON_COLUMNS = new Set(['openttoguestsperiod', 'opentoguestsperiod', 'hours', 'openinghours']);

/** Hours column names as people write them, for "did you mean" suggestions. */
export const HOURS_COLUMN_EXAMPLES: readonly string[] = [
  'opentToGuestsPeriod',
  'hours',
  ...DAY_TOKENS.flatMap(([full, short]) =>
    [full!, short!].flatMap((d) => [d, `${d}_since`, `${d}_to`, `${d} open`, `${d} close`, `${d} opens`, `${d} closes`, `${d} from`]),
  ),
];

export type DayColumns =
  | { readonly layout: 'pair'; readonly since?: number; readonly to?: number }
  | { readonly layout: 'range'; readonly index: number };

export type HoursColumn =
  | { readonly role: 'json' }
  | { readonly role: 'range'; readonly day: number }
  | { readonly role: 'since' | 'to'; readonly day: number };

/** The weekday a name stands for (`Sunday`, `sun`, `su`, `0` → 0), or undefined. */
export function dayIndex(name: string): number | undefined {
  const n = normalise(name);
  const day = DAY_TOKENS.findIndex((tokens) => tokens.includes(n));
  return day === -1 ? undefined : day;
}

/** What an hours column is, from its normalised name: `mon_since`, `Monday Open`, `0 to`, `tue`… */
export function hoursColumn(column: string): HoursColumn | undefined {
  const n = normalise(column);
  if (JSON_COLUMNS.has(n)) return { role: 'json' };
  for (let day = 0; day < 7; day++) {
    for (const token of DAY_TOKENS[day]!) {
      if (!n.startsWith(token)) continue;
      const rest = n.slice(token.length);
      if (rest === '' || rest === 'hours') return { role: 'range', day };
      if (OPEN_WORDS.includes(rest)) return { role: 'since', day };
      if (CLOSE_WORDS.includes(rest)) return { role: 'to', day };
    }
  }
  return undefined;
}

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
const JSON_COLUMNS = new Set(['opentoguestsperiod', 'opentguestsperiod', 'hours', 'openinghours']);

export type DayColumns =
  | { readonly layout: 'pair'; readonly since?: number; readonly to?: number }
  | { readonly layout: 'range'; readonly index: number };

export type HoursColumn =
  | { readonly role: 'json' }
  | { readonly role: 'range'; readonly day: number }
  | { readonly role: 'since' | 'to'; readonly day: number };

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

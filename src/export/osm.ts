// The recorded week as OpenStreetMap's `opening_hours` (https://wiki.openstreetmap.org/wiki/Key:opening_hours):
// `Mo-Fr 09:00-18:00; Sa 10:00-14:00`. Days with the same hours are one rule; a day the value does
// not name is closed, as the key defines it. A night past midnight is written as OpenStreetMap does,
// `Fr 22:00-02:00`; the service's whole day, 6 to 30, as the extended time `06:00-30:00`, since
// `06:00-06:00` reads as opening and closing at once to this tool.
//
// Rules are joined with `; ` — but with `, ` when a night runs past midnight: after `;` a later rule
// replaces the whole of its day, the previous night's hours after midnight included, where `,` adds.
import { FIELDS } from '../contract/fields.js';
import { KINDS } from '../contract/kinds.js';
import { cellOf, type Table } from './layout.js';
import { MONDAY_FIRST, dayGroups, exactClocks, type DayGroup } from './week.js';

const NAMES: Readonly<Record<number, string>> = { 0: 'Su', 1: 'Mo', 2: 'Tu', 3: 'We', 4: 'Th', 5: 'Fr', 6: 'Sa' };

/** `Mo-Fr`, `Mo,We,Fr`, `Mo-We,Sa`: runs of three days or more as a range. */
function daysText(days: readonly number[]): string {
  const names = days.map((d) => NAMES[d]!);
  const at = days.map((d) => MONDAY_FIRST.indexOf(d as (typeof MONDAY_FIRST)[number]));
  const parts: string[] = [];
  for (let i = 0; i < at.length;) {
    let j = i;
    while (j + 1 < at.length && at[j + 1] === at[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${names[i]}-${names[j]}`);
    else parts.push(...names.slice(i, j + 1));
    i = j + 1;
  }
  return parts.join(',');
}

function rangeText(key: string, group: DayGroup): string {
  const [since, to] = exactClocks(key, group.days[0]!, group.hours, "OpenStreetMap's opening_hours");
  if (since !== to) return `${since}-${to}`;
  return `${since}-${exactClocks(key, group.days[0]!, group.hours, "OpenStreetMap's opening_hours", true)[1]}`;
}

/** A store card's week as an `opening_hours` value; `Mo-Su off` when no day is open. */
export function osmHours(period: unknown, key: string): string {
  const groups = dayGroups(period);
  if (!groups.length) return 'Mo-Su off';
  const overnight = groups.some((g) => g.hours.to > 24);
  return groups.map((g) => `${daysText(g.days)} ${rangeText(key, g)}`).join(overnight ? ', ' : '; ');
}

/**
 * The OpenStreetMap file: the template's columns with the week in one `opening_hours` column. An
 * OpenStreetMap import keeps the key and `opening_hours` (and `email`, a key of its own there); the
 * whole file uploads back to the same records, the week read by the tool's week reader.
 */
export function osmTable(records: Iterable<string>): Table {
  const fields = FIELDS['store-cards'].filter((f) => f !== 'opentToGuestsPeriod');
  const keyField = KINDS['store-cards'].keyField;
  return {
    header: [...fields, 'opening_hours'],
    *rows() {
      for (const json of records) {
        const record = JSON.parse(json) as Record<string, unknown>;
        const key = String(record[keyField]);
        yield [...fields.map((f) => cellOf(record[f], key, f)), osmHours(record.opentToGuestsPeriod, key)];
      }
    },
  };
}

// The weekday columns of a header, placed: which column (or pair) gives each day's first period and
// which its later ones. A column may name several days (`Mo-Fr`, `Weekdays`); every short name in
// the header is read in one language (`Ma-Vr` with `Za` is Dutch), or the header is an error.
import { issue, type Issue } from '../issues.js';
import { checkLetters, expand, refsOf, resolveRefs, unclearItems, type DayItem, type DayRef } from './day-words.js';
import { DAY_NAMES } from './hours.js';
import type { DayColumns, HoursRole } from './layout.js';
import { fold } from './weekdays.js';

export interface DayColumn {
  readonly index: number;
  readonly column: string;
  readonly role: HoursRole;
  readonly slot: number;
  readonly items: readonly DayItem[];
}

export interface PlacedDays {
  readonly days: (DayColumns | undefined)[];
  readonly later: (readonly DayColumns[])[];
  /** Header problems, each with the index of the column it is about. */
  readonly issues: readonly { readonly index: number; readonly issue: Issue }[];
}

const SLOTS = 3;

export function placeDays(dayColumns: readonly DayColumn[], columns: readonly string[]): PlacedDays {
  const found: { index: number; issue: Issue }[] = [];
  const days = new Array<DayColumns | undefined>(7).fill(undefined);
  const later = Array.from({ length: 7 }, (): DayColumns[] => []);
  if (!dayColumns.length) return { days, later, issues: found };

  const columnOf = new Map<DayRef, string>();
  for (const c of dayColumns) for (const ref of refsOf(c.items)) columnOf.set(ref, c.column);
  const where = (ref: DayRef) => {
    const column = columnOf.get(ref)!;
    return fold(column) === fold(ref.raw) ? `'${column}'` : `'${ref.raw}' in '${column}'`;
  };
  const letters = checkLetters([...columnOf.keys()], where);
  if (letters) {
    found.push({
      index: dayColumns[0]!.index,
      issue: issue('error', 'AMBIGUOUS_WEEKDAY', `weekday columns are unclear: ${letters}; or leave the column out with --ignore-column`),
    });
    return { days, later, issues: found };
  }
  const resolved = resolveRefs([...columnOf.keys()], where);
  if ('ambiguous' in resolved) {
    found.push({
      index: dayColumns[0]!.index,
      issue: issue(
        'error',
        'AMBIGUOUS_WEEKDAY',
        `weekday columns can be read in more than one language: ${resolved.ambiguous}; rename the columns to full day names (Dienstag, dinsdag, dimanche…), or leave one out with --ignore-column`,
      ),
    });
    return { days, later, issues: found };
  }

  // `Lunedì/Sabato`, `Mo-Mo`: days that a person may mean two ways are asked about, never placed.
  for (const c of dayColumns) {
    const unclear = unclearItems(c.items, (ref) => resolved.days.get(ref)!);
    if (unclear) found.push({ index: c.index, issue: issue('error', 'AMBIGUOUS_WEEKDAY', `column '${c.column}' is unclear: ${unclear}; rename the column`) });
  }
  if (found.length) return { days, later, issues: found };

  // Per period slot, per weekday: the columns that give it.
  const slots = Array.from({ length: SLOTS }, () => new Array<DayColumns | undefined>(7).fill(undefined));
  for (const c of dayColumns) {
    const slot = slots[c.slot - 1]!;
    for (const day of expand(c.items, (ref) => resolved.days.get(ref)!)) {
      const held = slot[day];
      const other = held === undefined ? undefined : held.layout === 'range' ? held.index : c.role === 'range' ? (held.since ?? held.to) : held[c.role];
      if (other !== undefined) {
        // Two columns for one day would leave the day to whichever comes last: never silently.
        found.push({
          index: c.index,
          issue: issue('error', 'HOURS_TWICE', `${DAY_NAMES[day]} is given by both '${columns[other]}' and '${c.column}'; keep one of them`),
        });
        continue;
      }
      if (c.role === 'range') slot[day] = { layout: 'range', index: c.index };
      else slot[day] = { ...(held?.layout === 'pair' ? held : { layout: 'pair' as const }), [c.role]: c.index };
    }
  }

  for (let day = 0; day < 7; day++) {
    const periods = slots.map((slot) => slot[day]).filter((d): d is DayColumns => d !== undefined);
    for (const d of periods) {
      if (d.layout === 'pair' && (d.since === undefined || d.to === undefined)) {
        const has = columns[(d.since ?? d.to)!];
        found.push({
          index: (d.since ?? d.to)!,
          issue: issue(
            'error',
            'HOURS_PAIR_INCOMPLETE',
            `${DAY_NAMES[day]} has '${has}' but no ${d.since === undefined ? 'opening' : 'closing'} column; add it, or use one range column such as '${DAY_NAMES[day]!.slice(0, 3).toLowerCase()}' holding 09:00-22:00`,
          ),
        });
      }
    }
    days[day] = periods[0];
    later[day] = periods.slice(1);
  }
  return { days, later, issues: found };
}

// `--closed-days Sa,Su` (or "closedDays" in the mapping): the weekdays a store-card file leaves out on
// purpose. A day a file gives no source for is never taken as closed on its own (MISSING_DAYS); this
// is the way to say that it is.
import { dayIndex } from './layout.js';

/** The two-letter codes of OpenStreetMap's opening_hours, Sunday first, as the tool's messages write days. */
export const DAY_CODES = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'] as const;

/** `Sa,Su`, `Sa-Su`, `Mo-Fr,Su`, `saturday, sunday`, `0,6` → the weekdays (0 = Sunday), or why not. */
export function parseDayList(text: string): { days: number[] } | { error: string } {
  const days = new Set<number>();
  const parts = text.split(',').map((p) => p.trim());
  for (const part of parts) {
    const ends = part.split(/\s*[-–]\s*/);
    if (part === '' || ends.length > 2) return { error: `'${part}' is not a day or a range of days` };
    const [from, to] = ends.map((e) => dayIndex(e));
    if (from === undefined || (ends.length === 2 && to === undefined)) {
      const unread = ends.find((e) => dayIndex(e) === undefined)!;
      return { error: `'${unread}' is not a weekday the tool can tell for sure; write ${DAY_CODES.join(', ')} or the full English name` };
    }
    for (let d = from; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === (to ?? from)) break;
    }
  }
  return { days: [...days].sort() };
}

/** The days as a --closed-days value, Monday first: `Mo,Tu,We`. */
export function dayCodes(days: readonly number[]): string {
  return [...days]
    .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
    .map((d) => DAY_CODES[d])
    .join(',');
}

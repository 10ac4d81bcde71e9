// Opening hours in human form: `Mon 08:30–21:30`, a day past midnight as `Fri 18:00–02:00 (next day)`.
import { formatDay, type DayHours } from '../contract/hours-text.js';
import type { OpenPeriod } from '../contract/schemas.js';

export { clock, formatDay } from '../contract/hours-text.js';

const SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** Monday first, as people read a week. */
const WEEK = ['1', '2', '3', '4', '5', '6', '0'] as const;

type Day = DayHours;

/** "Mon–Fri 09:00–21:00; Sat 10:00–16:00; Sun closed": equal neighbours share one entry. */
export function formatPeriod(period: OpenPeriod | Record<string, Day>): string {
  const days = period as Record<string, Day>;
  const parts: string[] = [];
  let i = 0;
  while (i < WEEK.length) {
    const text = formatDay(days[WEEK[i]!]);
    let j = i;
    while (j + 1 < WEEK.length && formatDay(days[WEEK[j + 1]!]) === text) j++;
    const name = SHORT[Number(WEEK[i])]!;
    parts.push(`${j > i ? `${name}–${SHORT[Number(WEEK[j])]}` : name} ${text}`);
    i = j + 1;
  }
  return parts.join('; ');
}

/** Only the days that differ: "Sat 10:00–16:00 → 10:00–18:00; Sun closed → 12:00–16:00". */
export function formatPeriodChange(before: unknown, after: unknown): string {
  const b = (before ?? {}) as Record<string, Day>;
  const a = (after ?? {}) as Record<string, Day>;
  const parts: string[] = [];
  for (const key of WEEK) {
    const from = formatDay(b[key]);
    const to = formatDay(a[key]);
    if (from !== to) parts.push(`${SHORT[Number(key)]} ${from} → ${to}`);
  }
  return parts.join('; ');
}

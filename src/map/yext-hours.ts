// Yext's legacy `hours` field, as its Locations export writes it: `2:9:00:17:00,3:9:00:17:00,…`, one
// entry per period, each the day (1 Sunday … 7 Saturday), the opening and the closing time. A day
// not listed is closed; a day listed twice has two periods (a lunch break). `2:00:00:00:00` is
// Yext's "open 24 hours", which the service cannot hold exactly.
import { dayHours, onePeriod, type CellOptions, type DayHours, type DayProblem } from './hours.js';
import type { WeekHours } from './week.js';

const ENTRY = String.raw`[1-7]:(?:\d{1,2}:\d{2}:\d{1,2}:\d{2}|closed)`;
const WHOLE = new RegExp(String.raw`^\s*${ENTRY}(?:\s*,\s*${ENTRY})*\s*$`, 'i');

const WHOLE_DAY = /(^|,)(\s*[1-7]):0?0:00:0?0:00(?=\s*(?:,|$))/g;

/** Whether a cell is written in Yext's format (nothing else a person writes looks like `2:9:00:17:00`). */
export function isYextHours(text: string): boolean {
  return text.length <= 2000 && WHOLE.test(text);
}

export function yextWeek(text: string, options: CellOptions): WeekHours {
  const byDay = new Map<number, DayHours[]>();
  const problems: DayProblem[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    const [d, ...rest] = entry.split(':');
    // Yext counts from Sunday as 1; the wire from Sunday as 0.
    const day = Number(d) - 1;
    const periods = byDay.get(day) ?? [];
    byDay.set(day, periods);
    if (rest[0]!.toLowerCase() === 'closed') continue;
    const since = `${rest[0]}:${rest[1]}`;
    const to = `${rest[2]}:${rest[3]}`;
    if (/^0?0:00$/.test(since) && /^0?0:00$/.test(to)) {
      problems.push({
        day,
        message: `'${entry}' is Yext's "open 24 hours", which has no exact form on the wire; the widest day the service accepts is 06:00 to 06:00 next day: write ${d}:6:00:30:00 for it`,
        // The whole cell with each such entry so written, for a `cell` fix.
        write: text.trim().replace(WHOLE_DAY, (_, start: string, n: string) => `${start}${n}:6:00:30:00`),
      });
      continue;
    }
    const read = dayHours(since, to, options.timeFormat);
    if (read === 'closed') continue;
    if ('error' in read) problems.push({ day, message: `'${entry}' (Yext's day:open:close): ${read.error}`, ...(read.code && { code: read.code }) });
    else periods.push(read);
  }
  const period: Record<string, DayHours> = {};
  for (const [day, periods] of byDay) {
    if (problems.some((p) => p.day === day)) continue;
    const one = onePeriod(periods, options.splitHours);
    if (one === 'closed') continue;
    if ('split' in one) problems.push({ day, message: one.split, code: 'SPLIT_HOURS' });
    else period[String(day)] = one;
  }
  return problems.length ? { period, problems } : { period };
}

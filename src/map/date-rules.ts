// Rules bound to dates in a week cell, as OpenStreetMap writes them: `Apr 10-15 off`, `Dec 25 off`,
// `Jun 08:00-14:00`, `Apr-Sep Sa 10-14`, `Dec 24-Jan 02 off`. The service holds one template week, so
// such a rule can only be sent for a week the person names (--hours-as-of): it is evaluated for the
// ISO week (Monday to Sunday) holding that date, and without one the cell is refused.
import { dayRef, type Token } from './day-words.js';

const MONTHS: Readonly<Record<string, number>> = Object.fromEntries(
  [
    ['jan', 'january'],
    ['feb', 'february'],
    ['mar', 'march'],
    ['apr', 'april'],
    ['may'],
    ['jun', 'june'],
    ['jul', 'july'],
    ['aug', 'august'],
    ['sep', 'sept', 'september'],
    ['oct', 'october'],
    ['nov', 'november'],
    ['dec', 'december'],
  ].flatMap((names, m) => names.map((name) => [name, m + 1])),
);

interface MonthDay {
  readonly month: number;
  readonly day?: number | undefined;
}

export interface DateRange {
  readonly from: MonthDay;
  readonly to: MonthDay;
  /** The token after the dates. */
  readonly end: number;
}

/** A month only where the word is no weekday in any language: `Mar` is Tuesday in Spanish. */
function monthAt(tokens: readonly Token[], at: number): number | undefined {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const month = MONTHS[token.text];
  return month !== undefined && dayRef(token, false) === undefined ? month : undefined;
}

/** A day of the month: a plain number, never a clock time (`Jun 08:00-14:00` is June's hours). */
function dayAt(tokens: readonly Token[], at: number): number | undefined {
  const token = tokens[at];
  if (token?.kind !== 'time' || !/^\d{1,2}$/.test(token.text)) return undefined;
  const day = Number(token.text);
  return day >= 1 && day <= 31 ? day : undefined;
}

/** The dates a rule begins with (`Apr 10-15`, `Dec 25`, `Apr-Sep`), or undefined when it begins with none. */
export function parseDates(tokens: readonly Token[], at: number): DateRange | undefined {
  const month = monthAt(tokens, at);
  if (month === undefined) return undefined;
  let i = at + 1;
  const day = dayAt(tokens, i);
  if (day !== undefined) i++;
  const from = { month, day };
  if (tokens[i]?.kind !== 'dash') return { from, to: from, end: i };
  const toMonth = monthAt(tokens, i + 1);
  if (toMonth !== undefined) {
    const toDay = day === undefined ? undefined : dayAt(tokens, i + 2);
    return { from, to: { month: toMonth, day: toDay }, end: i + (toDay === undefined ? 2 : 3) };
  }
  const toDay = day === undefined ? undefined : dayAt(tokens, i + 1);
  return toDay === undefined ? { from, to: from, end: i } : { from, to: { month, day: toDay }, end: i + 2 };
}

/** `2026-11-28` as a date, or undefined when it is not a real day in that form. */
export function parseIsoDate(text: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text ? date : undefined;
}

/** The weekdays (0 Sunday to 6 Saturday) of the ISO week holding `asOf` whose dates the range holds. */
export function daysWithin(range: DateRange, asOf: string): Set<number> {
  const date = parseIsoDate(asOf);
  if (!date) throw new Error(`not a date: ${asOf}`);
  const key = (month: number, day: number) => month * 100 + day;
  const from = key(range.from.month, range.from.day ?? 1);
  const to = key(range.to.month, range.to.day ?? 31);
  const monday = date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000;
  const days = new Set<number>();
  for (let k = 0; k < 7; k++) {
    const d = new Date(monday + k * 86_400_000);
    const at = key(d.getUTCMonth() + 1, d.getUTCDate());
    // A range may run over the new year (`Dec 24-Jan 02`).
    if (from <= to ? at >= from && at <= to : at >= from || at <= to) days.add(d.getUTCDay());
  }
  return days;
}

/** Today's date as --hours-as-of takes it, for the fix a refusal offers. */
export function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

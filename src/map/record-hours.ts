// One record's opening hours from its weekday columns. Days fed by the same cells (a `Mo-Fr` column
// feeds five) are read once, so a bad cell is one problem naming all its days, not five. Every cell
// is read, even after one fails: a record's problems are all reported in one run.
import type { RawRecord } from '../read/types.js';
import { dayList } from './day-words.js';
import type { Fix } from '../errors.js';
import { AMBIGUOUS, CLOCK_OR_DECIMAL, dayHours, isAllDay, isClosed, onePeriod, parseDay, parseTime, timeError, type DayHours } from './hours.js';
import type { DayColumns } from './layout.js';
import type { ColumnPlan } from './column-plan.js';

export interface HoursProblem {
  readonly code: 'INVALID_HOURS' | 'SPLIT_HOURS' | 'AMBIGUOUS_TIME';
  /** The weekdays the problem is about (several when one cell feeds several days). */
  readonly days: readonly number[];
  /** The column of the cell to name. */
  readonly index: number;
  readonly message: string;
  /** The flags its message offers, where they depend on the text (a dotted time: CLOCK_OR_DECIMAL). */
  readonly fixes?: readonly Fix[];
  /** The text its message says to write in the cell instead, when it names the whole cell's. */
  readonly write?: string;
}

export function cellText(value: unknown): string {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** `Monday: ` or `Monday to Friday: `, the start of a problem's message. */
export function daysLabel(days: readonly number[]): string {
  return `${dayList(days)}: `;
}

/** A cell read as the service's whole day (`Open 24 hours` is 6-30), for the OPEN_ALL_DAY note. */
export interface AllDayCell {
  readonly days: readonly number[];
  readonly index: number;
}

export function hoursFromColumns(plan: ColumnPlan, raw: RawRecord): { period: Record<string, DayHours>; problems: HoursProblem[]; allDay: AllDayCell[] } {
  // Days that read the same cells, together.
  const groups = new Map<string, { days: number[]; sources: DayColumns[] }>();
  for (let day = 0; day < 7; day++) {
    const first = plan.days[day];
    if (!first) continue;
    const sources = [first, ...(plan.later[day] ?? [])];
    const key = JSON.stringify(sources);
    const group = groups.get(key);
    if (group) group.days.push(day);
    else groups.set(key, { days: [day], sources });
  }

  const period: Record<string, DayHours> = {};
  const problems: HoursProblem[] = [];
  const allDay: AllDayCell[] = [];
  for (const { days, sources } of groups.values()) {
    const periods: DayHours[] = [];
    let failed = false;
    const fail = (index: number, message: string, code: HoursProblem['code'] = 'INVALID_HOURS', fixes?: readonly Fix[], write?: string) => {
      failed = true;
      problems.push({ code, days, index, message, ...(fixes && { fixes }), ...(write !== undefined && { write }) });
    };
    for (const source of sources) {
      if (source.layout === 'range') {
        const text = cellText(raw.cells[source.index]);
        const result = parseDay(text, plan.timeFormat);
        if (result === 'closed') continue;
        if (isAllDay(text)) allDay.push({ days, index: source.index });
        // A cell that is the whole day's range (not a part of a longer one) can be written anew.
        if ('error' in result) fail(source.index, result.error, result.code, result.fixes, result.write);
        else periods.push(...result.periods);
        continue;
      }
      const since = cellText(raw.cells[source.since!]);
      const to = cellText(raw.cells[source.to!]);
      const sinceClosed = isClosed(since);
      const toClosed = isClosed(to);
      if (sinceClosed && toClosed) continue;
      // The empty cell is the one to fill in.
      if (sinceClosed) fail(source.since!, `a closing time '${to.trim()}' but no opening time; give both, or leave both empty for a closed day`);
      else if (toClosed) fail(source.to!, `an opening time '${since.trim()}' but no closing time; give both, or leave both empty for a closed day`);
      else {
        // Each end is checked on its own, so a record with both ends wrong names both cells.
        const opening = parseTime(since, false, plan.timeFormat);
        const closing = parseTime(to, true, plan.timeFormat);
        if (typeof opening !== 'number')
          fail(source.since!, timeError('opening', since, opening), undefined, opening === AMBIGUOUS ? CLOCK_OR_DECIMAL : undefined);
        if (typeof closing !== 'number') fail(source.to!, timeError('closing', to, closing), undefined, closing === AMBIGUOUS ? CLOCK_OR_DECIMAL : undefined);
        if (typeof opening !== 'number' || typeof closing !== 'number') continue;
        const result = dayHours(since, to, plan.timeFormat);
        if (result === 'closed') continue;
        // An ambiguous clock is settled in the closing cell (write 17:00).
        if ('error' in result) fail(result.code ? source.to! : source.since!, result.error, result.code, result.fixes);
        else periods.push(result);
      }
    }
    if (failed) continue;
    const one = onePeriod(periods, plan.splitHours);
    if (one === 'closed') continue;
    if ('split' in one) {
      const first = sources[0]!;
      problems.push({ code: 'SPLIT_HOURS', days, index: first.layout === 'range' ? first.index : first.since!, message: one.split });
      continue;
    }
    for (const day of days) period[String(day)] = one;
  }
  return { period, problems, allDay };
}

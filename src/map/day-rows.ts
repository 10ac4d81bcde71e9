// One row per store per day, as point-of-sale exports write opening hours (Toast): a key column, a
// day column, and the day's hours as opening and closing columns or one range. The rows of one key
// are one store card when they agree on everything but the day and its hours; where they do not,
// the card is refused naming the rows, never one of them chosen (nor rows deleted as duplicates).
import type { Fix } from '../errors.js';
import { issue, type Issue } from '../issues.js';
import type { RawRecord } from '../read/types.js';
import { normalise } from './columns.js';
import { dayCodes } from './closed-days.js';
import { dayList } from './day-words.js';
import { AMBIGUOUS, CLOCK_OR_DECIMAL, DAY_NAMES, dayHours, isClosed, onePeriod, parseDay, parseTime, timeError, type DayHours } from './hours.js';
import { dayIndex, hoursColumn } from './layout.js';
import type { TimeFormats } from './time-format.js';

/** The columns of the layout: the day's, and its hours (a pair, or the range column the plan reads as hours). */
export interface DayRowColumns {
  readonly day: number;
  readonly since?: number;
  readonly to?: number;
}

const DAY_COLUMNS = new Set([
  'day',
  'dayofweek',
  'weekday',
  'dayname',
  'wochentag',
  'jour',
  'jourdelasemaine',
  'dia',
  'diadelasemana',
  'giorno',
  'dag',
  'weekdag',
]);
const OPEN_COLUMNS = new Set([
  'open',
  'opens',
  'opentime',
  'opening',
  'openingtime',
  'opensat',
  'starttime',
  'start',
  'from',
  'von',
  'offnet',
  'ouverture',
  'apertura',
  'van',
]);
const CLOSE_COLUMNS = new Set([
  'close',
  'closes',
  'closetime',
  'closing',
  'closingtime',
  'closesat',
  'endtime',
  'end',
  'to',
  'bis',
  'schliesst',
  'fermeture',
  'cierre',
  'chiusura',
  'tot',
]);

/**
 * The day column and the opening and closing columns, or undefined when the file is not one row per
 * day: it needs a day column and the day's hours, as a pair or as one range column (`Hours`, which
 * the plan then reads as each row's range).
 */
export function findDayRows(columns: readonly string[], taken: ReadonlySet<number>, hoursMapped = false): DayRowColumns | undefined {
  const find = (names: ReadonlySet<string>) => columns.findIndex((c, i) => c !== '' && !taken.has(i) && names.has(normalise(c)));
  const day = find(DAY_COLUMNS);
  if (day === -1) return undefined;
  const since = find(OPEN_COLUMNS);
  const to = find(CLOSE_COLUMNS);
  if (since !== -1 && to !== -1) return { day, since, to };
  // The range column by its name, or the one --map names for the hours.
  const range = hoursMapped || columns.some((c, i) => !taken.has(i) && hoursColumn(c)?.role === 'json');
  return range && since === -1 && to === -1 ? { day } : undefined;
}

/** One row's day and what it says of it: its periods, or closed. */
export interface DayRow {
  readonly day: number;
  readonly periods: readonly DayHours[] | 'closed';
}

/** A row's problem, for mapRecord to report on the cell it names. */
export interface DayRowProblem {
  readonly index: number;
  readonly message: string;
  readonly code?: 'AMBIGUOUS_TIME';
  readonly fixes?: readonly Fix[];
}

const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The day a row is about and its hours: from the pair of columns, or the range column `range`. */
export function readDayRow(
  columns: DayRowColumns,
  range: number | undefined,
  raw: RawRecord,
  format: TimeFormats | undefined,
): { row: DayRow } | { problems: DayRowProblem[] } {
  const written = text(raw.cells[columns.day]).trim();
  const day = dayIndex(written);
  const problems: DayRowProblem[] = [];
  if (day === undefined)
    problems.push({
      index: columns.day,
      message: written ? `'${written}' is not a weekday; write a day name such as Monday or Mon` : 'the day is missing; write a day name such as Monday or Mon',
    });
  let periods: DayHours[] | 'closed' = 'closed';
  if (range !== undefined) {
    const result = parseDay(text(raw.cells[range]), format);
    if (result === 'closed') periods = 'closed';
    else if ('error' in result)
      problems.push({ index: range, message: result.error, ...(result.code && { code: result.code }), ...(result.fixes && { fixes: result.fixes }) });
    else periods = result.periods;
  } else {
    const since = text(raw.cells[columns.since!]);
    const to = text(raw.cells[columns.to!]);
    if (isClosed(since) && !isClosed(to))
      problems.push({ index: columns.since!, message: `a closing time '${to.trim()}' but no opening time; give both, or leave both empty for a closed day` });
    else if (!isClosed(since) && isClosed(to))
      problems.push({ index: columns.to!, message: `an opening time '${since.trim()}' but no closing time; give both, or leave both empty for a closed day` });
    else if (!isClosed(since)) {
      const opening = parseTime(since, false, format);
      const closing = parseTime(to, true, format);
      if (typeof opening !== 'number')
        problems.push({ index: columns.since!, message: timeError('opening', since, opening), ...(opening === AMBIGUOUS && { fixes: CLOCK_OR_DECIMAL }) });
      if (typeof closing !== 'number')
        problems.push({ index: columns.to!, message: timeError('closing', to, closing), ...(closing === AMBIGUOUS && { fixes: CLOCK_OR_DECIMAL }) });
      if (typeof opening === 'number' && typeof closing === 'number') {
        const result = dayHours(since, to, format);
        if (result !== 'closed' && 'error' in result)
          problems.push({ index: result.code ? columns.to! : columns.since!, message: result.error, ...(result.code && { code: result.code }) });
        else if (result !== 'closed') periods = [result];
      }
    }
  }
  return problems.length || day === undefined ? { problems } : { row: { day, periods } };
}

/** One row as read: its candidate (hours not yet set), its issues, and the day it gives. */
export interface RowOfStore {
  readonly raw: RawRecord;
  readonly candidate: Record<string, unknown>;
  readonly issues: readonly Issue[] | undefined;
  readonly row: DayRow | undefined;
}

/**
 * The rows of one key as one store card: the first row's fields, the week from every row's day. Rows
 * that give a field differently, or a day both closed and open, are DAY_ROWS_DISAGREE naming them.
 */
export function mergeDayRows(
  rows: readonly RowOfStore[],
  split: 'span' | undefined,
  columnOf: (field: string) => string | null,
): { candidate: Record<string, unknown>; issues: Issue[] } {
  const first = rows[0]!;
  const issues: Issue[] = rows.flatMap((r) => [...(r.issues ?? [])]);
  const key = text(first.candidate.nodeKey);
  const lines = (rs: readonly RowOfStore[]) => rs.map((r) => r.raw.line).join(', ');

  for (const field of Object.keys(first.candidate)) {
    if (field === 'opentToGuestsPeriod') continue;
    const values = new Map<string, RowOfStore[]>();
    for (const r of rows) {
      const v = JSON.stringify(r.candidate[field] ?? null);
      values.set(v, [...(values.get(v) ?? []), r]);
    }
    if (values.size < 2) continue;
    const said = [...values].map(([v, rs]) => `${v === 'null' ? 'empty' : v} on line${rs.length > 1 ? 's' : ''} ${lines(rs)}`).join(', ');
    const other = [...values.values()][1]![0]!;
    issues.push(
      issue(
        'error',
        'DAY_ROWS_DISAGREE',
        `the rows of store '${key}' (one per day, lines ${lines(rows)}) give ${field} differently: ${said}; make them agree, as they are one store card`,
        { line: other.raw.line, column: columnOf(field), field, value: other.candidate[field] as string | number | null },
      ),
    );
  }

  const byDay = new Map<number, RowOfStore[]>();
  for (const r of rows) if (r.row) byDay.set(r.row.day, [...(byDay.get(r.row.day) ?? []), r]);
  const period: Record<string, DayHours> = {};
  for (const [day, dayRows] of [...byDay].sort(([a], [b]) => a - b)) {
    const open = dayRows.filter((r) => r.row!.periods !== 'closed');
    const closed = dayRows.filter((r) => r.row!.periods === 'closed');
    if (open.length && closed.length) {
      issues.push(
        issue(
          'error',
          'DAY_ROWS_DISAGREE',
          `store '${key}' has ${DAY_NAMES[day]} closed on line${closed.length > 1 ? 's' : ''} ${lines(closed)} but open on line${open.length > 1 ? 's' : ''} ${lines(open)}; keep the rows that are right`,
          { line: closed[0]!.raw.line, field: `opentToGuestsPeriod.${day}` },
        ),
      );
      continue;
    }
    const one = onePeriod(
      open.flatMap((r) => r.row!.periods as DayHours[]),
      split,
    );
    if (one === 'closed') continue;
    if ('split' in one) {
      issues.push(
        issue('error', 'SPLIT_HOURS', `${dayList([day])}: ${one.split} (lines ${lines(open)})`, {
          line: open[0]!.raw.line,
          field: `opentToGuestsPeriod.${day}`,
          fixes: [{ kind: 'flags', args: ['--split-hours', 'span'] }],
        }),
      );
      continue;
    }
    period[String(day)] = one;
  }
  return { candidate: { ...first.candidate, opentToGuestsPeriod: period }, issues };
}

/**
 * MISSING_DAYS for one row per store per day: a weekday no row of the whole file names would be sent
 * closed for every store, which the file never said (an export that leaves out a day looks the same as
 * a chain closed that day). Named, unless --closed-days says so; a day some store has a row for is the
 * file's word that a store without one is closed then. A day --closed-days names that rows give is
 * HOURS_TWICE, as for day columns.
 */
export function missingDayRows(named: ReadonlySet<number>, closed: readonly number[], line: number): Issue | undefined {
  const twice = closed.filter((d) => named.has(d));
  if (twice.length)
    return issue(
      'error',
      'HOURS_TWICE',
      `${dayList(twice)} ${twice.length > 1 ? 'are' : 'is'} declared closed with --closed-days but rows of the file give ${twice.length > 1 ? 'their' : 'its'} hours; drop ${dayCodes(twice)} from --closed-days`,
      { line, field: 'opentToGuestsPeriod', value: dayCodes(twice) },
    );
  const missing = [0, 1, 2, 3, 4, 5, 6].filter((d) => !named.has(d) && !closed.includes(d));
  if (!missing.length) return undefined;
  // A later --closed-days replaces an earlier one: the value to give is every closed day.
  const allClosed = dayCodes([...closed, ...missing]);
  const they = missing.length > 1 ? 'they' : 'it';
  return issue(
    'error',
    'MISSING_DAYS',
    `no row of the file names ${dayList(missing)}, so ${they} would be sent as closed for every store; if the stores are closed then, say so with --closed-days ${allClosed}`,
    { line, field: 'opentToGuestsPeriod', value: dayCodes(missing), fixes: [{ kind: 'flags', args: ['--closed-days', allClosed] }] },
  );
}

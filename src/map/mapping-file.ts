// `--map mapping.json` or inline `--map '{"employeeID": "Personalnummer"}'`: wire field to the column
// (or columns, joined with a space) that feeds it, plus the columns to leave out on purpose.
//   {"name": ["First Name", "Last Name"], "ignore": ["Store"], "timeFormat": "clock", "splitHours": "span"}
// `ignore`, `timeFormat`, `splitHours`, `closedDays`, `status` and `notStatus` are not wire fields of
// either kind, so they cannot be read as one. `status` says which rows of an HR export to keep, and
// `notStatus` which status-like columns are none (--no-status-column):
//   {"status": {"column": "Employment Status", "active": ["Active", "On Leave"]}, "notStatus": ["Status"]}
// The hours may name one column (the week, or its JSON) or a column per weekday. The hours may name one column (the week, or its JSON) or a column per weekday:
//   {"opentToGuestsPeriod": {"Mo": "Segunda-feira", "Sa": {"since": "Sáb abre", "to": "Sáb fecha"}}, "closedDays": "Su"}
import type { Kind } from '../contract/kinds.js';
import { FIELDS } from '../contract/fields.js';
import { UsageError } from '../errors.js';
import { readSmallFile } from '../read/small-file.js';
import { FORBIDDEN_KEYS } from '../read/types.js';
import { hiddenCharacter, nameOf, shown } from '../validate/lookalike.js';
import { IDENTIFYING, SHOWN_AS_IS } from '../validate/text.js';
import { TIME_FORMAT_HELP, parseTimeFormats, type TimeFormats } from './time-format.js';
import { parseDayList } from './closed-days.js';
import { dayIndex } from './layout.js';
import type { StatusSetting } from './status-column.js';

export interface Mapping {
  /** Wire field → the columns that feed it, as written in the mapping (one, or several to join). */
  readonly fields?: Readonly<Record<string, readonly string[]>>;
  /** Columns to leave out without a word, even when they look like a field or a weekday. */
  readonly ignore?: readonly string[];
  /** How the file writes `8.30`: as 08:30 (clock) or as 8.3 hours (decimal); unset, it is an error. */
  readonly timeFormat?: TimeFormats | undefined;
  /** What a day with two periods (a lunch break) becomes: `span` sends first opening to last closing; unset, an error. */
  readonly splitHours?: 'span' | undefined;
  /** Store cards: the weekdays the file leaves out because the stores are closed then (--closed-days). */
  readonly closedDays?: readonly number[] | undefined;
  /** Which rows of an HR export to keep by their status column (--status-column, --active); the others are left out. */
  readonly status?: StatusSetting | undefined;
  /** Columns the person says are no employment status (--no-status-column): every row is kept, the column left out. */
  readonly notStatus?: readonly string[] | undefined;
  /** Store cards: the column (or opening and closing pair) of a weekday, as the mapping names it. */
  readonly days?: readonly MappedDay[];
  /** A field's value table (`"roleCode": {"column": "Job", "values": {"Store Manager": 1}}`): cell text → the value sent. */
  readonly values?: Readonly<Record<string, ValueTable>>;
}

/** Cell text, as written, to the value sent for it; a cell not in the table is VALUE_NOT_IN_TABLE. */
export type ValueTable = Readonly<Record<string, string | number>>;

/** A weekday's column named in the mapping: `"Mo": "Segunda-feira"` or `"Mo": {"since": …, "to": …}`. */
export interface MappedDay {
  readonly day: number;
  /** The key as written in the mapping (`Mo`), for messages. */
  readonly key: string;
  readonly columns: { readonly range: string } | { readonly since: string; readonly to: string };
  /** Which of the day's periods (1 to 3): a list gives one day several columns (`["Monday Lunch", "Monday Dinner"]`). */
  readonly slot?: number;
}

export interface MappingFlags {
  readonly ignoreColumns?: readonly string[] | undefined;
  readonly timeFormat?: string | undefined;
  readonly splitHours?: string | undefined;
  readonly closedDays?: string | undefined;
  readonly statusColumn?: string | undefined;
  readonly active?: string | undefined;
  readonly noStatusColumns?: readonly string[] | undefined;
}

function bad(where: string, message: string, hint: string): UsageError {
  return new UsageError('BAD_MAPPING', `${where}: ${message}`, hint);
}

function columnList(where: string, key: string, value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : undefined;
  if (!list || list.length === 0 || list.some((c) => typeof c !== 'string' || c.trim() === '')) {
    throw bad(where, `the column for ${key} must be a column name or a list of them`, `e.g. {"${key}": "My column"} or {"name": ["First Name", "Last Name"]}`);
  }
  return (list as string[]).map((c) => c.trim());
}

/** No mapping is anywhere near this large; a bigger file is the wrong file (or /dev/zero). */
const MAX_MAPPING_BYTES = 1024 * 1024;

function parseSource(source: string): { where: string; value: unknown } {
  // Inline JSON starts with `{`; a file name never does in practice, and `./{x}.json` still works.
  const inline = source.trimStart().startsWith('{');
  const where = inline ? '--map (inline JSON)' : `--map ${source}`;
  try {
    return { where, value: JSON.parse(inline ? source : readSmallFile(source, '--map', MAX_MAPPING_BYTES).toString('utf8')) };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw bad(where, why, 'give a JSON object such as {"employeeID": "Personalnummer"}, inline or in a file');
  }
}

export function loadMapping(source: string | undefined, kind: Kind, flags: MappingFlags = {}): Mapping {
  const fieldsOut = Object.create(null) as Record<string, readonly string[]>;
  const ignore: string[] = [...(flags.ignoreColumns ?? [])];
  let timeFormat: TimeFormats | undefined;
  let splitHours: 'span' | undefined;
  let closedDays: number[] | undefined;
  let status: StatusSetting | undefined;
  const notStatus: string[] = [];
  const days: MappedDay[] = [];
  const values = Object.create(null) as Record<string, ValueTable>;
  if (source !== undefined) {
    const { where, value } = parseSource(source);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw bad(
        where,
        'must be a JSON object of wire field to column name',
        'e.g. {"employeeID": "Personalnummer", "name": ["Vorname", "Nachname"], "ignore": ["Filiale"]}',
      );
    }
    const fields: readonly string[] = FIELDS[kind];
    for (const [key, column] of Object.entries(value)) {
      if (key === 'ignore') ignore.push(...columnList(where, key, column));
      else if (key === 'timeFormat') timeFormat = checkTimeFormat(where, column);
      else if (key === 'splitHours') splitHours = checkSplitHours(where, column);
      else if (key === 'status') status = checkStatus(where, column);
      else if (key === 'notStatus') notStatus.push(...columnList(where, key, column));
      else if (key === 'closedDays' && kind === 'store-cards') closedDays = checkClosedDays(where, column);
      else if (key === 'opentToGuestsPeriod' && kind === 'store-cards' && column !== null && typeof column === 'object' && !Array.isArray(column))
        days.push(...dayColumns(where, column as Record<string, unknown>));
      else if (FORBIDDEN_KEYS.has(key) || !fields.includes(key)) {
        throw bad(
          where,
          `'${key}' is not a ${kind} field`,
          `the fields are: ${fields.join(', ')}; "ignore" lists columns to leave out; "timeFormat" is clock, decimal, 12h or 24h (or two: clock,12h); "splitHours" is error or span; "status" names the status column and the statuses to keep; "notStatus" lists columns that look like a status but are none${kind === 'store-cards' ? '; "closedDays" lists the days the stores are closed, such as "Sa,Su"' : ''}`,
        );
      } else if (isTable(column)) {
        fieldsOut[key] = columnList(where, key, column.column);
        values[key] = valueTable(where, key, column.values);
      } else fieldsOut[key] = columnList(where, key, column);
    }
  }
  if (flags.timeFormat !== undefined) {
    const flag = checkTimeFormat('--time-format', flags.timeFormat);
    // The flag may answer the question the mapping leaves open (`clock` there, `12h` here), never the
    // one it answered the other way.
    const both = timeFormat === undefined ? flag : parseTimeFormats(`${timeFormat},${flag}`);
    if (typeof both !== 'string') {
      throw bad('--time-format', `'${flag}' contradicts the mapping's "timeFormat": "${timeFormat}"`, 'keep one of them');
    }
    timeFormat = both;
  }
  if (flags.splitHours !== undefined) {
    const flag = checkSplitHours('--split-hours', flags.splitHours);
    if (splitHours !== undefined && splitHours !== flag) {
      throw bad('--split-hours', `'${flags.splitHours}' contradicts the mapping's "splitHours": "${splitHours}"`, 'keep one of them');
    }
    splitHours = flag;
  }
  if (flags.closedDays !== undefined) {
    const flag = checkClosedDays('--closed-days', flags.closedDays);
    if (closedDays !== undefined && closedDays.join() !== flag.join()) {
      throw bad('--closed-days', `'${flags.closedDays}' contradicts the mapping's "closedDays"`, 'keep one of them');
    }
    closedDays = flag;
  }
  status = statusFromFlags(flags, status);
  notStatus.push(...(flags.noStatusColumns ?? []).map((c) => c.trim()));
  if (notStatus.some((c) => c === '')) throw new UsageError('BAD_FLAG', '--no-status-column names no column', STATUS_HINT);
  const both = status && notStatus.find((c) => c.toLowerCase() === status.column.toLowerCase());
  if (both) throw new UsageError('BAD_FLAG', `'${both}' is named by --status-column and by --no-status-column`, 'keep one of them');
  // A column both fed to a field and ignored is two answers to one question.
  for (const [field, columns] of Object.entries(fieldsOut)) {
    const both = columns.find((c) => ignore.includes(c));
    if (both) throw bad('--map', `column '${both}' is both mapped to ${field} and ignored`, 'keep one of them');
  }
  for (const { key, columns } of days) {
    const both = Object.values(columns).find((c) => ignore.includes(c));
    if (both) throw bad('--map', `column '${both}' is both mapped to ${key} and ignored`, 'keep one of them');
  }
  return {
    fields: fieldsOut,
    ignore,
    timeFormat,
    splitHours,
    ...(closedDays ? { closedDays } : {}),
    ...(days.length ? { days } : {}),
    ...(Object.keys(values).length ? { values } : {}),
    ...(status ? { status } : {}),
    ...(notStatus.length ? { notStatus } : {}),
  };
}

const STATUS_HINT =
  'e.g. --status-column Status --active Active,"On Leave" (or "status": {"column": "Status", "active": ["Active", "On Leave"]} in the mapping); or, for a column that is no status, --no-status-column COL';

/** `"status": {"column": "Status", "active": ["Active", "On Leave"]}` in a mapping. */
function checkStatus(where: string, value: unknown): StatusSetting {
  const v = value as { column?: unknown; active?: unknown } | null;
  const active = typeof v?.active === 'string' ? [v.active] : v?.active;
  if (
    !v ||
    typeof v !== 'object' ||
    typeof v.column !== 'string' ||
    v.column.trim() === '' ||
    !Array.isArray(active) ||
    active.length === 0 ||
    active.some((a) => typeof a !== 'string' || a.trim() === '')
  ) {
    throw bad(where, '"status" must name the status column and the statuses to keep', STATUS_HINT);
  }
  return { column: v.column.trim(), active: (active as string[]).map((a) => a.trim()) };
}

/** --status-column and --active go together, and agree with the mapping's "status". */
function statusFromFlags(flags: MappingFlags, fromMapping: StatusSetting | undefined): StatusSetting | undefined {
  if (flags.statusColumn === undefined && flags.active === undefined) return fromMapping;
  if (flags.statusColumn === undefined || flags.active === undefined) {
    throw new UsageError(
      'BAD_FLAG',
      `${flags.statusColumn === undefined ? '--active' : '--status-column'} needs ${flags.statusColumn === undefined ? '--status-column' : '--active'}: the column and the statuses to keep go together`,
      STATUS_HINT,
    );
  }
  const active = flags.active
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (!active.length) throw new UsageError('BAD_FLAG', '--active names no status', STATUS_HINT);
  if (fromMapping) throw bad('--status-column', 'the mapping already has "status"', 'keep one of them');
  return { column: flags.statusColumn.trim(), active };
}

function checkClosedDays(where: string, value: unknown): number[] {
  const text = Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(',') : value;
  const parsed = typeof text === 'string' ? parseDayList(text) : { error: `${JSON.stringify(value)} is not a list of days` };
  if ('error' in parsed) throw bad(where, parsed.error, 'list the days the stores are closed, such as Sa,Su or Mo-Fr');
  return parsed.days;
}

/** `{"Mo": "Segunda-feira", "Sa": {"since": "Sáb abre", "to": "Sáb fecha"}}` → the mapped weekdays. */
function dayColumns(where: string, value: Record<string, unknown>): MappedDay[] {
  const example =
    '{"opentToGuestsPeriod": {"Mo": "Segunda-feira", "Tu": {"since": "Terça abre", "to": "Terça fecha"}, "We": ["Mittwoch Mittag", "Mittwoch Abend"]}}';
  const seen = new Map<number, string>();
  return Object.entries(value).flatMap(([key, column]): MappedDay[] => {
    const day = FORBIDDEN_KEYS.has(key) ? undefined : dayIndex(key);
    if (day === undefined)
      throw bad(
        where,
        `'${key}' in opentToGuestsPeriod is not a weekday the tool can tell for sure`,
        `use Su, Mo, Tu, We, Th, Fr, Sa (or 0 to 6), e.g. ${example}`,
      );
    if (seen.has(day)) throw bad(where, `'${seen.get(day)}' and '${key}' in opentToGuestsPeriod are the same day`, 'keep one of them');
    seen.set(day, key);
    // A list is the day's periods in order (a lunch and a dinner service): each a column or a pair.
    if (Array.isArray(column) && column.length >= 1 && column.length <= 3)
      return column.map((one, k) => ({ day, key, columns: oneDayColumn(where, key, one, example), slot: k + 1 }));
    if (Array.isArray(column)) throw bad(where, `the list for '${key}' must name one to three columns, one per period of the day`, `e.g. ${example}`);
    return [{ day, key, columns: oneDayColumn(where, key, column, example) }];
  });
}

/** One period's column: a name (a range such as 09:00-22:00), or {"since": column, "to": column}. */
function oneDayColumn(where: string, key: string, column: unknown, example: string): MappedDay['columns'] {
  if (typeof column === 'string' && column.trim() !== '') return { range: column.trim() };
  const pair = column as Record<string, unknown> | null;
  const ok = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (pair && typeof pair === 'object' && !Array.isArray(pair) && Object.keys(pair).sort().join() === 'since,to' && ok(pair.since) && ok(pair.to))
    return { since: (pair.since as string).trim(), to: (pair.to as string).trim() };
  throw bad(where, `the column for '${key}' must be a column name, {"since": column, "to": column}, or a list of them (one per period)`, `e.g. ${example}`);
}

/** `error` (the default, SPLIT_HOURS) or `span`; `error` is kept as undefined. */
function checkSplitHours(where: string, value: unknown): 'span' | undefined {
  if (value !== 'error' && value !== 'span') {
    throw bad(
      where,
      `split hours ${JSON.stringify(value)} is not error or span`,
      'error: a day with two periods (9-12, 14-18) is error SPLIT_HOURS; span: it is sent as first opening to last closing (9-18)',
    );
  }
  return value === 'span' ? 'span' : undefined;
}

function checkTimeFormat(where: string, value: unknown): TimeFormats {
  const formats = parseTimeFormats(value);
  if (typeof formats !== 'string') throw bad(where, formats.error, TIME_FORMAT_HELP);
  return formats;
}

/** `{"column": "Job", "values": {…}}`: a field fed from a column through a table of its values. */
function isTable(value: unknown): value is { column: unknown; values: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'values' in value;
}

function valueTable(where: string, field: string, value: unknown): ValueTable {
  const example = `{"${field}": {"column": "Job", "values": {"Store Manager": 1, "Cashier": 2}}}`;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0)
    throw bad(where, `the "values" of ${field} must be an object of cell text to the value sent`, `e.g. ${example}`);
  const table = Object.create(null) as Record<string, string | number>;
  for (const [text, sent] of Object.entries(value as Record<string, unknown>)) {
    if (FORBIDDEN_KEYS.has(text) || (typeof sent !== 'string' && typeof sent !== 'number'))
      throw bad(where, `the value for '${text}' in the "values" of ${field} must be text or a number`, `e.g. ${example}`);
    // Cells are trimmed before they are looked up, so the table's texts are too.
    table[text.trim()] = typeof sent === 'string' ? sentText(where, field, text.trim(), sent) : sent;
  }
  return table;
}

/**
 * A table's text is sent as a cell's is, and refused where a cell's would be: in NFC; with no control
 * or invisible character in a key, an email or a name; in a key or an email, in no full-width or
 * compatibility form. The validator takes a record whose cells hold nothing beyond plain letters as
 * checked already (read/types.ts, `plain`), so what a table brings into it is checked here, once.
 */
function sentText(where: string, field: string, text: string, sent: string): string {
  const value = sent.normalize('NFC');
  const hidden = SHOWN_AS_IS.has(field) ? hiddenCharacter(value, field === 'name') : undefined;
  if (hidden) {
    const what = hidden.control ? 'a control character' : 'an invisible character';
    throw bad(
      where,
      `the value for '${text}' in the "values" of ${field} holds ${nameOf(hidden.cp)} at position ${hidden.position}, ${what}: '${shown(value)}' would be sent with it`,
      `delete the character from the value in the mapping`,
    );
  }
  const plain = value.normalize('NFKC');
  if (IDENTIFYING.has(field) && plain !== value) {
    throw bad(
      where,
      `the value '${value}' for '${text}' in the "values" of ${field} is written with full-width or compatibility characters: it looks like '${plain}' but is other text`,
      `write it as '${plain}' in the mapping`,
    );
  }
  return value;
}

// A column plan: which column feeds which wire field, compiled once per header.
import type { Kind } from '../contract/kinds.js';
import { FIELDS, NULLABLE, REQUIRED } from '../contract/fields.js';
import { issue, type Issue } from '../issues.js';
import { ALIASES, matchColumn, normalise, scalarFields, suggest } from './columns.js';
import { says, type TimeFormats } from './time-format.js';
import { clockEvidence, type ClockEvidence } from './clock-evidence.js';
import { placeDays, type DayColumn } from './day-columns.js';
import { hoursColumnExamples, hoursColumn, nearWeekday, type DayColumns } from './layout.js';
import { nameAdvice } from './name-columns.js';
import type { Mapping } from './mapping-file.js';
import { findStatusColumns, type StatusColumn } from './status-column.js';
import { accountDays, shellQuote, unusedColumns } from './accounting.js';
import type { Fix } from '../errors.js';
import { valuesFit } from './field-shape.js';
import { findDayRows, type DayRowColumns } from './day-rows.js';

export interface ColumnPlan {
  readonly kind: Kind;
  readonly columns: readonly string[];
  /** Wire field → index of the column that feeds it. */
  readonly fields: ReadonlyMap<string, number>;
  /** The same, as an array in the same order, with the column's name (the per-record loops use it). */
  readonly fed: readonly FedField[];
  /** Every scalar wire field of the kind in wire order, with its column index or -1 (for mapRecord). */
  readonly scalars: readonly ScalarField[];
  /** Store cards: the JSON hours column, or per weekday its columns; empty for team members. */
  readonly hoursJson: number | undefined;
  readonly days: readonly (DayColumns | undefined)[];
  /** One row per store per day (./day-rows.ts): the day column and the hours pair; the range is hoursJson. */
  readonly dayRows: DayRowColumns | undefined;
  /** Per weekday, the columns of its later periods (`Monday Afternoon`, `Mo Open 2`), usually none. */
  readonly later: readonly (readonly DayColumns[])[];
  /** Problems with the header itself, reported once. */
  readonly issues: readonly Issue[];
  /** A required column is missing: no record can be mapped. */
  readonly fatal: boolean;
  /** Columns whose header cell is empty (Excel's trailing delimiter): a value there is misplaced. */
  readonly unnamed: readonly number[];
  /** How `8.30` is read (see --time-format); unset, two digits after a dot or comma are an error. */
  readonly timeFormat: TimeFormats | undefined;
  /** --split-hours: what a day with two periods becomes; unset, it is error SPLIT_HOURS. */
  readonly splitHours: 'span' | undefined;
  /** What the sampled hours cells say of the clock, where the user did not (./clock-evidence.ts). */
  readonly clockEvidence: ClockEvidence | undefined;
  /** --hours-as-of: the day whose ISO week date-bound rules (`Apr 10-15 off`) are read for; unset, they are errors. */
  readonly hoursAsOf: string | undefined;
  /**
   * An HR export's status columns (./status-column.ts): the one --status-column names (rows not
   * --active are left out), and any other that reads as a status, undecided (its leavers are errors).
   */
  readonly statuses: readonly StatusColumn[];
  /**
   * Team members: the columns that feed nothing and are not said to be no status. The first rows did
   * not make them a status column, but a later row may (a column empty for its first 500 rows), so
   * the run keeps looking at them to the end (../pipeline/status-rows.ts).
   */
  readonly watch: readonly number[];
}

export interface FedField {
  readonly field: string;
  readonly index: number;
  readonly column: string;
  /** Its place among the scalar fields (plan.scalars, wire order), or -1 (the hours). */
  readonly place: number;
  /** Every column joined into it, when it is more than one (`"name": ["First", "Last"]`); `index` is the first. */
  readonly parts?: readonly number[];
}

export interface ScalarField {
  readonly field: string;
  readonly index: number;
  /** Empty is sent as null (storeConceptCode, roleCode, parentKey). */
  readonly nullable: boolean;
  /** Sent as a number when it reads as one (storeConceptCode). */
  readonly numeric: boolean;
  /** Several columns joined with one space, empty ones skipped ("name": ["First Name", "Last Name"]). */
  readonly parts?: readonly number[];
}

export interface PlanOptions {
  readonly mapping: Mapping;
  /** --hours-as-of: the day whose week date-bound hours are read for. */
  readonly hoursAsOf?: string | undefined;
  /** Line the header problems are reported on (1 for CSV; the first record's line for JSON). */
  readonly line: number;
  /** JSON records carry their own keys: a missing field is a per-record problem there. */
  readonly perRecordColumns: boolean;
  /** The first records' cells under this header: a column's values say what it can be (a status, an email). */
  readonly sample?: readonly (readonly unknown[])[];
}

export function compilePlan(kind: Kind, columns: readonly string[], options: PlanOptions): ColumnPlan {
  const issues: Issue[] = [];
  const mapped = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const unknown: number[] = [];
  /** Columns that name weekdays but say something else the tool does not understand (`Monday notes`). */
  const unplaced: number[] = [];
  const dayColumns: DayColumn[] = [];
  let hoursJson: number | undefined;
  const at = (index: number) => ({ line: options.line, column: columns[index] ?? '' });
  const fieldsOf = options.mapping.fields ?? {};
  const notStatus = new Set((options.mapping.notStatus ?? []).map(normalise));
  // A column said to be no status is left out like an ignored one: it feeds nothing either way.
  const ignored = new Set([...(options.mapping.ignore ?? []).map(normalise), ...notStatus]);
  const sample = options.sample ?? [];
  const valuesOf = (index: number) => sample.map((cells) => cells[index]);

  // The mapping first: a column it names is the user's answer, whatever else its name could mean.
  const taken = new Set<number>();
  for (const [field, sources] of Object.entries(fieldsOf)) {
    const indices = sources.map((source) => indexOf(columns, source)).filter((i) => i !== -1);
    if (indices.length === sources.length) {
      if (field === 'opentToGuestsPeriod') hoursJson = indices[0];
      else mapped.set(field, indices);
      for (const i of indices) taken.add(i);
    }
  }
  // Weekdays the mapping gives a column (`"opentToGuestsPeriod": {"Mo": "Segunda-feira"}`).
  for (const { day, key, columns: named, slot } of options.mapping.days ?? []) {
    const roles = Object.entries(named) as ['range' | 'since' | 'to', string][];
    const indices = roles.map(([, source]) => indexOf(columns, source));
    if (indices.includes(-1)) continue;
    roles.forEach(([role], k) => {
      const index = indices[k]!;
      taken.add(index);
      dayColumns.push({ index, column: columns[index]!, role, slot: slot ?? 1, items: [{ group: [day], raw: key }] });
    });
  }

  // A status column is read to find leavers, never sent: it is neither a field nor an unused column,
  // and --ignore-column does not make it one (that would send the leavers it marks). A column whose
  // name says a field is that field.
  const statuses = findStatusColumns(kind, columns, {
    setting: options.mapping.status,
    notStatus,
    taken: new Set([...taken, ...columns.flatMap((c, i) => (matchColumn(kind, c) ? [i] : []))]),
    sample,
  });
  for (const { index } of statuses) taken.add(index);
  if (options.mapping.status && !statuses.some((s) => s.active) && !options.perRecordColumns) {
    issues.push(
      issue(
        'error',
        'MAPPED_COLUMN_MISSING',
        `the status column '${options.mapping.status.column}' (--status-column) is not in the file; columns found: ${columns.filter(Boolean).join(', ')}`,
        { line: options.line },
      ),
    );
  }

  // A day column (`Day`, `Day of Week`) with the day's hours: the file gives one row per store per day.
  const dayRows =
    kind === 'store-cards' && !options.mapping.days?.length
      ? findDayRows(columns, new Set([...taken, ...ignoredIndices()]), hoursJson !== undefined)
      : undefined;
  for (const i of dayRows ? [dayRows.day, dayRows.since, dayRows.to] : []) if (i !== undefined) taken.add(i);

  columns.forEach((column, index) => {
    if (column === '' || taken.has(index) || ignored.has(normalise(column))) return;
    const match = matchColumn(kind, column);
    if (match) return void byName.set(match.field, [...(byName.get(match.field) ?? []), index]);
    const hours = kind === 'store-cards' ? hoursColumn(column) : undefined;
    if (!hours) return void unknown.push(index);
    if (hours.role === 'unplaced') {
      unplaced.push(index);
      return void issues.push(
        issue(
          'error',
          'UNPLACED_COLUMN',
          `column '${column}' names weekdays, but '${hours.rest}' is not understood, so those days would be sent as closed; rename it to the days alone ('Mo-Fr', 'Monday') for a range such as 09:00-18:00, or add open/close ('Monday open'), or leave it out with --ignore-column '${column}'`,
          at(index),
        ),
      );
    }
    if (hours.role === 'json') {
      if (hoursJson !== undefined)
        return void issues.push(
          issue(
            'error',
            'HOURS_TWICE',
            `opening hours are given both in '${columns[hoursJson]}' and '${column}'; keep one, or list the other under "ignore" in --map`,
            at(index),
          ),
        );
      return void (hoursJson = index);
    }
    dayColumns.push({ index, column, role: hours.role, slot: hours.slot, items: hours.items });
  });

  // Columns that match one field by name: the mapping settles it, or the user must.
  const fields = new Map<string, number>();
  const parts = new Map<string, readonly number[]>();
  for (const [field, indices] of mapped) {
    fields.set(field, indices[0]!);
    parts.set(field, indices);
  }
  for (const [field, indices] of byName) {
    if (mapped.has(field)) {
      for (const i of indices)
        issues.push(
          issue(
            'warning',
            'COLUMN_IGNORED',
            `column '${columns[i]}' is not used: the mapping takes ${field} from ${fieldsOf[field]!.map((c) => `'${c}'`).join(' + ')}`,
            { ...at(i), field },
          ),
        );
    } else if (indices.length > 1) {
      const names = indices.map((i) => `'${columns[i]}'`).join(' and ');
      issues.push(
        issue(
          'error',
          'AMBIGUOUS_COLUMN',
          `columns ${names} both mean ${field}; say which with --map '{"${field}": "${columns[indices[0]!]}", "ignore": ["${columns[indices[1]!]}"]}' (or the other way round)`,
          { ...at(indices[1]!), field },
        ),
      );
    } else fields.set(field, indices[0]!);
  }

  const { days, later, issues: dayIssues } = placeDays(dayColumns, columns);
  for (const { index, issue: found } of dayIssues) issues.push({ ...found, ...at(index) });
  if (dayRows && (days.some(Boolean) || (dayRows.since !== undefined && hoursJson !== undefined))) {
    const other = days.some(Boolean) ? 'weekday columns' : `'${columns[hoursJson!]}'`;
    issues.push(
      issue(
        'error',
        'HOURS_TWICE',
        `opening hours are given both by the rows of '${columns[dayRows.day]}' (one row per day) and by ${other}; keep one layout, or leave the other out with --ignore-column`,
        at(dayRows.day),
      ),
    );
  } else if (hoursJson !== undefined && days.some(Boolean)) {
    issues.push(
      issue('error', 'HOURS_TWICE', `opening hours are given both in '${columns[hoursJson]}' and in weekday columns; keep one layout`, at(hoursJson)),
    );
  }

  // A column that looks like a field or a weekday but is placed nowhere would be data dropped
  // without a word (a misspelt `Wednsday` sends Wednesday as closed): an error, not a warning.
  const known = knownColumns(kind);
  for (const index of unknown) {
    const column = columns[index]!;
    const weekday = kind === 'store-cards' ? nearWeekday(column) : undefined;
    const hint = weekday ?? suggest(column, known);
    const leaveOut = `or leave it out with --ignore-column '${column}' (or "ignore": ["${column}"] in the --map mapping)`;
    if (weekday) {
      issues.push(
        issue(
          'error',
          'UNPLACED_COLUMN',
          `column '${column}' looks like the weekday '${weekday}' but is not used, so that day would be sent as closed; rename it to the day's name, ${leaveOut}`,
          at(index),
        ),
      );
    } else if (hint && guessFits(hint, index)) {
      const field = matchColumn(kind, hint)?.field;
      // A near miss of an hours column (`mon_sinec`) has no field to map it to: rename it.
      const map = field ? `{${JSON.stringify(field)}: ${JSON.stringify(column)}}` : undefined;
      const fix = map ? `map it with --map ${shellQuote(map)}, rename it, ${leaveOut}` : `rename it to '${hint}', ${leaveOut}`;
      const fixes: Fix[] = [...(map ? [{ kind: 'flags' as const, args: ['--map', map] }] : []), { kind: 'flags', args: ['--ignore-column', column] }];
      issues.push(
        issue('error', 'UNPLACED_COLUMN', `column '${column}' looks like '${hint}' but is not used; ${fix}`, { ...at(index), field: field ?? null, fixes }),
      );
    } else issues.push(issue('warning', 'UNKNOWN_COLUMN', `column '${column}' is not used`, at(index)));
  }

  for (const [field, sources] of Object.entries(fieldsOf)) {
    for (const source of sources) {
      if (indexOf(columns, source) === -1 && !options.perRecordColumns) {
        issues.push(
          issue(
            'error',
            'MAPPED_COLUMN_MISSING',
            `the mapping names column '${source}' for ${field}, but the file has no such column; columns found: ${columns.filter(Boolean).join(', ')}`,
            { line: options.line, field },
          ),
        );
      }
    }
  }
  if (!options.perRecordColumns) {
    for (const name of options.mapping.ignore ?? []) {
      if (indexOf(columns, name) === -1)
        issues.push(
          issue('warning', 'IGNORED_COLUMN_MISSING', `column '${name}' is listed to ignore, but the file has no such column`, { line: options.line }),
        );
    }
    for (const name of options.mapping.notStatus ?? []) {
      if (indexOf(columns, name) === -1)
        issues.push(
          issue('warning', 'IGNORED_COLUMN_MISSING', `column '${name}' is named by --no-status-column, but the file has no such column`, {
            line: options.line,
          }),
        );
    }
  }

  for (const { key, columns: named } of options.perRecordColumns ? [] : (options.mapping.days ?? [])) {
    for (const source of Object.values(named)) {
      if (indexOf(columns, source) === -1)
        issues.push(
          issue(
            'error',
            'MAPPED_COLUMN_MISSING',
            `the mapping names column '${source}' for ${key}, but the file has no such column; columns found: ${columns.filter(Boolean).join(', ')}`,
            { line: options.line, field: 'opentToGuestsPeriod' },
          ),
        );
    }
  }

  const missing = REQUIRED[kind].filter((f) => !fields.has(f) && !byName.has(f));
  let fatal = issues.some((i) => i.severity === 'error');
  // The accounting's own errors leave every column placed, so the records are still read and checked:
  // the run stops with every problem of the file said in one pass (fatal stays as it was).
  // A column placed nowhere (an unknown language's `Måndag`, `Monday notes`) leaves its day without a
  // source all the same: the days are still accounted for, naming it. Only where the day columns
  // themselves cannot be read (AMBIGUOUS_WEEKDAY, HOURS_TWICE…) would "missing" be a guess.
  const readable = !issues.some((i) => i.severity === 'error' && i.code !== 'UNPLACED_COLUMN');
  if (!missing.length && readable) {
    // The `errors` column that --errors-csv adds holds the tool's own words: a file of rejected rows
    // read back after fixing them is the documented way round, not a column whose values went missing.
    const unused = [...unknown, ...unplaced].sort((a, b) => a - b).filter((i) => normalise(columns[i]!) !== 'errors');
    // One row per day names its day in each row: which days the rows leave out is known only once they
    // are read (../pipeline/plan.ts, missingDayRows).
    if (kind === 'store-cards' && !dayRows) {
      issues.push(
        ...accountDays({
          columns,
          covered: days.map(Boolean),
          weekColumn: hoursJson === undefined ? undefined : columns[hoursJson],
          closedDays: options.mapping.closedDays,
          unused,
          line: options.line,
          perRecord: options.perRecordColumns,
        }),
      );
    }
    // An unplaced column already says what it looks like and how to map it: said once, not twice.
    if (!fatal)
      issues.push(
        ...unusedColumns(
          kind,
          columns,
          (f) => fields.has(f) || byName.has(f),
          unused,
          options.line,
          (f, i) => valuesFit(kind, f, valuesOf(i)),
        ),
      );
  }
  if (missing.length && !options.perRecordColumns) {
    fatal = true;
    const named = columns.filter(Boolean);
    const other = named.length === 1 ? [',', ';', '\t', '|'].find((d) => named[0]!.includes(d)) : undefined;
    const names = missing.includes('name') ? nameAdvice(columns) : undefined;
    const fix = other
      ? `the header is one column holding '${other === '\t' ? 'tab' : other}': is the delimiter right? Drop --delimiter to detect it, or pass --delimiter '${other === '\t' ? 'tab' : other}'`
      : names
        ? `the names are in two columns: join them with ${names}${missing.length > 1 ? ', and rename or map the other columns' : ''}`
        : 'rename a column, or name it with --map';
    issues.push(
      issue(
        'error',
        'MISSING_COLUMN',
        `required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found; columns found: ${named.join(', ') || '(none)'}; ${fix}`,
        // A later --delimiter wins over one given before: the same fix whether one was given or not.
        { line: options.line, field: missing.join(','), fixes: other ? [{ kind: 'flags', args: ['--delimiter', other === '\t' ? 'tab' : other] }] : undefined },
      ),
    );
  }

  const scalarFields: readonly string[] = FIELDS[kind].filter((field) => field !== 'opentToGuestsPeriod');
  /** A field's columns, when it joins more than one. */
  const joinedOf = (field: string) => {
    const joined = parts.get(field);
    return joined && joined.length > 1 ? { parts: joined } : {};
  };
  const fed = [...fields].map(([field, index]) => ({ field, index, column: columns[index]!, place: scalarFields.indexOf(field), ...joinedOf(field) }));
  const feeding = new Set([...taken, ...[...byName.values()].flat(), ...(hoursJson === undefined ? [] : [hoursJson]), ...dayColumns.map((d) => d.index)]);
  const watch = kind === 'team-members' ? columns.flatMap((c, i) => (c !== '' && !feeding.has(i) && !notStatus.has(normalise(c)) ? [i] : [])) : [];
  const scalars = scalarFields.map((field) => ({
    field,
    index: fields.get(field) ?? -1,
    nullable: NULLABLE.has(field),
    numeric: field === 'storeConceptCode',
    ...joinedOf(field),
  }));
  const unnamed = columns.flatMap((name, index) => (name === '' ? [index] : []));
  return {
    kind,
    columns,
    fields,
    fed,
    scalars,
    hoursJson,
    dayRows,
    days,
    later,
    issues,
    fatal,
    unnamed,
    timeFormat: options.mapping.timeFormat,
    splitHours: options.mapping.splitHours,
    clockEvidence: evidenceOf(),
    hoursAsOf: options.hoursAsOf,
    statuses,
    watch,
  };

  /** The clock the hours cells of the sampled rows keep, unless the user said which (--time-format 12h or 24h). */
  function evidenceOf(): ClockEvidence | undefined {
    const format = options.mapping.timeFormat;
    if (kind !== 'store-cards' || says(format, '12h') || says(format, '24h')) return undefined;
    const periods = [...days, ...later.flat()].filter((d): d is DayColumns => d !== undefined);
    const indices = new Set(periods.flatMap((d) => (d.layout === 'range' ? [d.index] : [d.since, d.to].filter((i): i is number => i !== undefined))));
    if (hoursJson !== undefined) indices.add(hoursJson);
    return indices.size ? clockEvidence(sample, [...indices], columns) : undefined;
  }

  /** The columns left out by name (--ignore-column), never read as a day or its hours. */
  function ignoredIndices(): number[] {
    return columns.flatMap((c, i) => (ignored.has(normalise(c)) ? [i] : []));
  }

  /** A guessed field is offered only when the column's values could be that field's (./field-shape.ts). */
  function guessFits(hint: string, index: number): boolean {
    const field = matchColumn(kind, hint)?.field;
    return field === undefined || valuesFit(kind, field, valuesOf(index));
  }
}

/** The column a mapping names, as written or differing only in case and spacing; -1 if none. */
function indexOf(columns: readonly string[], source: string): number {
  const exact = columns.indexOf(source);
  return exact !== -1 ? exact : columns.findIndex((c) => c !== '' && normalise(c) === normalise(source));
}

/** Every column name a kind understands, for "did you mean" suggestions. */
function knownColumns(kind: Kind): readonly string[] {
  const names = [...scalarFields(kind), ...Object.values(ALIASES[kind]).flat()];
  return kind === 'store-cards' ? [...names, ...hoursColumnExamples()] : names;
}

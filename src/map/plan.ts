// A column plan: which column feeds which wire field, compiled once per header.
import type { Kind } from '../contract/kinds.js';
import { FIELDS, NULLABLE, REQUIRED } from '../contract/schemas.js';
import { issue, type Issue } from '../issues.js';
import { ALIASES, matchColumn, normalise, scalarFields, suggest } from './columns.js';
import { DAY_NAMES } from './hours.js';
import { HOURS_COLUMN_EXAMPLES, hoursColumn, type DayColumns } from './layout.js';

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
  /** Problems with the header itself, reported once. */
  readonly issues: readonly Issue[];
  /** A required column is missing: no record can be mapped. */
  readonly fatal: boolean;
  /** Columns whose header cell is empty (Excel's trailing delimiter): a value there is misplaced. */
  readonly unnamed: readonly number[];
}

export interface FedField {
  readonly field: string;
  readonly index: number;
  readonly column: string;
}

export interface ScalarField {
  readonly field: string;
  readonly index: number;
  /** Empty is sent as null (storeConceptCode, roleCode, parentKey). */
  readonly nullable: boolean;
  /** Sent as a number when it reads as one (storeConceptCode). */
  readonly numeric: boolean;
}

export interface PlanOptions {
  readonly mapping: Readonly<Record<string, string>>;
  /** Line the header problems are reported on (1 for CSV; the first record's line for JSON). */
  readonly line: number;
  /** JSON records carry their own keys: a missing field is a per-record problem there. */
  readonly perRecordColumns: boolean;
}

export function compilePlan(kind: Kind, columns: readonly string[], options: PlanOptions): ColumnPlan {
  const issues: Issue[] = [];
  const best = new Map<string, { index: number; rank: number }>();
  const unknown: number[] = [];
  const days = new Array<DayColumns | undefined>(7).fill(undefined);
  let hoursJson: number | undefined;
  const at = (index: number) => ({ line: options.line, column: columns[index] ?? '' });

  columns.forEach((column, index) => {
    if (column === '') return;
    const match = matchColumn(kind, column, options.mapping);
    if (match?.field === 'opentToGuestsPeriod') return void (hoursJson = index);
    if (match) {
      const held = best.get(match.field);
      if (!held || match.rank < held.rank) best.set(match.field, { index, rank: match.rank });
      else if (held.rank === match.rank) {
        issues.push(issue('error', 'AMBIGUOUS_COLUMN', `columns '${columns[held.index]}' and '${column}' both mean ${match.field}; name the one to use with --map '{"${match.field}": "…"}'`, { ...at(index), field: match.field }));
      }
      return;
    }
    const hours = kind === 'store-cards' ? hoursColumn(column) : undefined;
    if (!hours) return void unknown.push(index);
    if (hours.role === 'json') return void (hoursJson = index);
    const held = days[hours.day];
    const taken =
      held === undefined ? undefined
      : held.layout === 'range' ? held.index
      : hours.role === 'range' ? (held.since ?? held.to)
      : held[hours.role];
    if (taken !== undefined) {
      // Two columns for one day would leave the day to whichever comes last: never silently.
      return void issues.push(issue('error', 'HOURS_TWICE', `${DAY_NAMES[hours.day]} is given by both '${columns[taken]}' and '${column}'; keep one of them`, at(index)));
    }
    if (hours.role === 'range') days[hours.day] = { layout: 'range', index };
    else days[hours.day] = { ...(held?.layout === 'pair' ? held : { layout: 'pair' as const }), [hours.role]: index };
  });

  // Columns that lost to a better match for the same field are not silently dropped.
  for (const [index, column] of columns.entries()) {
    const match = column === '' ? undefined : matchColumn(kind, column, options.mapping);
    if (match && match.field !== 'opentToGuestsPeriod' && best.get(match.field)?.index !== index && !issues.some((i) => i.column === column)) {
      issues.push(issue('warning', 'COLUMN_IGNORED', `column '${column}' is ignored: '${columns[best.get(match.field)!.index]}' already gives ${match.field}`, { ...at(index), field: match.field }));
    }
  }

  if (hoursJson !== undefined && days.some(Boolean)) {
    issues.push(issue('error', 'HOURS_TWICE', `opening hours are given both in '${columns[hoursJson]}' and in weekday columns; keep one layout`, at(hoursJson)));
  }
  days.forEach((d, day) => {
    if (d?.layout === 'pair' && (d.since === undefined || d.to === undefined)) {
      const has = columns[(d.since ?? d.to)!];
      issues.push(issue('error', 'HOURS_PAIR_INCOMPLETE', `${DAY_NAMES[day]} has '${has}' but no ${d.since === undefined ? 'opening' : 'closing'} column; add it, or use one range column such as '${DAY_NAMES[day]!.slice(0, 3).toLowerCase()}' holding 09:00-22:00`, at(d.since ?? d.to!)));
    }
  });

  const known = knownColumns(kind);
  for (const index of unknown) {
    const hint = suggest(columns[index]!, known);
    issues.push(issue('warning', 'UNKNOWN_COLUMN', `column '${columns[index]}' is not used${hint ? ` (did you mean '${hint}'?)` : ''}`, at(index)));
  }

  for (const [field, source] of Object.entries(options.mapping)) {
    if (!columns.some((c) => c === source || normalise(c) === normalise(source)) && !options.perRecordColumns) {
      issues.push(issue('error', 'MAPPED_COLUMN_MISSING', `the mapping names column '${source}' for ${field}, but the file has no such column; columns found: ${columns.filter(Boolean).join(', ')}`, { line: options.line, field }));
    }
  }

  const missing = REQUIRED[kind].filter((f) => !best.has(f));
  let fatal = issues.some((i) => i.severity === 'error');
  if (missing.length && !options.perRecordColumns) {
    fatal = true;
    const named = columns.filter(Boolean);
    const other = named.length === 1 ? [',', ';', '\t', '|'].find((d) => named[0]!.includes(d)) : undefined;
    const fix = other ? `the header is one column holding '${other === '\t' ? 'tab' : other}': is the delimiter right? Drop --delimiter to detect it, or pass --delimiter '${other === '\t' ? 'tab' : other}'` : 'rename a column, or name it with --map';
    issues.push(issue('error', 'MISSING_COLUMN', `required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found; columns found: ${named.join(', ') || '(none)'}; ${fix}`, { line: options.line, field: missing.join(',') }));
  }

  const fields = new Map([...best].map(([field, { index }]) => [field, index]));
  const fed = [...fields].map(([field, index]) => ({ field, index, column: columns[index]! }));
  const scalars = FIELDS[kind]
    .filter((field) => field !== 'opentToGuestsPeriod')
    .map((field) => ({ field, index: fields.get(field) ?? -1, nullable: NULLABLE.has(field), numeric: field === 'storeConceptCode' }));
  const unnamed = columns.flatMap((name, index) => (name === '' ? [index] : []));
  return { kind, columns, fields, fed, scalars, hoursJson, days, issues, fatal, unnamed };
}

/** Every column name a kind understands, for "did you mean" suggestions. */
function knownColumns(kind: Kind): readonly string[] {
  const names = [...scalarFields(kind), ...Object.values(ALIASES[kind]).flat()];
  return kind === 'store-cards' ? [...names, ...HOURS_COLUMN_EXAMPLES] : names;
}

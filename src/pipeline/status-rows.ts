// The rows an HR export's status columns mark (../map/status-column.ts). A column the person decided
// (--status-column COL --active VALUES) leaves out every row not named, and the run says how many and
// which. A column nobody decided stops the run (STATUS_COLUMN_UNDECIDED) with the statuses it holds
// and the two answers as fixes; each of its rows that says "left" is an error naming it (LEAVER_ROW).
import { KINDS } from '../contract/kinds.js';
import type { Fix } from '../errors.js';
import { issue, type Issue } from '../issues.js';
import { shellQuote } from '../map/accounting.js';
import type { ColumnPlan } from '../map/column-plan.js';
import { EMPTY_STATUS, meaning, statusByValues, statusText, statusVerdict, statusWord, type StatusColumn } from '../map/status-column.js';
import type { RawRecord } from '../read/types.js';

export interface ExcludedRow {
  readonly line: number;
  readonly key: string;
  readonly status: string;
}

/**
 * What the run saw in the undecided status columns: each status as written, with how many rows hold
 * it. And, to the last row, the columns that feed nothing (ColumnPlan.watch): one whose values all
 * turn out to be statuses is a status column the first rows did not show.
 */
export class StatusTally {
  private readonly seen = new Map<string, { status: StatusColumn; counts: Map<string, number> }>();
  /** Watched columns by name, with their values so far; a column holding a non-status value is dropped (null). */
  private readonly watched = new Map<string, { index: number; counts: Map<string, number> } | null>();

  count(status: StatusColumn, value: string): void {
    const entry = this.seen.get(status.column) ?? this.seen.set(status.column, { status, counts: new Map() }).get(status.column)!;
    entry.counts.set(value, (entry.counts.get(value) ?? 0) + 1);
  }

  watch(plan: ColumnPlan, raw: RawRecord): void {
    for (const index of plan.watch) {
      const column = plan.columns[index]!;
      let entry = this.watched.get(column);
      if (entry === null) continue;
      const value = statusText(raw.cells[index]);
      entry ??= this.watched.set(column, { index, counts: new Map() }).get(column)!;
      const n = entry.counts.get(value);
      if (n !== undefined) entry.counts.set(value, n + 1);
      else if (statusWord(value)) entry.counts.set(value, 1);
      else this.watched.set(column, null);
    }
  }

  /** One STATUS_COLUMN_UNDECIDED per undecided column (team members), in the order met. */
  issues(line: number | null): Issue[] {
    const found = [...this.seen.values()].map(({ status, counts }) => undecided(status, counts, line));
    for (const [column, entry] of this.watched) {
      const vocabulary = entry && !this.seen.has(column) ? statusByValues(entry.counts.keys()) : undefined;
      if (entry && vocabulary) found.push(undecided({ index: entry.index, column, active: undefined, vocabulary, by: 'values' }, entry.counts, line));
    }
    return found;
  }
}

/**
 * Whether the row goes on to be mapped and validated: 'excluded' (added to `excluded`), or kept with
 * its LEAVER_ROW errors (none for most rows).
 */
export function keepByStatus(plan: ColumnPlan, raw: RawRecord, excluded: ExcludedRow[], tally: StatusTally): 'excluded' | readonly Issue[] {
  let leavers: Issue[] | undefined;
  for (const status of plan.statuses) {
    const value = raw.cells[status.index];
    const verdict = statusVerdict(status, value);
    if (!status.active && plan.kind === 'team-members') tally.count(status, statusText(value));
    if (verdict === 'keep') continue;
    const keyIndex = plan.fields.get(KINDS[plan.kind].keyField);
    const key = keyIndex === undefined ? '' : statusText(raw.cells[keyIndex]);
    if (verdict === 'excluded') {
      excluded.push({ line: raw.line, key, status: statusText(value) });
      return 'excluded';
    }
    (leavers ??= []).push(
      issue(
        'error',
        'LEAVER_ROW',
        `${status.column} is '${statusText(value)}'${key ? ` for ${key}` : ''}: the export marks this row as having left, and it would be uploaded; say which statuses to keep with --status-column ${shellQuote(status.column)} --active VALUES, or that the column is no status with --no-status-column ${shellQuote(status.column)}`,
        { line: raw.line, column: status.column, value: statusText(value) },
      ),
    );
  }
  return leavers ?? NO_ISSUES;
}

const NO_ISSUES: Issue[] = [];

/**
 * The issues to show, with the file's undecided status columns first: they are found after the last
 * row, and a file with a thousand leavers would otherwise push the one refusal that says what to do
 * (and carries the fixes) past the limit.
 */
export function upFront(first: readonly Issue[], kept: readonly Issue[], max: number): Issue[] {
  if (!first.length) return [...kept];
  const rest = kept.filter((i) => !first.includes(i));
  return [...first, ...rest].slice(0, Math.max(max, first.length));
}

function undecided(status: StatusColumn, counts: ReadonlyMap<string, number>, line: number | null): Issue {
  const held = [...counts].map(([value, n]) => `${value === '' ? EMPTY_STATUS : `'${value}'`} ×${n}`).join(', ');
  // The statuses the tool knows to mean "still employed", as this file writes them (an empty
  // `Leaver` cell as --active's `(empty)`).
  const shown = (v: string) => (v === '' ? EMPTY_STATUS : v);
  const active = [...counts.keys()].filter((v) => meaning(status, v) === 'active').map(shown);
  const unknown = [...counts.keys()].filter((v) => meaning(status, v) === 'unknown').map(shown);
  const sources = status.vocabulary.sources.slice(0, 3).join(', ');
  const what =
    status.by === 'values'
      ? `holds employment statuses (${held})`
      : `is an employment status by its name${sources ? ` (as ${sources} export${status.vocabulary.sources.length > 1 ? '' : 's'} it)` : ''} and holds ${held}`;
  const keep = active.length
    ? `--status-column ${shellQuote(status.column)} --active ${shellQuote(active.join(','))} keeps ${active.map((a) => `'${a}'`).join(', ')} and leaves out the rest${unknown.length ? ` (${unknown.map((u) => `'${u}'`).join(', ')} too: add ${unknown.length > 1 ? 'them' : 'it'} to --active to keep ${unknown.length > 1 ? 'them' : 'it'})` : ''}`
    : `--status-column ${shellQuote(status.column)} --active VALUES keeps the statuses you name and leaves out the rest`;
  const fixes: Fix[] = [
    ...(active.length ? [{ kind: 'flags' as const, args: ['--status-column', status.column, '--active', active.join(',')] }] : []),
    { kind: 'flags', args: ['--no-status-column', status.column] },
  ];
  return issue(
    'error',
    'STATUS_COLUMN_UNDECIDED',
    `column '${status.column}' ${what}: people who left would be uploaded; say which statuses to keep: ${keep}; or, if it is no status, keep every row with --no-status-column ${shellQuote(status.column)}`,
    { line, column: status.column, fixes },
  );
}

/** One warning for every row --status-column left out: how many, and the first twenty by line, key and status. */
export function excludedWarning(rows: readonly ExcludedRow[], status: StatusColumn | undefined): Issue {
  const shown = rows
    .slice(0, 20)
    .map((r) => `line ${r.line}${r.key ? ` (${r.key})` : ''}: '${r.status}'`)
    .join(', ');
  const column = status?.column ?? 'the status column';
  return issue(
    'warning',
    'STATUS_EXCLUDED',
    `${rows.length} row${rows.length === 1 ? '' : 's'} left out by ${column} (not one of --active): ${shown}${rows.length > 20 ? `, and ${rows.length - 20} more` : ''}`,
    { line: null, column },
  );
}

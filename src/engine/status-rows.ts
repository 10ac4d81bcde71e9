// The rows an HR export's status column marks (../map/status-column.ts): a leaver is an error naming
// the row, unless the statuses to keep were given; then every other row is left out of the set, and
// the run says how many and which.
import { KINDS } from '../contract/kinds.js';
import { issue, type Issue } from '../issues.js';
import type { ColumnPlan } from '../map/column-plan.js';
import { statusText, statusVerdict, type StatusColumn } from '../map/status-column.js';
import type { RawRecord } from '../read/types.js';

export interface ExcludedRow {
  readonly line: number;
  readonly key: string;
  readonly status: string;
}

/** Whether the row goes on to be mapped and validated; a row left out is added to `excluded`. */
export function keepByStatus(plan: ColumnPlan, raw: RawRecord, validator: { add(issue: Issue): void }, excluded: ExcludedRow[]): boolean {
  const status = plan.status!;
  const value = raw.cells[status.index];
  const verdict = statusVerdict(status, value);
  if (verdict === 'keep') return true;
  const keyIndex = plan.fields.get(KINDS[plan.kind].keyField);
  const key = keyIndex === undefined ? '' : statusText(raw.cells[keyIndex]);
  if (verdict === 'excluded') {
    excluded.push({ line: raw.line, key, status: statusText(value) });
    return false;
  }
  validator.add(
    issue(
      'error',
      'LEAVER_ROW',
      `${status.column} is '${statusText(value)}'${key ? ` for ${key}` : ''}: the export marks this row as having left, and it would be uploaded; say which rows to keep with --status-column '${status.column}' --active VALUES (e.g. Active), or remove the row`,
      { line: raw.line, column: status.column, value: statusText(value) },
    ),
  );
  return true;
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

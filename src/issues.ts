// A problem found in the input, by the read, map or validate stage. Errors stop the run before
// anything is sent; warnings do not.

import type { Fix } from './errors.js';

export type Severity = 'error' | 'warning';

/** Every issue code, listed with its severity in docs/report.md (a test keeps the two in step). */
export const ISSUE_CODES = [
  // the file and its header
  'EMPTY_FILE',
  'OTHER_SHEETS',
  'HIDDEN_SHEET',
  'FORMAT_FROM_CONTENT',
  'HIDDEN_ROWS',
  'HIDDEN_ROWS_EXCLUDED',
  'NO_RECORDS',
  'NO_FINAL_LINE_BREAK',
  'SUSPECT_ENCODING',
  'MISSING_COLUMN',
  'MAPPED_COLUMN_MISSING',
  'AMBIGUOUS_COLUMN',
  'COLUMN_IGNORED',
  'IGNORED_COLUMN_MISSING',
  'UNPLACED_COLUMN',
  'UNKNOWN_COLUMN',
  'UNUSED_COLUMNS',
  'CELL_WITHOUT_COLUMN',
  'TOO_FEW_CELLS',
  'TOO_MANY_CELLS',
  'LAYOUT_CHANGED',
  // opening hours
  'INVALID_HOURS',
  'AMBIGUOUS_WEEKDAY',
  'HOURS_PAIR_INCOMPLETE',
  'HOURS_TWICE',
  'DAY_ROWS_DISAGREE',
  'MISSING_DAYS',
  'HOURS_ORDER',
  'HOURS_OUT_OF_RANGE',
  'SPLIT_HOURS',
  'AMBIGUOUS_TIME',
  'HOLIDAYS_LEFT_OUT',
  'OPEN_ALL_DAY',
  'CLOCK_FROM_EVIDENCE',
  // values
  'REQUIRED',
  'INVALID_EMAIL',
  'INVALID_VALUE',
  'VALUE_NOT_IN_TABLE',
  'NOT_A_NUMBER',
  'INEXACT_NUMBER',
  'WRONG_TYPE',
  'SCIENTIFIC_NOTATION',
  'FORMULA_LIKE',
  'INVALID_CHARACTER',
  'INVISIBLE_CHARACTER',
  'LOOKALIKE_CHARACTER',
  'ERROR_CELL',
  'FORMULA_NOT_CALCULATED',
  // across records
  'DUPLICATE_KEY',
  'DUPLICATE_EMAIL',
  'LOOKALIKE_KEY',
  'LOOKALIKE_EMAIL',
  'MULTIPLE_VALUES',
  'UNKNOWN_PARENT',
  // rows an HR export marks as leavers
  'LEAVER_ROW',
  'STATUS_COLUMN_UNDECIDED',
  'STATUS_EXCLUDED',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

export interface Issue {
  readonly severity: Severity;
  /** Stable identifier for scripts and tests, e.g. "INVALID_EMAIL". */
  readonly code: IssueCode;
  /** Physical line of the record (1 for the header), or null for the file as a whole. */
  readonly line: number | null;
  /** The source column as written in the file, or null. */
  readonly column: string | null;
  /** The wire field, e.g. "email" or "opentToGuestsPeriod.1.to", or null. */
  readonly field: string | null;
  /** The value as written in the file, or null. */
  readonly value: string | null;
  /** What is wrong and what to do, in plain words. */
  readonly message: string;
  /** The fixes the message offers, as data (present only when there is one); see `Fix` in errors.ts. */
  readonly fixes?: readonly Fix[];
}

export function issue(
  severity: Severity,
  code: IssueCode,
  message: string,
  at: { line?: number | null; column?: string | null; field?: string | null; value?: unknown; fixes?: readonly Fix[] } = {},
): Issue {
  const found = {
    severity,
    code,
    line: at.line ?? null,
    column: at.column ?? null,
    field: at.field ?? null,
    value: at.value === undefined || at.value === null ? null : asText(at.value),
    message,
  };
  return at.fixes !== undefined && at.fixes.length > 0 ? { ...found, fixes: at.fixes } : found;
}

/** A cell's value as the user wrote it: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

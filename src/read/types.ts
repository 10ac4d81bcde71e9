// What the read stage hands to the map stage: one source record, as data.
import type { Issue } from '../issues.js';

export type InputFormat = 'csv' | 'json' | 'ndjson' | 'xlsx';

export interface RawRecord {
  /** Physical line where the record starts, 1-based (a CSV header is line 1). */
  readonly line: number;
  /**
   * Source column names. CSV records share one array (the header); a JSON record has its own keys.
   * The map stage compiles a column plan once per distinct array.
   */
  readonly columns: readonly string[];
  /** Values aligned with `columns`: strings from CSV, any JSON value from JSON. */
  readonly cells: readonly unknown[];
  /**
   * CSV: no cell holds a control character (a line break or a tab inside a cell included), a soft
   * hyphen or any character from U+0300 up, so every cell is its own NFC and shows all it holds: the
   * validator skips those checks. Absent: each cell is checked.
   */
  readonly plain?: boolean;
  /** CSV: the file's last record, with no line break after it (was the file cut short?). */
  readonly unterminated?: 'lf' | 'crlf';
  /** What the reader found wrong with the record itself (a workbook's hidden row, an error cell). */
  readonly issues?: readonly Issue[];
}

/** --hidden-rows: what to do with a workbook's hidden rows (unset: each is a HIDDEN_ROWS error). */
export type HiddenRows = 'include' | 'exclude';
export const HIDDEN_ROWS_CHOICES: readonly HiddenRows[] = ['include', 'exclude'];

export interface ReadOptions {
  /** Display name of the source, used in every message ("staff.csv", "-" is shown as "stdin"). */
  readonly source: string;
  readonly format?: InputFormat | undefined;
  readonly delimiter?: string | undefined;
  readonly encoding?: string | undefined;
  /** Workbooks only: the sheet to read, by name or by its number among the visible sheets (default: the first visible). */
  readonly sheet?: string | undefined;
  /** Workbooks only: the 1-based row that names the columns (default: the first that is not blank). */
  readonly headerRow?: number | undefined;
  readonly hiddenRows?: HiddenRows | undefined;
  /** Ctrl-C: a workbook's reading stops at once. */
  readonly signal?: AbortSignal | undefined;
}

/** What reading found out about the file as a whole; complete once its records have all been read. */
export interface ReadInfo {
  format: InputFormat;
  /** The CSV delimiter in use (given or detected), so output meant for Excel can match it. */
  delimiter: string | null;
  /** The header row (CSV, workbook), so a file with a header and no records is known as such. */
  header: readonly string[] | null;
  /** Its line (or row): 1, unless blank lines or Excel's `sep=` line come first. */
  headerLine: number | null;
  /** Workbooks: the sheet read (hidden when --sheet named a hidden one), and the other visible sheets that hold anything. */
  sheet?: {
    readonly name: string;
    readonly hidden: boolean;
    readonly others: readonly string[];
    /** Its hidden rows (1-based) left out, as --hidden-rows exclude asked. */
    readonly excludedRows?: readonly number[];
  };
  /** Warnings about the file as a whole (read as another format than its name says, a hidden sheet read). */
  notes?: Issue[];
  /** Workbooks: the header's columns that are hidden, so every message naming one can say so. */
  hiddenColumns?: readonly string[];
}

/** A file's records in batches, and what was learnt about the file while reading them. */
export interface RecordSource {
  readonly batches: AsyncIterable<readonly RawRecord[]>;
  readonly info: Readonly<ReadInfo>;
}

/** A record far larger than any real one is an error rather than a memory blow-up. */
export const MAX_RECORD_CHARS = 1024 * 1024;

/** Keys that would reach an object's prototype machinery if a record were ever merged naively. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Standard input, for a path of "-": opened when called (opening it costs a run that never reads it). */
export type Stdin = () => NodeJS.ReadableStream;

/** An input's name in messages: the path, or "stdin" for "-". */
export function displayName(path: string): string {
  return path === '-' ? 'stdin' : path;
}

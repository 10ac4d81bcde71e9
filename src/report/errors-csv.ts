// `--errors-csv FILE`: the rejected rows as they were, plus an `errors` column, to fix in Excel.
// Collecting is cheap (the raw cells are kept as read); the text is made once, at the end.
import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { asText, type Issue } from '../issues.js';
import type { RawRecord } from '../read/types.js';

interface Rejected {
  readonly raw: RawRecord;
  readonly errors: string;
}

/** One row's errors in one cell: "line 14: E-mail: email 'bob@' is not… | Name: …". */
export function errorsCell(line: number, issues: readonly Issue[]): string {
  const parts: string[] = [];
  for (const i of issues) if (i.severity === 'error') parts.push(i.column ? `${i.column}: ${i.message}` : i.message);
  return `line ${line}: ${parts.join(' | ')}`;
}

function quote(cell: string, delimiter: string): string {
  const needs = cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') || cell.includes('\r');
  return needs ? `"${cell.replaceAll('"', '""')}"` : cell;
}

export class RejectedRows {
  private readonly rows: Rejected[] = [];
  /** The header of the first rejected row, or of the file (a file whose header is wrong). */
  private header: readonly string[] | undefined;

  /** The file's header, so a file with no rejected row still gets one (and a stale file is replaced). */
  readonly columns = (columns: readonly string[]): void => {
    this.header ??= columns;
  };

  readonly add = (raw: RawRecord, issues: readonly Issue[]): void => {
    this.header ??= raw.columns;
    this.rows.push({ raw, errors: errorsCell(raw.line, issues) });
  };

  get count(): number {
    return this.rows.length;
  }

  /**
   * The file's text: UTF-8 with a BOM and CRLF, which Excel opens as it should. CSV rows keep their
   * positions (the header is written as it was); JSON records, whose keys may differ, are written
   * under the union of their keys, values that are not text as JSON.
   */
  toCsv(delimiter = ',', fileErrors: readonly Issue[] = []): string {
    const shared = this.rows.every((r) => r.raw.columns === this.header);
    let columns: readonly string[] = this.header ?? [];
    if (!shared) columns = [...new Set(this.rows.flatMap((r) => r.raw.columns))];
    const width = Math.max(columns.length, ...(shared ? this.rows.map((r) => r.raw.cells.length) : []));
    const line = (cells: readonly string[]) => cells.map((c) => quote(c, delimiter)).join(delimiter);
    const pad = (cells: string[]) => (cells.length < width ? cells.concat(new Array<string>(width - cells.length).fill('')) : cells);
    const out = [line([...pad([...columns]), 'errors'])];
    for (const { raw, errors } of this.rows) {
      let cells: string[];
      if (shared) cells = raw.cells.map(cellText);
      else {
        const at = new Map(raw.columns.map((c, i) => [c, i]));
        cells = columns.map((c) => (at.has(c) ? cellText(raw.cells[at.get(c)!]) : ''));
      }
      out.push(line([...pad(cells), errors]));
    }
    // Errors no row carries (a required column missing, say) still get a row, so the file says why.
    if (!this.rows.length && fileErrors.length) out.push(line([...pad([]), errorsCell(fileErrors[0]!.line ?? 1, fileErrors)]));
    return `\uFEFF${out.join('\r\n')}\r\n`;
  }
}

function cellText(value: unknown): string {
  return value === undefined || value === null ? '' : asText(value);
}

/** Writes the file; a path that cannot be written is the flag's fault, named as such. */
/** Checked before the file is read, so a typo in the path does not cost a long validation first. */
export async function checkWritable(path: string): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  const problem = existing?.isDirectory()
    ? 'it is a directory'
    : await access(existing ? path : dirname(resolve(path)), constants.W_OK).then(
        () => undefined,
        (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? 'its directory does not exist' : 'permission denied'),
      );
  if (problem) throw new UsageError('ERRORS_CSV_UNWRITABLE', `--errors-csv ${path}: cannot write the file: ${problem}`, 'give a path in a directory you can write to');
}

export async function writeErrorsCsv(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (err) {
    throw new UsageError('ERRORS_CSV_UNWRITABLE', `--errors-csv ${path}: cannot write the file: ${(err as Error).message}`, 'give a path in a directory you can write to');
  }
}

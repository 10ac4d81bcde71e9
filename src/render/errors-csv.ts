// `--errors-csv FILE`: the rejected rows as they were, plus an `errors` column, to fix in Excel. UTF-8
// with a BOM and CRLF, which Excel opens as it should; formula-like cells neutralised (./csv-cell.ts);
// 0600, as it holds names and emails. Written line by line, so 150,000 rejected rows are no harder
// than 15.
import { asText, type Issue } from '../issues.js';
import type { RejectedRecord } from '../validate/index.js';
import { csvLine } from './csv-cell.js';
import { checkWritable as check, writePrivateFile } from '../files/private-file.js';

/** One row's errors in one cell: "line 14: E-mail: email 'bob@' is not… | Name: …". */
export function errorsCell(line: number, issues: readonly Issue[]): string {
  const parts: string[] = [];
  for (const i of issues) if (i.severity === 'error') parts.push(i.column ? `${i.column}: ${i.message}` : i.message);
  return `line ${line}: ${parts.join(' | ')}`;
}

function cellText(value: unknown): string {
  return value === undefined || value === null ? '' : asText(value);
}

/**
 * The file's lines. CSV rows keep their positions (the header is written as it was); JSON records,
 * whose keys may differ, are written under the union of their keys, values that are not text as JSON.
 * Errors no row carries (a required column missing, say) still get a row, so the file says why.
 */
export function* errorsCsvLines(
  header: readonly string[] | null,
  rejected: readonly RejectedRecord[],
  delimiter = ',',
  fileErrors: readonly Issue[] = [],
): Generator<string> {
  const shared = rejected.every((r) => r.raw.columns === (header ?? rejected[0]?.raw.columns));
  let columns: readonly string[] = header ?? rejected[0]?.raw.columns ?? [];
  if (!shared) columns = [...new Set(rejected.flatMap((r) => r.raw.columns))];
  // A loop, not Math.max(...rows): a spread of 150,000 arguments overflows the stack.
  let width = columns.length;
  if (shared) for (const r of rejected) width = Math.max(width, r.raw.cells.length);
  const pad = (cells: string[]) => (cells.length < width ? cells.concat(new Array<string>(width - cells.length).fill('')) : cells);
  const line = (cells: readonly string[]) => `${csvLine(cells, delimiter)}\r\n`;
  yield `\uFEFF${line([...pad([...columns]), 'errors'])}`;
  for (const { raw, issues } of rejected) {
    let cells: string[];
    if (shared) cells = raw.cells.map(cellText);
    else {
      const at = new Map(raw.columns.map((c, i) => [c, i]));
      cells = columns.map((c) => (at.has(c) ? cellText(raw.cells[at.get(c)!]) : ''));
    }
    yield line([...pad(cells), errorsCell(raw.line, issues)]);
  }
  if (!rejected.length && fileErrors.length) yield line([...pad([]), errorsCell(fileErrors[0]!.line ?? 1, fileErrors)]);
}

export function checkWritable(path: string): Promise<void> {
  return check(path, '--errors-csv');
}

export function writeErrorsCsv(path: string, lines: Iterable<string>): Promise<void> {
  return writePrivateFile(path, '--errors-csv', lines);
}

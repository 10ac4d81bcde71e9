// An export as CSV: the template's layout, comma-separated, CRLF, every record on its own line.
//
// Formula-safe without changing a value: a text cell that a spreadsheet would run as a formula (it
// starts with = + - @, a tab or a carriage return) is written with one leading space. A spreadsheet
// shows it as text; this tool trims every cell it reads, so the file uploads back to exactly the
// recorded value. (The apostrophe that ../render/csv-cell.ts puts in front of such cells in the files
// people only read would become part of the value here.)
import type { Cell, Table } from './layout.js';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvText(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const safe = FORMULA_START.test(cell) ? ` ${cell}` : cell;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The file's text in pieces; `bom` for a file (Excel reads UTF-8 by it), none on standard output. */
export function* csvChunks(table: Table, bom: boolean): Generator<string> {
  const line = (cells: readonly Cell[]) => `${cells.map(csvText).join(',')}\r\n`;
  yield `${bom ? '\uFEFF' : ''}${line(table.header)}`;
  let batch = '';
  let n = 0;
  for (const row of table.rows()) {
    batch += line(row);
    if (++n % 1000 === 0) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

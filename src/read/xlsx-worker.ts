// SheetJS parses a whole workbook in one synchronous call. Run on the main thread, a big workbook
// would hold Ctrl-C and SIGTERM until it finished, and a hostile one could take the process down;
// here it runs in a worker thread with its own heap limit, which the main thread ends at once on a
// signal. The worker answers two questions: which sheets the book has, then one sheet's cells.
//
// This file is started by path (see ./xlsx-session.ts) and so imports nothing of ours at run time:
// under the tests it runs as TypeScript through Node's type stripping, where `./x.js` would not resolve.
import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';

export interface SheetFacts {
  readonly name: string;
  /** Hidden or "very hidden" in the workbook. */
  readonly hidden: boolean;
  /** Holds at least one cell. */
  readonly filled: boolean;
}

export interface SheetRow {
  /** 0-based row index. */
  readonly r: number;
  /** Displayed text of columns 0.., '' where empty. */
  readonly cells: string[];
  /** Columns holding an error value (#N/A, #REF!, …). */
  readonly errors: number[];
}

export interface SheetCells {
  /** Rows holding at least one cell, in order (sent ahead in batches of `rows` answers). */
  readonly rows: SheetRow[];
  readonly hiddenRows: number[];
  readonly hiddenColumns: number[];
  /** Merged ranges, as A1 references ("B1:C1"). */
  readonly merges: string[];
  /** Formula cells with no calculated value, found in the sheet's XML (./xlsx-hidden.ts): SheetJS drops them. */
  readonly uncalculated?: readonly { readonly r: number; readonly c: number; readonly formula: string; readonly cached?: string }[];
}

export type WorkerAnswer =
  | { readonly type: 'book'; readonly sheets: SheetFacts[] }
  | { readonly type: 'rows'; readonly rows: SheetRow[] }
  | { readonly type: 'sheet'; readonly cells: SheetCells }
  | { readonly type: 'unreadable'; readonly message: string };

export type WorkerQuestion = { readonly sheet: number } | { readonly done: true };

interface Cell {
  t?: string;
  v?: unknown;
  w?: string;
  z?: string | number;
}

const port = parentPort!;
const post = (answer: WorkerAnswer) => port.postMessage(answer);

let book: XLSX.WorkBook;
try {
  // Formulas are not evaluated: the cached result the spreadsheet saved is what it displays.
  // `cellStyles` gives the hidden rows and columns, but makes xlsx ten times slower to read: those
  // are read from the XML instead (./xlsx-hidden.ts), and it is asked for only for .xls. `dense` stores rows as arrays, so a stray cell in
  // the far corner (or a declared range of A1:XFD1048576) costs one entry, not a walk over the range.
  const { bytes, styles } = workerData as { bytes: Uint8Array; styles: boolean };
  book = XLSX.read(bytes, {
    type: 'buffer',
    cellText: true,
    cellNF: true,
    cellDates: false,
    cellFormula: false,
    cellHTML: false,
    cellStyles: styles,
    dense: true,
  });
  const states = book.Workbook?.Sheets ?? [];
  post({
    type: 'book',
    sheets: book.SheetNames.map((name, i) => ({
      name,
      hidden: Boolean(states[i]?.Hidden),
      filled: (book.Sheets[name]?.['!data']?.length ?? 0) > 0,
    })),
  });
} catch (err) {
  post({ type: 'unreadable', message: err instanceof Error ? err.message : String(err) });
}

port.on('message', (question: WorkerQuestion) => {
  if ('done' in question) {
    port.close();
    return;
  }
  post({ type: 'sheet', cells: sheetCells(book.Sheets[book.SheetNames[question.sheet]!]!) });
});

function sheetCells(ws: XLSX.WorkSheet): SheetCells {
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  let rows: SheetRow[] = [];
  const data: ((Cell | undefined)[] | undefined)[] = ws['!data'] ?? [];
  // forEach skips the holes of a sparse array: only rows and cells that exist are visited. Rows go
  // to the main thread in batches, each freed here once sent, so the two copies never coexist whole.
  data.forEach((row, r) => {
    if (!row) return;
    data[r] = undefined;
    if (rows.length === 5000) {
      post({ type: 'rows', rows });
      rows = [];
    }
    const cells: string[] = [];
    const errors: number[] = [];
    row.forEach((cell, c) => {
      if (!cell) return;
      while (cells.length < c) cells.push('');
      cells[c] = display(cell, date1904);
      if (cell.t === 'e') errors.push(c);
    });
    if (cells.length) rows.push({ r, cells, errors });
  });
  const hiddenRows: number[] = [];
  (ws['!rows'] ?? []).forEach((row, r) => row?.hidden && hiddenRows.push(r));
  const hiddenColumns: number[] = [];
  (ws['!cols'] ?? []).forEach((col, c) => col?.hidden && hiddenColumns.push(c));
  const merges = (ws['!merges'] ?? []).map((m) => XLSX.utils.encode_range(m));
  return { rows, hiddenRows, hiddenColumns, merges };
}

/** The text a spreadsheet shows, except where "General" would show a whole number as 1.23457E+11. */
function display(cell: Cell, date1904: boolean): string {
  const v = cell.v;
  if (v === undefined || v === null) return '';
  if (cell.t === 'e') return cell.w ?? '#ERROR';
  if (cell.t === 'n' && typeof v === 'number') {
    const dotted = dottedTime(cell.z, v, date1904);
    if (dotted !== undefined) return dotted;
    if (Number.isSafeInteger(v) && /E[+-]?\d+$/i.test(cell.w ?? '')) return String(v);
  }
  if (cell.w !== undefined) return cell.w;
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : typeof v === 'string' ? v : '';
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * Times and dates written with `.` separators (`hh.mm`, `h.mm`, `[$-40B]h.mm`, `dd.mm.yyyy`), common in
 * Finland, Denmark, Germany and Italy. SheetJS cannot format the times (the cell would arrive as
 * 0.375), and `9.30` as text would be ambiguous where the cell is not: a time becomes `09:30`, a
 * date the day it is, in the order its format gives.
 */
function dottedTime(format: string | number | undefined, value: number, date1904: boolean): string | undefined {
  if (typeof format !== 'string' || !format.includes('.')) return undefined;
  // The locale prefix (`[$-40B]`, `[$-fi-FI]`) and the sections after the first (`;@`, text as text:
  // Excel writes `[$-40B]h.mm;@` for a Finnish time) say nothing about how a time is shown.
  const f = format
    .replace(/\[\$-[^\]]*\]/g, '')
    .replace(/[\\"]/g, '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const time = /^(\[h+\]|h{1,2})\.mm(\.ss)?$/.exec(f);
  if (time) {
    const seconds = Math.round((time[1]!.startsWith('[') ? value : value - Math.floor(value)) * 86400);
    const hh = Math.floor(seconds / 3600);
    const clock = `${pad(hh, 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}`;
    return time[2] ? `${clock}:${pad(seconds % 60, 2)}` : clock;
  }
  const date = /^(d{1,2})\.(m{1,2})\.(y{2}|y{4})$/.exec(f);
  if (date) {
    // Serial day numbers count from 1899-12-30 (the 1900 system, as Excel's leap-year bug makes it
    // from March 1900 on) or from 1904-01-01.
    const day = new Date(Date.UTC(date1904 ? 1904 : 1899, date1904 ? 0 : 11, date1904 ? 1 : 30) + Math.floor(value) * 86400000);
    const y = day.getUTCFullYear();
    const year = date[3]!.length === 2 ? pad(y % 100, 2) : String(y);
    return `${pad(day.getUTCDate(), date[1]!.length)}.${pad(day.getUTCMonth() + 1, date[2]!.length)}.${year}`;
  }
  return undefined;
}

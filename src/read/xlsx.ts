// Spreadsheet workbooks (.xlsx, .xlsm, .xls, .ods) to raw records: one sheet, each cell as the
// spreadsheet DISPLAYS it (leading zeros of a 00042 format kept, a time as 09:30), each record's
// spreadsheet row as its line. The library (SheetJS CE, see docs/input.md) loads only for workbooks.
import { checkHeader } from './csv.js';
import { InputError, UsageError } from '../errors.js';
import type { RawRecord, ReadInfo } from './types.js';
import { declaredUnzippedSize } from './zip-size.js';

/** Far above any real store or staff list, far below what would exhaust memory. */
export const MAX_WORKBOOK_BYTES = 50 * 1024 * 1024;
export const MAX_UNZIPPED_BYTES = 500 * 1024 * 1024;

/** The first bytes of a zip (xlsx, ods) or an OLE compound file (xls). */
export function isWorkbook(head: Uint8Array): boolean {
  const zip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  const ole = head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0;
  return zip || ole;
}

export async function readAll(bytes: AsyncIterable<Uint8Array>, source: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bytes) {
    size += chunk.length;
    if (size > MAX_WORKBOOK_BYTES) throw tooLarge(source, `is larger than ${MAX_WORKBOOK_BYTES / 1024 / 1024} MiB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooLarge(source: string, why: string): InputError {
  return new InputError('WORKBOOK_TOO_LARGE', `${source}: the workbook ${why}`, 'save the sheet as CSV (UTF-8) and upload that file');
}

/** `--sheet`: a sheet's name, or its 1-based position when no sheet is named so. */
function pickSheet(names: readonly string[], wanted: string | undefined, source: string): string {
  if (names.length === 0) throw new InputError('WORKBOOK_EMPTY', `${source}: the workbook has no sheets`, 'check the file');
  if (wanted === undefined) return names[0]!;
  if (names.includes(wanted)) return wanted;
  const n = /^\d+$/.test(wanted) ? Number(wanted) : NaN;
  if (n >= 1 && n <= names.length) return names[n - 1]!;
  throw new UsageError(
    'SHEET_NOT_FOUND',
    `--sheet ${wanted}: ${source} has no such sheet; its sheets are ${names.map((s) => `'${s}'`).join(', ')}`,
    'name a sheet, or give its number counting from 1',
  );
}

interface Cell {
  t?: string;
  v?: unknown;
  w?: string;
}

/** The text a spreadsheet shows, except where "General" would show a whole number as 1.23457E+11. */
function display(cell: Cell | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return '';
  if (cell.t === 'n' && typeof cell.v === 'number' && Number.isSafeInteger(cell.v) && /E[+-]?\d+$/i.test(cell.w ?? '')) {
    return String(cell.v);
  }
  if (cell.t === 'e') return cell.w ?? '#ERROR';
  const v = cell.v;
  if (cell.w !== undefined) return cell.w;
  return v instanceof Date ? v.toISOString() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : typeof v === 'string' ? v : '';
}

export async function* readWorkbook(bytes: Buffer, source: string, sheet: string | undefined, info: ReadInfo): AsyncGenerator<RawRecord[]> {
  if (bytes[0] === 0x50) {
    const unzipped = declaredUnzippedSize(bytes);
    if (unzipped === undefined)
      throw new InputError(
        'WORKBOOK_UNREADABLE',
        `${source}: the file starts like a workbook but is not a readable zip`,
        'open it in a spreadsheet program and save it again, or save it as CSV',
      );
    if (unzipped > MAX_UNZIPPED_BYTES)
      throw tooLarge(source, `unpacks to ${Math.round(unzipped / 1024 / 1024)} MiB (the limit is ${MAX_UNZIPPED_BYTES / 1024 / 1024} MiB)`);
  }
  const XLSX = await import('@e965/xlsx');
  let book;
  try {
    // Formulas are not evaluated: the cached result the spreadsheet saved is what it displays.
    book = XLSX.read(bytes, { type: 'buffer', cellText: true, cellDates: false, cellFormula: false, cellHTML: false, sheets: undefined });
  } catch (err) {
    throw new InputError(
      'WORKBOOK_UNREADABLE',
      `${source}: cannot read the workbook: ${(err as Error).message}`,
      'open it in a spreadsheet program and save it again, or save it as CSV',
    );
  }
  const name = pickSheet(book.SheetNames, sheet, source);
  info.sheet = { name, others: book.SheetNames.filter((n) => n !== name && book.Sheets[n]?.['!ref'] !== undefined) };
  const ws = book.Sheets[name];
  if (!ws?.['!ref']) return;
  const range = XLSX.utils.decode_range(ws['!ref']);
  let columns: string[] | undefined;
  let batch: RawRecord[] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const cells: string[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) cells.push(display(ws[XLSX.utils.encode_cell({ r, c })] as Cell | undefined));
    // Blank rows are skipped, before the header as after it, as in CSV.
    if (cells.every((v) => v.trim() === '')) continue;
    if (!columns) {
      columns = checkHeader(source, r + 1, cells);
      info.header = columns;
      info.headerLine = r + 1;
      continue;
    }
    batch.push({ line: r + 1, columns, cells });
    if (batch.length >= 1000) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

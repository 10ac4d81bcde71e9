// Spreadsheet workbooks (.xlsx, .xlsm, .xls, .ods) to raw records: one sheet, each cell as the
// spreadsheet DISPLAYS it (leading zeros of a 00042 format kept, a time as 09:30), each record's
// spreadsheet row as its line. What the zip really holds is counted first (./zip-scan.ts); SheetJS
// (see docs/input.md) then parses in a worker thread (./xlsx-session.ts), which a signal ends at once.
import { flagArgs, InputError, UsageError, type Fix } from '../errors.js';
import type { RawRecord, ReadInfo, ReadOptions } from './types.js';
import { sheetRecords } from './sheet-records.js';
import { openWorkbook, type SheetFacts, type WorkerFailure } from './xlsx-session.js';
import { hiddenParts } from './xlsx-hidden.js';
import { scanZip, type ZipCounts } from './zip-scan.js';

/** Far above any real store or staff list, far below what would exhaust memory. */
export const MAX_WORKBOOK_BYTES = 50 * 1024 * 1024;

/**
 * What a zipped workbook may really hold, counted while unpacking: a list of 100,000 team members
 * with a dozen columns is about 1.2 million cells and 60 MiB of XML. Past these, SheetJS's own
 * structures would no longer fit the worker's heap (docs/hostile-inputs.md has the measurements).
 */
export const WORKBOOK_LIMITS: Readonly<ZipCounts> = { bytes: 256 * 1024 * 1024, cells: 1_000_000, strings: 1_000_000 };

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

function unreadable(source: string, why: string): InputError {
  return new InputError(
    'WORKBOOK_UNREADABLE',
    `${source}: cannot read the workbook: ${why}`,
    'open it in a spreadsheet program and save it again, or save it as CSV',
  );
}

function failed(source: string, failure: WorkerFailure): InputError {
  return failure.failure === 'too-large' ? tooLarge(source, 'needs more memory to read than the tool allows') : unreadable(source, failure.message);
}

const LIMIT_WORDS: Record<keyof ZipCounts, (n: number) => string> = {
  bytes: (n) => `unpacks to more than ${n / 1024 / 1024} MiB`,
  cells: (n) => `holds more than ${n.toLocaleString('en-US')} cells`,
  strings: (n) => `holds more than ${n.toLocaleString('en-US')} distinct texts`,
};

const named = (s: SheetFacts) => (s.hidden ? `'${s.name}' (hidden)` : `'${s.name}'`);

/**
 * `--sheet`: a sheet's name (hidden sheets too: naming one is asking for it), or its number counting
 * the sheets the spreadsheet shows. Without it, the first visible sheet.
 */
export function pickSheet(sheets: readonly SheetFacts[], wanted: string | undefined, source: string): number {
  // A workbook no spreadsheet program writes: damaged like one the reader cannot open, and mended the same way.
  if (sheets.length === 0) throw unreadable(source, 'it has no sheets');
  const visible = sheets.flatMap((s, i) => (s.hidden ? [] : [i]));
  const list = sheets.map(named).join(', ');
  if (wanted === undefined) {
    if (visible.length) return visible[0]!;
    throw new UsageError('SHEET_NOT_FOUND', `${source}: every sheet of the workbook is hidden (${list})`, 'name the sheet to read with --sheet NAME').withFixes(
      ...sheetFixes(sheets),
    );
  }
  const byName = sheets.findIndex((s) => s.name === wanted);
  if (byName !== -1) return byName;
  const n = /^\d+$/.test(wanted) ? Number(wanted) : NaN;
  if (n >= 1 && n <= visible.length) return visible[n - 1]!;
  throw new UsageError(
    'SHEET_NOT_FOUND',
    `--sheet ${wanted}: ${source} has no such sheet; its sheets are ${list}`,
    'name a sheet, or give its number counting the visible sheets from 1',
  ).withFixes(...sheetFixes(sheets));
}

/** One `--sheet NAME` per sheet, each an alternative (a later --sheet wins over one given before). */
const sheetFixes = (sheets: readonly SheetFacts[]): Fix[] => sheets.map((s) => ({ kind: 'flags', args: flagArgs('--sheet', s.name) }));

export async function* readWorkbook(bytes: Buffer, options: ReadOptions, info: ReadInfo): AsyncGenerator<RawRecord[]> {
  const { source, signal } = options;
  const zipped = bytes[0] === 0x50;
  const parts = hiddenParts();
  if (zipped) {
    const scan = await scanZip(bytes, WORKBOOK_LIMITS, signal, (name) => parts.readerFor(name));
    if ('unreadable' in scan) throw unreadable(source, `the file starts like a workbook but is not a readable zip (${scan.unreadable})`);
    if (scan.over) throw tooLarge(source, `${LIMIT_WORDS[scan.over](WORKBOOK_LIMITS[scan.over])} (counted while unpacking)`);
  }
  // .xls (not zipped) and .xlsb (binary sheets): SheetJS reports their hidden rows and columns itself.
  const session = await openWorkbook(bytes, !zipped || !parts.xml(), signal);
  if ('failure' in session) throw failed(source, session);
  // SheetJS tells no hidden sheet of an .ods: that is read from its content.xml (./ods-hidden.ts).
  const sheets = session.sheets.map((s) => (parts.ods.get(s.name)?.hidden ? { ...s, hidden: true } : s));
  let cells;
  let index;
  try {
    index = pickSheet(sheets, options.sheet, source);
    cells = await session.cells(index);
  } finally {
    session.close();
  }
  if ('failure' in cells) throw failed(source, cells);
  const sheet = sheets[index]!;
  const hidden = parts.forSheet(
    sheet.name,
    cells.rows.map((row) => row.r),
  );
  if (hidden) cells = { ...cells, hiddenRows: hidden.rows, hiddenColumns: hidden.columns, uncalculated: hidden.uncalculated ?? [] };
  info.sheet = {
    name: sheet.name,
    hidden: sheet.hidden,
    others: sheets.filter((s, i) => i !== index && !s.hidden && s.filled).map((s) => s.name),
  };
  const read = sheetRecords(cells, { source, sheet: sheet.name, headerRow: options.headerRow, hiddenRows: options.hiddenRows });
  info.header = read.header;
  info.headerLine = read.headerLine;
  info.hiddenColumns = read.hiddenColumns;
  if (read.excludedRows.length) info.sheet = { ...info.sheet, excludedRows: read.excludedRows };
  for (let i = 0; i < read.records.length; i += 1000) yield read.records.slice(i, i + 1000);
}

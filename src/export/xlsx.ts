// An export as an Excel workbook: one sheet in the template's layout. Text is written as text cells,
// which a spreadsheet never runs as a formula and never turns into a number or a date (00123 stays
// 00123), so nothing needs neutralising. A number is a number cell only when the spreadsheet's own
// display of it is the number itself (0.30000000000000004 displays as 0.3): otherwise it is written
// as its text, which the reader takes back exactly.
//
// The key columns (employeeID, nodeKey, parentKey) are formatted as Text, cells and whole columns: a
// person who types new hires under `000140` keeps the zeros, where a General column would make them
// the number 140.
import type { Cell, Table } from './layout.js';

/** Columns whose values are identifiers: Text format, so what is typed there stays as typed. */
export const TEXT_COLUMNS: ReadonlySet<string> = new Set(['employeeID', 'nodeKey', 'parentKey']);

/** The spreadsheet's built-in number format 49, "Text" (`@`). */
const TEXT_FORMAT = '@';

export async function xlsxBytes(table: Table, sheet: string): Promise<Buffer> {
  const XLSX = await import('@e965/xlsx');
  // SSF is SheetJS's number formatter, the one its reader displays number cells with.
  const ssf = XLSX.SSF as { format(format: string, value: number): string };
  const rows: (string | number | null)[][] = [[...table.header]];
  for (const row of table.rows()) rows.push(row.map((c) => exactCell(c, (n) => ssf.format('General', n))));
  const ws = XLSX.utils.aoa_to_sheet(rows, { sheetStubs: false });
  const textColumns = table.header.flatMap((name, c) => (TEXT_COLUMNS.has(name) ? [c] : []));
  for (const c of textColumns) {
    for (let r = 0; r < rows.length; r++) {
      const cell = ws[XLSX.utils.encode_cell({ r, c })] as { z?: string } | undefined;
      if (cell) cell.z = TEXT_FORMAT;
    }
  }
  ws['!cols'] = table.header.map((h, i) => ({ wch: Math.min(40, Math.max(h.length, ...rows.slice(1, 200).map((r) => String(r[i] ?? '').length)) + 2) }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, ws, sheet);
  const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
  return textColumns.length ? textColumnStyles(XLSX.CFB, bytes, textColumns) : bytes;
}

function exactCell(cell: Cell, display: (n: number) => string): string | number | null {
  if (typeof cell !== 'number') return cell;
  return display(cell) === String(cell) ? cell : String(cell);
}

interface Zip {
  read(data: Buffer, options: { type: 'buffer' }): ZipFile;
  find(file: ZipFile, path: string): { content: Buffer | Uint8Array } | null;
  write(file: ZipFile, options: { type: 'buffer'; fileType: 'zip'; compression: boolean }): Buffer;
}
type ZipFile = object;

/**
 * Gives the key columns themselves the Text style (`<col … style="N">`), so cells typed below the
 * export are Text too. SheetJS writes the style for the cells but no column styles, so the sheet's
 * `<col>` elements are completed here, with the index of the Text style SheetJS already wrote.
 */
function textColumnStyles(zip: unknown, bytes: Buffer, columns: readonly number[]): Buffer {
  const CFB = zip as Zip;
  const file = CFB.read(bytes, { type: 'buffer' });
  const styles = CFB.find(file, '/xl/styles.xml');
  const sheet = CFB.find(file, '/xl/worksheets/sheet1.xml');
  if (!styles || !sheet) throw new Error('the workbook writer left out its styles or its sheet');
  const xfs = /<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(Buffer.from(styles.content).toString('utf8'))?.[1] ?? '';
  const text = [...xfs.matchAll(/<xf\b[^>]*>/g)].findIndex((m) => /\bnumFmtId="49"/.test(m[0]));
  if (text === -1) throw new Error('the workbook writer left out the Text style');
  let xml = Buffer.from(sheet.content).toString('utf8');
  for (const c of columns) xml = xml.replace(new RegExp(`<col min="${c + 1}" max="${c + 1}" `), `$&style="${text}" `);
  sheet.content = Buffer.from(xml, 'utf8');
  return CFB.write(file, { type: 'buffer', fileType: 'zip', compression: true });
}

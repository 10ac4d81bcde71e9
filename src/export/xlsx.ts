// An export as an Excel workbook: one sheet in the template's layout. Text is written as text cells,
// which a spreadsheet never runs as a formula and never turns into a number or a date (00123 stays
// 00123), so nothing needs neutralising. A number is a number cell only when the spreadsheet's own
// display of it is the number itself (0.30000000000000004 displays as 0.3): otherwise it is written
// as its text, which the reader takes back exactly.
import type { Cell, Table } from './layout.js';

export async function xlsxBytes(table: Table, sheet: string): Promise<Buffer> {
  const XLSX = await import('@e965/xlsx');
  // SSF is SheetJS's number formatter, the one its reader displays number cells with.
  const ssf = XLSX.SSF as { format(format: string, value: number): string };
  const rows: (string | number | null)[][] = [[...table.header]];
  for (const row of table.rows()) rows.push(row.map((c) => exactCell(c, (n) => ssf.format('General', n))));
  const ws = XLSX.utils.aoa_to_sheet(rows, { sheetStubs: false });
  ws['!cols'] = table.header.map((h, i) => ({ wch: Math.min(40, Math.max(h.length, ...rows.slice(1, 200).map((r) => String(r[i] ?? '').length)) + 2) }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, ws, sheet);
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

function exactCell(cell: Cell, display: (n: number) => string): string | number | null {
  if (typeof cell !== 'number') return cell;
  return display(cell) === String(cell) ? cell : String(cell);
}

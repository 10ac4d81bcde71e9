// Writes fixtures/store-cards-formulas-uncalculated.xlsx: a workbook as a program writes it, with
// formulas and no calculated values (no spreadsheet has opened it), for FORMULA_NOT_CALCULATED.
//   node scripts/formula-fixtures.mjs
// Its LibreOffice-saved twin (calculated, read as the times it shows) was made from it with
//   soffice --headless --convert-to xlsx --outdir /tmp/lo fixtures/store-cards-formulas-uncalculated.xlsx
//   mv /tmp/lo/store-cards-formulas-uncalculated.xlsx fixtures/store-cards-formulas-libreoffice.xlsx
import { writeFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';

const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const header = ['nodeKey', 'email', 'storeConceptCode', ...days.flatMap((d) => [`${d} Open`, `${d} Close`])];
const ws = XLSX.utils.aoa_to_sheet([header]);
const stores = [
  ['S1', 's1@example.com', 12],
  ['S2', 's2@example.com', 12],
];
stores.forEach((values, i) => {
  const r = i + 1;
  values.forEach((v, c) => (ws[XLSX.utils.encode_cell({ r, c })] = typeof v === 'number' ? { t: 'n', v } : { t: 's', v }));
  days.forEach((_, d) => {
    // A formula and its number format, as a program writes them: no value (`v`) at all.
    ws[XLSX.utils.encode_cell({ r, c: 3 + 2 * d })] = { t: 'n', f: 'TIME(9,0,0)', z: 'hh:mm' };
    ws[XLSX.utils.encode_cell({ r, c: 4 + 2 * d })] = { t: 'n', f: d === 6 ? 'TIME(14,0,0)' : 'TIME(18,30,0)', z: 'hh:mm' };
  });
});
// Row 4: a store whose concept code is an uncalculated =NA() (never an ERROR_CELL, never empty).
ws['A4'] = { t: 's', v: 'S3' };
ws['B4'] = { t: 's', v: 's3@example.com' };
ws['C4'] = { t: 'n', f: 'NA()' };
for (let c = 3; c < header.length; c++) ws[XLSX.utils.encode_cell({ r: 3, c })] = { t: 's', v: c % 2 ? '09:00' : '18:00' };
ws['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: 3, c: header.length - 1 } });
const book = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(book, ws, 'Stores');
const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' });
// SheetJS marks a formula with no value as an error cell (t="e"); openpyxl and most programs write
// no type at all. The times are written that way; the =NA() keeps SheetJS's error type: both occur.
const zip = XLSX.CFB.read(bytes, { type: 'buffer' });
const sheet = XLSX.CFB.find(zip, '/xl/worksheets/sheet1.xml');
sheet.content = Buffer.from(
  Buffer.from(sheet.content)
    .toString('utf8')
    .replace(/ t="e"(><f>TIME)/g, '$1'),
);
writeFileSync(new URL('../fixtures/store-cards-formulas-uncalculated.xlsx', import.meta.url), XLSX.CFB.write(zip, { type: 'buffer', fileType: 'zip' }));

// Which sheets, rows and columns of an .ods workbook are hidden. SheetJS reports none of them for
// .ods, so they are read here from content.xml while the zip is scanned (./zip-scan.ts):
// - a sheet is hidden when its table style says so:
//     <style:style style:name="ta1" style:family="table"><style:table-properties table:display="false"/>
//     <table:table table:name="Old staff" table:style-name="ta1">
// - a row or column is hidden by hand (`collapse`) or by a filter (`filter`), and one element may
//   stand for many (`table:number-rows-repeated`, `table:number-columns-repeated`), as LibreOffice
//   writes the million empty rows below the data:
//     <table:table-row table:visibility="collapse" table:number-rows-repeated="3">
// Rows and columns are kept as ranges, so a hidden block to the sheet's end costs one entry, not a
// million; only the sheet read has its columns listed (hiddenColumnsOf), a bounded number.
// The same pass finds formula cells nobody calculated: a `table:formula` with no `office:value-type`
// and nothing in it, as a program writes one (odfpy); SheetJS reads them as empty cells. LibreOffice
// saves every result, and an empty text result as `<table:table-cell table:formula="…"><text:p/>`.
import type { EntryReader } from './zip-scan.js';
import { attributes, unescapeXml } from './xml-attributes.js';

export interface OdsSheet {
  readonly hidden: boolean;
  /** 0-based hidden rows as [first, last) ranges, in order. */
  readonly rows: [number, number][];
  /** 0-based hidden columns as [first, last) ranges, in order. */
  readonly columns: [number, number][];
  /** Formula cells with no calculated value: 0-based row and column, and the formula (`=TIME(9;0;0)`). */
  readonly uncalculated: { readonly r: number; readonly c: number; readonly formula: string }[];
}

/** Enough to name every such cell of a real workbook (as ./xlsx-hidden.ts). */
const MAX_UNCALCULATED = 10_000;

/** Elements read, in document order: table styles, tables, rows and columns. */
type Tag =
  'style:style' | 'style:table-properties' | 'table:table' | 'table:table-row' | 'table:table-column' | 'table:table-cell' | 'table:covered-table-cell';
const TAG = /<(style:style|style:table-properties|table:table|table:table-row|table:table-column|table:table-cell|table:covered-table-cell)(?=[\s/>])[^>]*>/g;

const hiddenVisibility = (a: Map<string, string>) => a.get('table:visibility') === 'collapse' || a.get('table:visibility') === 'filter';
const repeated = (value: string | undefined) => Math.max(1, Number(value ?? 1) || 1);

/** A reader for content.xml that fills `sheets` (sheet name → what it hides). */
export function odsReader(sheets: Map<string, OdsSheet>): EntryReader {
  const hiddenStyles = new Set<string>();
  let style: string | undefined; // the table style being read
  let sheet: OdsSheet | undefined;
  let row = 0;
  let column = 0;
  // The cell being read: its row (the first, when the row repeats) and column.
  let cellRow = 0;
  let cell = 0;
  return (text, end) => {
    TAG.lastIndex = 0;
    for (let m = TAG.exec(text); m !== null && m.index < end; m = TAG.exec(text)) {
      const tag = m[1] as Tag;
      if (tag === 'table:table-cell' || tag === 'table:covered-table-cell') {
        // Most tags of a sheet are cells: their attributes are read only when one matters.
        const a = m[0].includes('repeated=') || m[0].includes('table:formula=') ? attributes(m[0]) : undefined;
        const formula = a?.get('table:formula');
        const empty = m[0].endsWith('/>') || text.startsWith(`</${tag}>`, m.index + m[0].length);
        if (sheet && formula !== undefined && !a!.has('office:value-type') && empty && sheet.uncalculated.length < MAX_UNCALCULATED) {
          // `of:=LOWER(A1)`: the formula after its namespace, decoded as the UTF-8 it is.
          const written = unescapeXml(Buffer.from(formula, 'latin1').toString('utf8')).replace(/^[a-z]+:(?==)/, '');
          sheet.uncalculated.push({ r: cellRow, c: cell, formula: written });
        }
        cell += repeated(a?.get('table:number-columns-repeated'));
        continue;
      }
      const a = attributes(m[0]);
      switch (tag) {
        case 'style:style':
          style = a.get('style:family') === 'table' ? a.get('style:name') : undefined;
          break;
        case 'style:table-properties':
          if (style !== undefined && a.get('table:display') === 'false') hiddenStyles.add(style);
          break;
        case 'table:table': {
          // Names are UTF-8; the scanned text is its bytes read as latin1.
          const name = Buffer.from(a.get('table:name') ?? '', 'latin1').toString('utf8');
          sheet = { hidden: hiddenStyles.has(a.get('table:style-name') ?? ''), rows: [], columns: [], uncalculated: [] };
          sheets.set(unescapeXml(name), sheet);
          row = 0;
          column = 0;
          break;
        }
        case 'table:table-row': {
          const n = repeated(a.get('table:number-rows-repeated'));
          if (sheet && hiddenVisibility(a)) sheet.rows.push([row, row + n]);
          cellRow = row;
          cell = 0;
          row += n;
          break;
        }
        case 'table:table-column': {
          const n = repeated(a.get('table:number-columns-repeated'));
          if (sheet && hiddenVisibility(a)) sheet.columns.push([column, column + n]);
          column += n;
          break;
        }
      }
    }
  };
}

/** The rows of `existing` (0-based, ascending) that fall in a hidden range. */
export function hiddenOf(ranges: readonly [number, number][], existing: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  for (const r of existing) {
    while (i < ranges.length && ranges[i]![1] <= r) i++;
    if (i < ranges.length && ranges[i]![0] <= r) out.push(r);
  }
  return out;
}

/** The hidden columns one by one: a block to the last column (16,384) is named by its first 1,000. */
export function hiddenColumnsOf(ranges: readonly [number, number][]): number[] {
  const out: number[] = [];
  for (const [first, last] of ranges) for (let c = first; c < Math.min(last, first + 1000, 16_384); c++) out.push(c);
  return out;
}

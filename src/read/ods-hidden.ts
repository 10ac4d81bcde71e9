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
import type { EntryReader } from './zip-scan.js';
import { attributes, unescapeXml } from './xml-attributes.js';

export interface OdsSheet {
  readonly hidden: boolean;
  /** 0-based hidden rows as [first, last) ranges, in order. */
  readonly rows: [number, number][];
  /** 0-based hidden columns as [first, last) ranges, in order. */
  readonly columns: [number, number][];
}

/** Elements read, in document order: table styles, tables, rows and columns. */
type Tag = 'style:style' | 'style:table-properties' | 'table:table' | 'table:table-row' | 'table:table-column';
const TAG = /<(style:style|style:table-properties|table:table|table:table-row|table:table-column)(?=[\s/>])[^>]*>/g;

const hiddenVisibility = (a: Map<string, string>) => a.get('table:visibility') === 'collapse' || a.get('table:visibility') === 'filter';
const repeated = (value: string | undefined) => Math.max(1, Number(value ?? 1) || 1);

/** A reader for content.xml that fills `sheets` (sheet name → what it hides). */
export function odsReader(sheets: Map<string, OdsSheet>): EntryReader {
  const hiddenStyles = new Set<string>();
  let style: string | undefined; // the table style being read
  let sheet: OdsSheet | undefined;
  let row = 0;
  let column = 0;
  return (text, end) => {
    TAG.lastIndex = 0;
    for (let m = TAG.exec(text); m !== null && m.index < end; m = TAG.exec(text)) {
      const a = attributes(m[0]);
      switch (m[1] as Tag) {
        case 'style:style':
          style = a.get('style:family') === 'table' ? a.get('style:name') : undefined;
          break;
        case 'style:table-properties':
          if (style !== undefined && a.get('table:display') === 'false') hiddenStyles.add(style);
          break;
        case 'table:table': {
          // Names are UTF-8; the scanned text is its bytes read as latin1.
          const name = Buffer.from(a.get('table:name') ?? '', 'latin1').toString('utf8');
          sheet = { hidden: hiddenStyles.has(a.get('table:style-name') ?? ''), rows: [], columns: [] };
          sheets.set(unescapeXml(name), sheet);
          row = 0;
          column = 0;
          break;
        }
        case 'table:table-row': {
          const n = repeated(a.get('table:number-rows-repeated'));
          if (sheet && hiddenVisibility(a)) sheet.rows.push([row, row + n]);
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

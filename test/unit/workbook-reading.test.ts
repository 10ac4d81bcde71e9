// The pure parts of reading workbooks and JSON as shown: what a zip really holds, a sheet's rows as
// records, the key a JSON object repeats.
import { describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../src/errors.js';
import { repeatedKey } from '../../src/read/json-keys.js';
import { columnLetters, sheetRecords } from '../../src/read/sheet-records.js';
import { hiddenParts } from '../../src/read/xlsx-hidden.js';
import type { SheetCells } from '../../src/read/xlsx-worker.js';
import { scanZip } from '../../src/read/zip-scan.js';
import { hiddenColumnsOf, hiddenOf } from '../../src/read/ods-hidden.js';
import { xlsx, zip } from '../helpers/zip.js';

const NO_LIMIT = { bytes: Infinity, cells: Infinity, strings: Infinity };

describe('scanZip counts what the zip holds, not what it declares', () => {
  it('counts every cell once, wherever the inflated chunks cut the tags', async () => {
    // About 4 MB of XML: many 256 KiB chunks, so tags fall across their edges.
    let rows = '';
    for (let r = 1; r <= 30_000; r++) rows += `<row r="${r}"><c r="A${r}"><v>1</v></c><c r="B${r}" t="inlineStr"><is><t>x</t></is></c><c r="C${r}"/></row>`;
    const scan = await scanZip(xlsx({ sheetData: rows }), NO_LIMIT);
    expect(scan).toMatchObject({ counts: { cells: 90_000, strings: 0 } });
  });

  it('stops at the first limit passed, and says which', async () => {
    const scan = await scanZip(xlsx({ sheetData: '<row r="1"><c/><c/><c/></row>', sharedStrings: { data: '<sst><si><t>a</t></si><si><t>b</t></si></sst>' } }), {
      ...NO_LIMIT,
      strings: 1,
    });
    expect(scan).toMatchObject({ over: 'strings', counts: { strings: 2 } });
    expect(await scanZip(xlsx({ sheetData: '', dimension: 'A1' }), { ...NO_LIMIT, bytes: 100 })).toMatchObject({ over: 'bytes' });
  });

  it('calls bytes that are not a zip unreadable', async () => {
    expect(await scanZip(Buffer.from('PK\x03\x04 not really'), NO_LIMIT)).toMatchObject({ unreadable: expect.any(String) });
  });

  it('finds hidden rows and columns of each sheet, and which part is which sheet', async () => {
    const parts = hiddenParts();
    const book = xlsx({ sheetData: '<row r="2" hidden="1"><c r="A2"/></row><row r="5" spans="1:3" hidden="true"/><row r="6"/>' });
    await scanZip(book, NO_LIMIT, undefined, (name) => parts.readerFor(name));
    expect(parts.sheetParts.get('Sheet1')).toBe('xl/worksheets/sheet1.xml');
    expect(parts.hidden.get('xl/worksheets/sheet1.xml')).toEqual({ rows: [1, 4], columns: [], uncalculated: [], cached: [] });
  });
});

describe('formula cells with no calculated value, as each writer leaves them', () => {
  // One formula cell per way of writing it, in row 2: column A..H.
  const cells =
    '<row r="2">' +
    '<c r="A2"><f>TIME(9,0,0)</f></c>' + // no <v> at all (SheetJS)
    '<c r="B2"><f>TIME(9,0,0)</f><v></v></c>' + // empty (openpyxl)
    '<c r="C2" s="1"><f>TIME(9,0,0)</f><v/></c>' + // empty, short
    '<c r="D2"><f>NA()</f><v /></c>' + // empty, short, spaced
    '<c r="E2" t="e"><f>A1&amp;B1</f><v></v></c>' + // an error type with no value
    '<c r="F2" t="str"><f>IF(A1="","",A1)</f><v></v></c>' + // empty text: a calculated result (Excel, LibreOffice)
    '<c r="G2"><f>TIME(9,0,0)</f><v>0.375</v></c>' + // calculated
    '<c r="H2" t="str"><f>A1</f><v xml:space="preserve"> </v></c>' + // calculated: one space
    '<c r="I2"><f>LOWER("BJÖRN")</f></c>' + // UTF-8 in the formula
    '</row>';
  const found = async (calcPr?: string) => {
    const parts = hiddenParts();
    await scanZip(xlsx({ sheetData: cells, ...(calcPr ? { calcPr } : {}) }), NO_LIMIT, undefined, (name) => parts.readerFor(name));
    return parts
      .forSheet('Sheet1', [1])
      ?.uncalculated?.map((u) => `${columnLetters(u.c)}${u.r + 1} ${u.formula}${u.cached === undefined ? '' : ` (${u.cached} left)`}`);
  };

  it('an absent or empty cached value is none; an empty text result (t="str") is calculated', async () => {
    expect(await found()).toEqual(['A2 =TIME(9,0,0)', 'B2 =TIME(9,0,0)', 'C2 =TIME(9,0,0)', 'D2 =NA()', 'E2 =A1&B1', 'I2 =LOWER("BJÖRN")']);
  });

  it('in a workbook whose writer asks for a full calculation on opening (openpyxl, XlsxWriter), no cached value is a calculated one', async () => {
    expect(await found('<calcPr calcId="124519" fullCalcOnLoad="1"/>')).toEqual([
      'A2 =TIME(9,0,0)',
      'B2 =TIME(9,0,0)',
      'C2 =TIME(9,0,0)',
      'D2 =NA()',
      'E2 =A1&B1',
      'F2 =IF(A1="","",A1)',
      'G2 =TIME(9,0,0) (0.375 left)',
      'H2 =A1 (  left)',
      'I2 =LOWER("BJÖRN")',
    ]);
    expect(await found('<calcPr calcId="191029"/>')).toHaveLength(6);
  });
});

describe('an .ods content.xml: which sheets, rows and columns are hidden', () => {
  const content = (tables: string) =>
    `<office:document-content><office:automatic-styles>` +
    `<style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style>` +
    `<style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>` +
    `<style:style style:name="ro1" style:family="table-row"><style:table-row-properties table:display="false"/></style:style>` +
    `</office:automatic-styles><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`;

  it('reads table:display="false" styles, repeated rows and columns, and UTF-8 names', async () => {
    const parts = hiddenParts();
    const ods = zip([
      {
        name: 'content.xml',
        data: content(
          `<table:table table:name="Alt &amp; verborgen" table:style-name="ta2"><table:table-row><table:table-cell/></table:table-row></table:table>` +
            `<table:table table:name="Björn" table:style-name="ta1">` +
            `<table:table-column table:number-columns-repeated="2"/><table:table-column table:visibility="collapse" table:number-columns-repeated="2"/>` +
            `<table:table-header-rows><table:table-row table:style-name="ro1"><table:table-cell/></table:table-row></table:table-header-rows>` +
            `<table:table-row table:number-rows-repeated="2"/><table:table-row table:visibility="filter"/>` +
            `<table:table-row-group><table:table-row/><table:table-row table:visibility="collapse" table:number-rows-repeated="1048570"/></table:table-row-group>` +
            `</table:table>`,
        ),
      },
    ]);
    await scanZip(ods, NO_LIMIT, undefined, (name) => parts.readerFor(name));
    expect(parts.ods.get('Alt & verborgen')).toMatchObject({ hidden: true, rows: [] });
    // A row style's table:display is not a sheet's: only table-family styles hide sheets.
    expect(parts.ods.get('Björn')).toEqual({
      hidden: false,
      rows: [
        [3, 4],
        [5, 1048575],
      ],
      columns: [[2, 4]],
      uncalculated: [],
    });
    expect(parts.forSheet('Björn', [0, 1, 3, 4, 5, 9, 2_000_000])).toEqual({ rows: [3, 5, 9], columns: [2, 3], uncalculated: [] });
  });

  it('finds formula cells nobody calculated (a table:formula and nothing else), where they stand', async () => {
    const parts = hiddenParts();
    const row = (cells: string) => `<table:table-row>${cells}</table:table-row>`;
    const ods = zip([
      {
        name: 'content.xml',
        data: content(
          `<table:table table:name="Staff" table:style-name="ta1">` +
            row(`<table:table-cell office:value-type="string"><text:p>a</text:p></table:table-cell>`) +
            row(
              `<table:table-cell table:number-columns-repeated="2"/><table:covered-table-cell/>` +
                // D2, as odfpy writes it (single quotes); E2 closed at once: neither has a result.
                `<table:table-cell table:formula='of:=LOWER("A@B.COM")'/><table:table-cell table:formula="of:=NA()"></table:table-cell>` +
                // F2, an empty text result as LibreOffice saves it; G2, a calculated number.
                `<table:table-cell table:formula="of:=IF(TRUE();&quot;&quot;;1)"><text:p/></table:table-cell>` +
                `<table:table-cell table:formula="of:=TIME(9;0;0)" office:value-type="time" office:time-value="PT09H00M00S"><text:p>09:00</text:p></table:table-cell>`,
            ) +
            `<table:table-row table:number-rows-repeated="3"><table:table-cell/></table:table-row>` +
            row(`<table:table-cell table:formula="of:=[.A1]&amp;&quot;ö&quot;"/>`) +
            `</table:table>`,
        ),
      },
    ]);
    await scanZip(ods, NO_LIMIT, undefined, (name) => parts.readerFor(name));
    expect(parts.forSheet('Staff', [])?.uncalculated).toEqual([
      { r: 1, c: 3, formula: '=LOWER("A@B.COM")' },
      { r: 1, c: 4, formula: '=NA()' },
      { r: 5, c: 0, formula: '=[.A1]&"ö"' },
    ]);
  });

  it('finds rows cut across the inflated chunks', async () => {
    const parts = hiddenParts();
    let rows = '';
    for (let r = 0; r < 40_000; r++)
      rows += `<table:table-row${r % 1000 === 7 ? ' table:visibility="filter"' : ''}><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>`;
    await scanZip(
      zip([{ name: 'content.xml', data: content(`<table:table table:name="S" table:style-name="ta1">${rows}</table:table>`) }]),
      NO_LIMIT,
      undefined,
      (name) => parts.readerFor(name),
    );
    expect(parts.ods.get('S')!.rows.map(([first]) => first)).toEqual(Array.from({ length: 40 }, (_, i) => i * 1000 + 7));
  });

  it('a hidden block of columns to the last one is named by its first 1,000', () => {
    expect(hiddenColumnsOf([[3, 16_384]])).toHaveLength(1000);
    expect(
      hiddenColumnsOf([
        [1, 3],
        [16_383, 20_000],
      ]),
    ).toEqual([1, 2, 16_383]);
  });

  it('hiddenOf keeps the rows that fall in a hidden range', () => {
    expect(
      hiddenOf(
        [
          [1, 3],
          [10, 11],
        ],
        [0, 1, 2, 3, 9, 10, 11],
      ),
    ).toEqual([1, 2, 10]);
    expect(hiddenOf([], [1, 2])).toEqual([]);
  });
});

const sheet = (rows: string[][], more: Partial<SheetCells> = {}): SheetCells => ({
  rows: rows.map((cells, r) => ({ r, cells, errors: [] })),
  hiddenRows: [],
  hiddenColumns: [],
  merges: [],
  ...more,
});
const options = { source: 'b.xlsx', sheet: 'S' };

describe('sheetRecords', () => {
  it('pads short rows to the header, and leaves hidden rows out only when asked', () => {
    const cells = sheet([['a', 'b', 'c'], ['1'], ['2', '2', '2']], { hiddenRows: [2] });
    const asked = sheetRecords(cells, { ...options, hiddenRows: 'exclude' });
    expect(asked.records.map((r) => r.cells)).toEqual([['1', '', '']]);
    const not = sheetRecords(cells, options);
    expect(not.records[1]!.issues).toEqual([expect.objectContaining({ code: 'HIDDEN_ROWS', line: 3 })]);
  });

  it('a lone first cell above a fuller row is a title; --header-row reads past it', () => {
    const cells = sheet([['Stores 2026'], [], ['a', 'b'], ['1', '2']]);
    expect(() => sheetRecords(cells, options)).toThrow(InputError);
    expect(sheetRecords(cells, { ...options, headerRow: 3 }).records).toEqual([{ line: 4, columns: ['a', 'b'], cells: ['1', '2'] }]);
    expect(() => sheetRecords(cells, { ...options, headerRow: 2 })).toThrow(UsageError);
  });

  it('a header row inside a merged range is a merged header', () => {
    const twoRows = sheet(
      [
        ['Store', '', 'Monday', ''],
        ['nodeKey', 'email', 'open', 'close'],
      ],
      { merges: ['A1:B1', 'C1:D1'] },
    );
    expect(() => sheetRecords(twoRows, options)).toThrow(/merged cells \(A1:B1\)/);
    expect(
      sheetRecords(
        sheet(
          [
            ['a', 'b'],
            ['1', '2'],
          ],
          { merges: ['A2:B2'] },
        ),
        options,
      ).records,
    ).toHaveLength(1);
  });

  it('names error cells by their A1 reference', () => {
    const cells: SheetCells = {
      ...sheet([['a', 'b']]),
      rows: [
        { r: 0, cells: ['a', 'b'], errors: [] },
        { r: 6, cells: ['1', '#N/A'], errors: [1] },
      ],
    };
    expect(sheetRecords(cells, options).records[0]!.issues).toEqual([
      expect.objectContaining({ code: 'ERROR_CELL', line: 7, column: 'b', message: expect.stringContaining('cell B7 shows the error #N/A') }),
    ]);
  });

  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [701, 'ZZ'],
    [16383, 'XFD'],
  ])('column %i is %s', (c, letters) => expect(columnLetters(c)).toBe(letters));
});

describe('repeatedKey', () => {
  it.each([
    ['{"a": 1, "b": 2}', undefined],
    ['{"a": 1, "a": 2}', 'a'],
    ['{"a": {"x": 1, "y": {"x": 2}}, "b": [{"x": 1}, {"x": 2}]}', undefined],
    ['{"a": {"x": 1, "x": 2}}', 'x'],
    ['{"a": "\\"a\\":", "b": 1}', undefined],
    ['{"\\u0061": 1, "a": 2}', 'a'],
    ['{"a" : 1,\n "a"\n: 2}', 'a'],
  ])('%s repeats %s', (text, key) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(repeatedKey(text)?.key).toBe(key);
  });
});

describe('a hidden column named in a header error', () => {
  it('is called hidden, with its letter', () => {
    expect(() =>
      sheetRecords(
        sheet(
          [
            ['a', 'b', 'a'],
            ['1', '2', '3'],
          ],
          { hiddenColumns: [2] },
        ),
        options,
      ),
    ).toThrow("column 'a' appears twice (column A and column C, hidden in the workbook)");
  });
});

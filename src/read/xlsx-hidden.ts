// Which rows and columns of an xlsx sheet are hidden (and, through ./ods-hidden.ts, which sheets, rows
// and columns of an .ods), read from the sheet's XML while the zip is scanned (./zip-scan.ts). SheetJS
// reports an xlsx's only with its `cellStyles` option, which makes it ten times slower (27 s instead
// of 2 s for 200,000 cells): reading two attributes here costs nothing. The same pass finds formula
// cells with no calculated value (a workbook written by a program and never opened in a spreadsheet),
// which SheetJS drops as empty cells: no `<v>` at all, or an empty one (`<v></v>`, `<v/>`), as
// openpyxl leaves every formula it writes. A workbook that asks to be calculated when opened
// (`fullCalcOnLoad`: openpyxl, XlsxWriter) says its cached values are not calculated: XlsxWriter
// writes 0 for every formula, which read as it is would be a role code 0 or a store open at midnight.
import { hiddenColumnsOf, hiddenOf, odsReader, type OdsSheet } from './ods-hidden.js';
import { attributes, unescapeXml } from './xml-attributes.js';
import type { EntryReader } from './zip-scan.js';

export interface HiddenParts {
  /** Sheet name → its part in the zip ("xl/worksheets/sheet2.xml"), from the workbook and its rels. */
  readonly sheetParts: Map<string, string>;
  /** Part → 0-based hidden rows and columns, and the formula cells with no calculated value. */
  readonly hidden: Map<string, SheetXmlFacts>;
  /** Whether the hidden rows are read here (an xlsx's XML sheets, an .ods), not by SheetJS (.xlsb). */
  readonly xml: () => boolean;
  /** An .ods workbook's sheets by name: SheetJS reports nothing hidden in an .ods. */
  readonly ods: Map<string, OdsSheet>;
  /** A sheet's hidden rows (of the 0-based `rows` that hold cells) and columns, where read here. */
  forSheet(name: string, rows: readonly number[]): { rows: number[]; columns: number[]; uncalculated?: Uncalculated[] } | undefined;
  /** The entry reader to hand to scanZip. */
  readerFor(name: string): EntryReader | undefined;
}

/** A formula cell with no calculated value: 0-based row and column, and the formula as written (`=TIME(9,0,0)`; '' when shared). */
export interface Uncalculated {
  readonly r: number;
  readonly c: number;
  readonly formula: string;
  /** The value the writer left in it, calculated by nobody (XlsxWriter's 0), when it left one. */
  readonly cached?: string;
}

interface SheetXmlFacts {
  rows: number[];
  columns: number[];
  uncalculated: Found[];
  /** Formula cells with a cached value: uncalculated only if the workbook asks for fullCalcOnLoad. */
  cached: Uncalculated[];
}

/**
 * An uncalculated cell as found, before the workbook's settings are known (the zip's parts come in any
 * order). `text`: the cell says its result is text (`t="str"`), and an empty one may be calculated.
 */
interface Found extends Uncalculated {
  readonly text: boolean;
}

const byCell = (a: Uncalculated, b: Uncalculated) => a.r - b.r || a.c - b.c;

/** Enough to name every such cell of a real workbook; past it, the count of issues still says "many". */
const MAX_UNCALCULATED = 10_000;

const truthy = (v: string | undefined) => v === '1' || v === 'true';

/** Tags matched before `end` only: a later one is seen again, whole, with the next chunk. */
function* tags(pattern: RegExp, text: string, end: number): Generator<string> {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null && m.index < end; m = pattern.exec(text)) yield m[0];
}

const SHEET = /<(?:\w+:)?sheet\s[^>]*>/g;
const RELATIONSHIP = /<(?:\w+:)?Relationship\s[^>]*>/g;
const ROW = /<(?:\w+:)?row(?:\s[^>]*)?>/g;
const COL = /<(?:\w+:)?col\s[^>]*>/g;
// A cell, whole: `<c r="C2" s="1"/>` or `<c r="C2"><f>TIME(9,0,0)</f><v>0.375</v></c>` (a cell longer
// than the scan's carry, 4 KiB, is not seen).
const CELL = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
const FORMULA = /<(?:\w+:)?f\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?f>)/;
// A cached value with something in it: `<v>0.375</v>`. An empty `<v></v>` or `<v/>` is none.
const VALUE = /<(?:\w+:)?v(?:\s[^>]*)?>([^<]+)/;
const CALC = /<(?:\w+:)?calcPr\s[^>]*>/g;

export function hiddenParts(): HiddenParts {
  const ids = new Map<string, string>(); // sheet name → relationship id
  const targets = new Map<string, string>(); // relationship id → part
  const hidden = new Map<string, SheetXmlFacts>();
  const sheetParts = new Map<string, string>();
  const ods = new Map<string, OdsSheet>();
  let isOds = false;
  // The writer asks for every formula to be calculated on opening (openpyxl, XlsxWriter): it has not.
  let fullCalcOnLoad = false;
  const link = () => {
    for (const [name, id] of ids) {
      const target = targets.get(id);
      if (target !== undefined) sheetParts.set(name, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    }
  };
  return {
    sheetParts,
    hidden,
    ods,
    xml: () => ids.size > 0 || isOds,
    forSheet(name, rows) {
      const sheet = ods.get(name);
      if (sheet) return { rows: hiddenOf(sheet.rows, rows), columns: hiddenColumnsOf(sheet.columns), uncalculated: sheet.uncalculated };
      const part = sheetParts.get(name);
      const facts = part === undefined ? undefined : hidden.get(part);
      if (!facts) return undefined;
      // A formula whose result is the empty text (=IF(A2="";"";A2)) is saved by Excel and LibreOffice as
      // `t="str"` and `<v></v>`: calculated, and empty. Only a writer that calculated nothing leaves it unknown.
      const found = facts.uncalculated.filter((u) => !u.text || fullCalcOnLoad).map(({ r, c, formula }) => ({ r, c, formula }));
      const uncalculated = fullCalcOnLoad && facts.cached.length ? [...found, ...facts.cached].sort(byCell) : found;
      return { rows: facts.rows, columns: facts.columns, uncalculated };
    },
    readerFor(name) {
      if (name === 'content.xml') {
        isOds = true;
        return odsReader(ods);
      }
      if (name === 'xl/workbook.xml') {
        // A small part, read in one chunk; decoded as the UTF-8 it is, for sheet names.
        return (text) => {
          for (const tag of tags(SHEET, Buffer.from(text, 'latin1').toString('utf8'), Infinity)) {
            const a = attributes(tag);
            const id = [...a].find(([k]) => /(^|:)id$/.test(k) && k !== 'sheetId')?.[1];
            if (a.has('name') && id !== undefined) ids.set(unescapeXml(a.get('name')!), id);
          }
          for (const tag of tags(CALC, text, Infinity)) fullCalcOnLoad = truthy(attributes(tag).get('fullCalcOnLoad'));
          link();
        };
      }
      if (name === 'xl/_rels/workbook.xml.rels') {
        return (text, end) => {
          for (const tag of tags(RELATIONSHIP, text, end)) {
            const a = attributes(tag);
            if (a.has('Id') && a.has('Target')) targets.set(a.get('Id')!, unescapeXml(a.get('Target')!));
          }
          link();
        };
      }
      if (!/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) return undefined;
      const found: SheetXmlFacts = { rows: [], columns: [], uncalculated: [], cached: [] };
      hidden.set(name, found);
      let row = 0;
      return (text, end) => {
        CELL.lastIndex = 0;
        for (let m = CELL.exec(text); m !== null && m.index < end; m = CELL.exec(text)) {
          const body = m[2];
          if (body === undefined || !body.includes('f')) continue;
          const cached = VALUE.exec(body)?.[1];
          if ((cached === undefined ? found.uncalculated : found.cached).length >= MAX_UNCALCULATED) continue;
          const formula = FORMULA.exec(body);
          const cell = formula && attributes(`<c${m[1]}>`);
          const at = cell && /^([A-Z]+)(\d+)$/.exec(cell.get('r') ?? '');
          if (!formula || !at) continue;
          const c = [...at[1]!].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
          // The text is the part's bytes read as latin1: the formula is decoded as the UTF-8 it is.
          const utf8 = (xml: string) => unescapeXml(Buffer.from(xml, 'latin1').toString('utf8'));
          const written = formula[1] === undefined ? '' : `=${utf8(formula[1])}`;
          if (cached !== undefined) found.cached.push({ r: Number(at[2]) - 1, c, formula: written, cached: utf8(cached) });
          else found.uncalculated.push({ r: Number(at[2]) - 1, c, formula: written, text: cell.get('t') === 'str' });
        }
        // Rows come in order; one with no `r` follows the one before it.
        for (const tag of tags(ROW, text, end)) {
          const a = attributes(tag);
          row = a.has('r') ? Number(a.get('r')) : row + 1;
          if (truthy(a.get('hidden'))) found.rows.push(row - 1);
        }
        for (const tag of tags(COL, text, end)) {
          const a = attributes(tag);
          if (!truthy(a.get('hidden'))) continue;
          // A hidden range to the last column (16,384) is named by its first columns only.
          const max = Math.min(Number(a.get('max') ?? a.get('min')), Number(a.get('min')) + 1000);
          for (let c = Number(a.get('min')); c <= max; c++) found.columns.push(c - 1);
        }
      };
    },
  };
}

// Which rows and columns of an xlsx sheet are hidden, read from the sheet's XML while the zip is
// scanned (./zip-scan.ts). SheetJS reports them only with its `cellStyles` option, which makes it ten
// times slower (27 s instead of 2 s for 200,000 cells): reading two attributes here costs nothing.
import type { EntryReader } from './zip-scan.js';

export interface HiddenParts {
  /** Sheet name → its part in the zip ("xl/worksheets/sheet2.xml"), from the workbook and its rels. */
  readonly sheetParts: Map<string, string>;
  /** Part → 0-based hidden rows and columns. */
  readonly hidden: Map<string, { rows: number[]; columns: number[] }>;
  /** Whether the hidden rows are read here (an xlsx's XML sheets, an .ods), not by SheetJS (.xlsb). */
  readonly xml: () => boolean;
  /** An .ods workbook hides rows (which ones is not worked out: see docs/input.md). */
  readonly odsHides: () => boolean;
  /** The entry reader to hand to scanZip. */
  readerFor(name: string): EntryReader | undefined;
}

const ATTRIBUTE = /([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(ATTRIBUTE)) out.set(m[1]!, m[2] ?? m[3] ?? '');
  return out;
}

const truthy = (v: string | undefined) => v === '1' || v === 'true';

const unescape = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
    e === 'lt'
      ? '<'
      : e === 'gt'
        ? '>'
        : e === 'quot'
          ? '"'
          : e === 'apos'
            ? "'"
            : e === 'amp'
              ? '&'
              : String.fromCodePoint(Number(e.startsWith('#x') ? `0x${e.slice(2)}` : e.slice(1))),
  );

/** Tags matched before `end` only: a later one is seen again, whole, with the next chunk. */
function* tags(pattern: RegExp, text: string, end: number): Generator<string> {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null && m.index < end; m = pattern.exec(text)) yield m[0];
}

const SHEET = /<(?:\w+:)?sheet\s[^>]*>/g;
const RELATIONSHIP = /<(?:\w+:)?Relationship\s[^>]*>/g;
const ROW = /<(?:\w+:)?row(?:\s[^>]*)?>/g;
const COL = /<(?:\w+:)?col\s[^>]*>/g;
/** An .ods row hidden by hand (collapse) or by a filter. */
const ODS_HIDDEN = /<table:table-row\s[^>]*table:visibility\s*=\s*"(?:collapse|filter)"/;

export function hiddenParts(): HiddenParts {
  const ids = new Map<string, string>(); // sheet name → relationship id
  const targets = new Map<string, string>(); // relationship id → part
  const hidden = new Map<string, { rows: number[]; columns: number[] }>();
  const sheetParts = new Map<string, string>();
  let odsHides = false;
  let ods = false;
  const link = () => {
    for (const [name, id] of ids) {
      const target = targets.get(id);
      if (target !== undefined) sheetParts.set(name, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    }
  };
  return {
    sheetParts,
    hidden,
    odsHides: () => odsHides,
    xml: () => ids.size > 0 || ods,
    readerFor(name) {
      if (name === 'content.xml') {
        ods = true;
        return (text) => void (odsHides ||= ODS_HIDDEN.test(text));
      }
      if (name === 'xl/workbook.xml') {
        // A small part, read in one chunk; decoded as the UTF-8 it is, for sheet names.
        return (text) => {
          for (const tag of tags(SHEET, Buffer.from(text, 'latin1').toString('utf8'), Infinity)) {
            const a = attributes(tag);
            const id = [...a].find(([k]) => /(^|:)id$/.test(k) && k !== 'sheetId')?.[1];
            if (a.has('name') && id !== undefined) ids.set(unescape(a.get('name')!), id);
          }
          link();
        };
      }
      if (name === 'xl/_rels/workbook.xml.rels') {
        return (text, end) => {
          for (const tag of tags(RELATIONSHIP, text, end)) {
            const a = attributes(tag);
            if (a.has('Id') && a.has('Target')) targets.set(a.get('Id')!, unescape(a.get('Target')!));
          }
          link();
        };
      }
      if (!/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) return undefined;
      const found = { rows: [] as number[], columns: [] as number[] };
      hidden.set(name, found);
      let row = 0;
      return (text, end) => {
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

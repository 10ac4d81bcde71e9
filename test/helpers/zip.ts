// Hand-made zips and workbooks for the hostile-workbook tests: any declared size, stored or deflated,
// the parts generated here rather than committed as big files. bench/limits.js builds the same hostile
// workbooks from here (Node runs this file as it is, so it imports nothing but Node's own modules).
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  readonly name: string;
  readonly data: string | Buffer;
  /** The uncompressed size the directory declares (default: the true one). */
  readonly declare?: number;
  /** Already deflated bytes with their true size and crc, for parts too large to hold inflated. */
  readonly deflated?: { readonly bytes: Buffer; readonly size: number; readonly crc: number };
}

export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const raw = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    // The fastest level: the big parts are repetitive XML (tens of MB), which it still packs 8-50 times,
    // in a third of the default level's time.
    const body = e.deflated?.bytes ?? deflateRawSync(raw, { level: 1 });
    const size = e.deflated?.size ?? raw.length;
    const crc = e.deflated?.crc ?? crc32(raw);
    const declared = e.declare ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A minimal xlsx with one sheet whose `<sheetData>` (and optional `<dimension>`) are given as XML. */
export function xlsx(parts: {
  sheetData: ZipEntry['data'] | Omit<ZipEntry, 'name'>;
  dimension?: string;
  sharedStrings?: Omit<ZipEntry, 'name'>;
  /** The workbook's calculation settings, e.g. `<calcPr fullCalcOnLoad="1"/>` as openpyxl writes them. */
  calcPr?: string;
  /** Number formats, one cell style each: a cell with `s="1"` is shown with the first (xl/styles.xml). */
  numFmts?: readonly string[];
}): Buffer {
  const sheet: Omit<ZipEntry, 'name'> =
    typeof parts.sheetData === 'string' || Buffer.isBuffer(parts.sheetData)
      ? {
          data: `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}">${parts.dimension ? `<dimension ref="${parts.dimension}"/>` : ''}<sheetData>${String(parts.sheetData)}</sheetData></worksheet>`,
        }
      : parts.sheetData;
  const entries: ZipEntry[] = [
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${parts.sharedStrings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>${parts.calcPr ?? ''}</workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>${parts.sharedStrings ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', ...sheet },
  ];
  if (parts.sharedStrings) entries.push({ name: 'xl/sharedStrings.xml', ...parts.sharedStrings });
  return zip(parts.numFmts ? withStyles(entries, parts.numFmts) : entries);
}

/** The package with xl/styles.xml: one cell style per number format (ids from 164, as Excel numbers its own). */
function withStyles(entries: readonly ZipEntry[], numFmts: readonly string[]): ZipEntry[] {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const fmts = numFmts.map((code, k) => `<numFmt numFmtId="${164 + k}" formatCode="${esc(code)}"/>`).join('');
  const xfs = numFmts.map((_, k) => `<xf numFmtId="${164 + k}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('');
  const wired = entries.map((e): ZipEntry => {
    if (e.name === '[Content_Types].xml')
      return {
        ...e,
        data: String(e.data).replace(
          '</Types>',
          '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
        ),
      };
    if (e.name === 'xl/_rels/workbook.xml.rels')
      return { ...e, data: String(e.data).replace('</Relationships>', `<Relationship Id="rId9" Type="${REL}/styles" Target="styles.xml"/></Relationships>`) };
    return e;
  });
  return [
    ...wired,
    {
      name: 'xl/styles.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${NS}"><numFmts count="${numFmts.length}">${fmts}</numFmts><fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${numFmts.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${xfs}</cellXfs></styleSheet>`,
    },
  ];
}

const HEADER =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>employeeID</t></is></c><c r="B1" t="inlineStr"><is><t>email</t></is></c><c r="C1" t="inlineStr"><is><t>name</t></is></c></row>';

/** `count` rows from row `from` on, each made by `cell`, as one string. */
function rows(from: number, count: number, cell: (r: number) => string): string {
  let s = '';
  for (let r = from; r < from + count; r++) s += `<row r="${r}">${cell(r)}</row>`;
  return s;
}

/** Deflates `prefix`, `block` repeated `times` times and `suffix`, without holding them inflated. */
async function deflatedRepeat(prefix: string, block: Buffer, times: number, suffix: string): Promise<NonNullable<ZipEntry['deflated']>> {
  const deflate = createDeflateRaw({ level: 1 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let crc = crc32(prefix);
  deflate.write(prefix);
  for (let i = 0; i < times; i++) {
    crc = crc32(block, crc);
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = crc32(suffix, crc);
  deflate.end(suffix);
  await done;
  return { bytes: Buffer.concat(out), size: Buffer.byteLength(prefix) + block.length * times + Buffer.byteLength(suffix), crc };
}

/**
 * Workbooks built to hurt the reader (issue 24) of team members, by name. Each must end with
 * WORKBOOK_TOO_LARGE or a valid read, quickly and in bounded memory; `slow` is just under the cell limit
 * (the reader takes seconds over it), for signals sent during a read.
 */
export const HOSTILE_WORKBOOKS = {
  /** Entries declaring size 0 that hold more cells than the limit, `cellLimit`. */
  declaresZero: (cellLimit: number): Buffer => {
    const body = HEADER + rows(2, (cellLimit + 10) / 10, (r) => '<c><v>1</v></c>'.repeat(10).replace('<c>', `<c r="A${r}">`));
    return xlsx({ sheetData: { data: `<worksheet xmlns="${NS}"><sheetData>${body}</sheetData></worksheet>`, declare: 0 } });
  },
  /** A shared-string table truthfully declaring 499 MiB. */
  strings499MiB: async (): Promise<Buffer> => {
    const block = Buffer.from(`<si><t>${'x'.repeat(1000)}</t></si>`.repeat(1024));
    const strings = await deflatedRepeat(`<sst xmlns="${NS}">`, block, Math.floor((499 * 1024 * 1024) / block.length), '</sst>');
    return xlsx({ sheetData: HEADER, sharedStrings: { data: '', deflated: strings } });
  },
  /** A million formulas. */
  millionFormulas: (): Buffer =>
    xlsx({
      sheetData:
        HEADER + rows(2, 100_000, (r) => Array.from({ length: 10 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r}"><f>1+1</f><v>2</v></c>`).join('')),
    }),
  /** 3 KB declaring A1:XFD1048576, with one record and a stray cell in the far corner. */
  farCorner: (): Buffer =>
    xlsx({
      sheetData: `${HEADER}<row r="2"><c r="A2" t="inlineStr"><is><t>E1</t></is></c><c r="B2" t="inlineStr"><is><t>a@example.com</t></is></c><c r="C2" t="inlineStr"><is><t>A</t></is></c></row><row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t> </t></is></c></row>`,
      dimension: 'A1:XFD1048576',
    }),
  /** 300,000 valid rows, just under the cell limit: a read that takes seconds. */
  slow: (): Buffer =>
    xlsx({
      sheetData:
        HEADER +
        rows(2, 300_000, (r) => `<c r="A${r}"><v>${r}</v></c><c r="B${r}" t="inlineStr"><is><t>p${r}@example.com</t></is></c><c r="C${r}"><v>${r}</v></c>`),
    }),
};

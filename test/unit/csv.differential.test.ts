// Differential property: our CSV parser (src/read/csv-parser.ts) against csv-parse, the library it
// replaced in the hot path. On any text — well-formed or not, any delimiter, quotes, line breaks of
// every kind, any chunking — the reader gives exactly what it gave when csv-parse did the parsing:
// the same records with the same start lines, or the same error naming the same line. Each record
// is also marked plain exactly when none of its cells holds a control character (NUL, a line break
// or a tab included), a soft hyphen or a character from U+0300 up (the validator skips NFC and its
// character checks for those).
import { Readable } from 'node:stream';
import { parse as csvParse, CsvError } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { detectDelimiter } from '../../src/read/csv.js';
import { readRecords } from '../../src/read/index.js';
import { FORBIDDEN_KEYS, MAX_RECORD_CHARS } from '../../src/read/types.js';

type Outcome = { records: { line: number; cells: string[]; plain: boolean }[] } | { error: string };

// eslint-disable-next-line no-control-regex -- controls are what makes a record not plain
const NOT_PLAIN = /[\u0300-\uffff\u00ad\0-\x1f\x7f-\x9f]/;

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The reader as it was built on csv-parse (same options, same line numbering, same header checks). */
function oracle(text: string, delimiterFlag: string | undefined): Outcome {
  if (text === '') return { records: [] };
  // Issue 12: blank lines before the header are skipped, detection included, and Excel's `sep=;` line
  // names the delimiter and is not the header.
  // Issue 20: so are lines of spaces, no-break spaces and delimiters only.
  const firstLine = text.replace(/^(?:[ \t\u00a0,;|]*(?:\r\n|\r|\n))+/, '').split(/[\r\n]/, 1)[0] ?? '';
  const sep = /^sep=([,;\t|])$/i.exec(firstLine);
  const delimiter = delimiterFlag ?? (sep ? sep[1]! : detectDelimiter(firstLine));
  const parsed: { line: number; cells: string[] }[] = [];
  let nextLine = 1;
  let failure: string | undefined;
  try {
    csvParse(text, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      max_record_size: MAX_RECORD_CHARS,
      skip_empty_lines: false,
      on_record: (cells: string[]) => {
        parsed.push({ line: nextLine, cells });
        nextLine += 1 + cells.reduce((n, c) => n + (c.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
        return null;
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    failure =
      err.code === 'CSV_MAX_RECORD_SIZE'
        ? `RECORD_TOO_LARGE t:${nextLine}: a record is longer than 1,048,576 characters`
        : `CSV_SYNTAX t:${nextLine}: a quoted field is not closed or is followed by other characters`;
    expect(err.code).toMatch(/QUOTE|MAX_RECORD_SIZE/); // the only errors of this dialect
  }
  const blank = (r: { cells: string[] }) => r.cells.every((c) => c.trim() === '');
  const beforeHeader = (r: { cells: string[] }) => blank(r) || (r.cells.length === 1 && /^[\s,;|]*$/.test(r.cells[0]!));
  let start = parsed.findIndex((r) => !beforeHeader(r));
  if (start !== -1 && sep) start = parsed.findIndex((r, i) => i > start && !beforeHeader(r));
  const [header, ...rows] = start === -1 ? [] : parsed.slice(start);
  if (header) {
    const columns = header.cells.map((h) => h.trim().normalize('NFC'));
    for (const [i, name] of columns.entries()) {
      if (FORBIDDEN_KEYS.has(name)) return { error: `FORBIDDEN_KEY t:${header.line}: column name '${name}' is not allowed` };
      const first = columns.indexOf(name);
      if (name !== '' && first < i) return { error: `DUPLICATE_COLUMN t:${header.line}: column '${name}' appears twice (columns ${first + 1} and ${i + 1})` };
    }
  }
  if (failure) return { error: failure };
  return { records: rows.filter((r) => r.cells.some((c) => c.trim() !== '')).map((r) => ({ ...r, plain: !NOT_PLAIN.test(r.cells.join('')) })) };
}

async function ours(text: string, delimiter: string | undefined, cuts: number[]): Promise<Outcome> {
  const bytes = Buffer.from(text);
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b); // cut points in bytes
  const parts = [0, ...at, bytes.length]
    .slice(1)
    .map((end, k, ends) => bytes.subarray(k === 0 ? 0 : ends[k - 1], end))
    .filter((p) => p.length);
  const records: { line: number; cells: string[]; plain: boolean }[] = [];
  try {
    for await (const r of readRecords('-', { source: 't', format: 'csv', delimiter }, () => Readable.from(parts))) {
      records.push({ line: r.line, cells: r.cells as string[], plain: r.plain === true });
    }
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { error: `${err.code} ${err.message}` };
  }
  return { records };
}

// Characters that matter to the format, weighted towards the awkward ones, plus some that do not.
const char = fc.constantFrom('a', 'b', ' ', ',', ';', '\t', '|', '"', '"', '\r', '\n', '\r\n', 'é', '😀', 'e\u0301', '\u00ad', '\u02ff', '\x1b', '\x85');
const anyText = fc.array(char, { maxLength: 80 }).map((cs) => cs.join(''));

// Mostly well-formed CSV: quoted and unquoted fields, any line ending per record, now and then noise.
const field = fc.oneof(
  fc.array(fc.constantFrom('a', 'b', ' ', 'é', 'x'), { maxLength: 5 }).map((cs) => cs.join('')),
  fc.array(char, { maxLength: 6 }).map((cs) => `"${cs.join('').replaceAll('"', '""')}"`),
);
const wellFormed = fc
  .tuple(
    fc.constantFrom(...DELIMITERS),
    fc.array(fc.tuple(fc.array(field, { minLength: 1, maxLength: 4 }), fc.constantFrom('\n', '\r\n', '\r', '')), { maxLength: 8 }),
    fc.option(fc.tuple(fc.nat(), char), { freq: 4 }),
  )
  .map(([d, rows, noise]) => {
    const text = rows.map(([cells, end]) => cells.join(d) + end).join('\n');
    if (!noise) return text;
    const at = noise[0] % (text.length + 1);
    return text.slice(0, at) + noise[1] + text.slice(at);
  });

const delimiterFlag = fc.option(fc.constantFrom(...DELIMITERS), { freq: 2 });
const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 12 });

describe('CSV parser against csv-parse (differential)', () => {
  it('any text: same records, start lines and errors', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, delimiterFlag, cuts, async (text, delimiter, at) => {
        expect(await ours(text, delimiter ?? undefined, at)).toEqual(oracle(text, delimiter ?? undefined));
      }),
      { numRuns: 400 },
    );
  });

  it('mostly well-formed CSV: same records, start lines and errors', async () => {
    await fc.assert(
      fc.asyncProperty(wellFormed, delimiterFlag, cuts, async (text, delimiter, at) => {
        expect(await ours(text, delimiter ?? undefined, at)).toEqual(oracle(text, delimiter ?? undefined));
      }),
      { numRuns: 400 },
    );
  });
});

describe('CSV parser against csv-parse, records near 1 MiB', () => {
  const x = (n: number) => 'x'.repeat(n);
  it.each([
    ['an unclosed quote before a megabyte of text', `a,b\n1,2\n3,"${x(1_100_000)}\n4,5\n`],
    ['an unquoted record over the limit', `a,b\n1,"x\ny"\n3,${x(1_100_000)}\n4,5\n`],
    ['a quoted cell over the limit with doubled quotes', `a,b\n"${x(600_000)}""${x(600_000)}"\n`],
    ['a bad closing quote after the limit', `a,b\n1,"${x(1_100_000)}"x\n`],
    ['a record under the limit with quotes and line breaks', `a,b\r\n1,"${x(400_000)}""\r\n${x(400_000)}"\r\n2,3\r\n`],
  ])('%s, in chunks of 64 KiB and of 999 bytes', async (_what, text) => {
    const expected = oracle(text, undefined);
    for (const size of [65_536, 999]) {
      const at = Array.from({ length: Math.ceil(text.length / size) }, (_, k) => (k + 1) * size);
      expect(await ours(text, undefined, at)).toEqual(expected);
    }
  });
});

// Property: any records csv-stringify writes, with any delimiter and line ending, in any chunking,
// read back cell for cell, each with the physical line where it starts.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../src/read/index.js';

const DELIMITERS = [',', ';', '\t', '|'] as const;
// Any of CR, LF or CRLF ends a line for the reader (Windows, Unix and old Mac exports), so a cell
// holding either must be quoted; csv-stringify quotes them only when told to (Excel always does).
const quoted_match = /[\r\n]/;
const write = (rows: string[][], delimiter: string, ending: string) => stringify(rows, { delimiter, record_delimiter: ending, quoted_match });
const ENDINGS = ['\n', '\r\n'] as const;

// Cells from characters that stress the format: every delimiter, quotes, CR, LF, spaces, non-ASCII.
const cell = fc.string({ unit: fc.constantFrom('a', 'Z', '9', ' ', ',', ';', '\t', '|', '"', '\r', '\n', 'é', '李', '😀', '='), maxLength: 8 });
// Header names are trimmed, unique and never prototype keys; letters only, so they are all distinct.
const header = fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'x', 'y'), minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 });

async function readBack(text: string, delimiter: string | undefined, chunk: number) {
  const parts: Buffer[] = [];
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  const out: { line: number; cells: unknown[] }[] = [];
  for await (const r of readRecords('-', { source: 't', format: 'csv', delimiter }, () => Readable.from(parts)))
    out.push({ line: r.line, cells: [...r.cells] });
  return out;
}

/** What the reader should give: every record that is not blank, with the line it starts on. */
function expected(columns: string[], rows: string[][], ending: string, delimiter: string) {
  const out: { line: number; cells: string[] }[] = [];
  let line = 1 + write([columns], delimiter, ending).split(/\r\n|\r|\n/).length - 1;
  for (const row of rows) {
    const text = write([row], delimiter, ending);
    if (row.some((c) => c.trim() !== '')) out.push({ line, cells: row });
    line += text.split(/\r\n|\r|\n/).length - 1;
  }
  return out;
}

describe('CSV reader, property', () => {
  it('reads back what csv-stringify wrote, with the right start lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        header,
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 12 }),
        fc.constantFrom(...DELIMITERS),
        fc.constantFrom(...ENDINGS),
        fc.integer({ min: 1, max: 40 }),
        async (columns, rows, delimiter, ending, chunk) => {
          const text = write([columns, ...rows], delimiter, ending);
          expect(await readBack(text, delimiter, chunk)).toEqual(expected(columns, rows, ending, delimiter));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('detects the delimiter from a header that holds only its own', async () => {
    await fc.assert(
      fc.asyncProperty(
        header.filter((h) => h.length > 1),
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 6 }),
        fc.constantFrom(...DELIMITERS),
        fc.constantFrom(...ENDINGS),
        async (columns, rows, delimiter, ending) => {
          const text = write([columns, ...rows], delimiter, ending);
          expect(await readBack(text, undefined, 7)).toEqual(expected(columns, rows, ending, delimiter));
        },
      ),
      { numRuns: 200 },
    );
  });
});

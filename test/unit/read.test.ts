// The read stage on its own: bytes in (split into awkward chunks), raw records or a typed error out.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { detectDelimiter } from '../../src/read/csv.js';
import { readRecords, type InputFormat, type RawRecord } from '../../src/read/index.js';

type Options = { format?: InputFormat; encoding?: string; delimiter?: string; chunk?: number };

function stdin(content: string | Buffer, chunk = Infinity): Readable {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk === Infinity ? bytes.length : chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
}

async function read(content: string | Buffer, o: Options = {}): Promise<{ line: number; cells: unknown[] }[]> {
  const out: { line: number; cells: unknown[] }[] = [];
  const records: AsyncIterable<RawRecord> = readRecords('-', { source: 't', format: o.format ?? 'csv', encoding: o.encoding, delimiter: o.delimiter }, () =>
    stdin(content, o.chunk),
  );
  for await (const r of records) out.push({ line: r.line, cells: [...r.cells] });
  return out;
}

async function failure(content: string | Buffer, o: Options = {}): Promise<InputError> {
  try {
    await read(content, o);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected the read to fail');
}

describe('decoding', () => {
  const text = 'employeeID,name\nE1,Zoë Åse 李伟\n';
  const expected = [{ line: 2, cells: ['E1', 'Zoë Åse 李伟'] }];
  it.each([
    ['UTF-8', Buffer.from(text)],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
    ['UTF-16 BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()])],
  ])('%s, fed one byte at a time', async (_name, bytes) => {
    expect(await read(bytes, { chunk: 1 })).toEqual(expected);
    expect(await read(bytes)).toEqual(expected);
  });

  it('a label TextDecoder knows, such as windows-1252 or latin1', async () => {
    const bytes = Buffer.from('name\nBj\xf6rn \x93x\x94\n', 'latin1');
    expect(await read(bytes, { encoding: 'windows-1252' })).toEqual([{ line: 2, cells: ['Björn “x”'] }]);
    expect(await read(bytes, { encoding: 'latin1' })).toEqual([{ line: 2, cells: ['Björn “x”'] }]); // WHATWG: latin1 is windows-1252
  });

  it('bytes that are not UTF-8 name the line and suggest --encoding windows-1252', async () => {
    const err = await failure(Buffer.from('name\nAnn\nBj\xf6rn\n', 'latin1'), { chunk: 3 });
    expect(err.code).toBe('NOT_UTF8');
    expect(err.message).toMatch(/^t:3: the file is not UTF-8/);
    expect(err.hint).toContain('--encoding windows-1252');
  });
});

describe('CSV', () => {
  it('CRLF, LF and CR line endings, blank lines skipped, physical start lines kept', async () => {
    const csv = 'a,b\r\n1,2\r\n\r\n3,"x\r\ny\nz"\r4,5\n';
    expect(await read(csv, { chunk: 2 })).toEqual([
      { line: 2, cells: ['1', '2'] },
      { line: 4, cells: ['3', 'x\r\ny\nz'] },
      { line: 7, cells: ['4', '5'] },
    ]);
  });

  it('quoted fields hold delimiters, doubled quotes and newlines', async () => {
    expect(await read('a;b\n"x;y";"say ""hi""\n!"\n')).toEqual([{ line: 2, cells: ['x;y', 'say "hi"\n!'] }]);
  });

  it.each([
    ['a,b,c', ','],
    ['a;b;c', ';'],
    ['a\tb\tc', '\t'],
    ['a|b|c', '|'],
    ['"x;y",b,c', ','],
    ['Name, first;Name, last;Notes;More', ';'],
    ['single', ','],
  ])('detects the delimiter of %j', (header, expected) => {
    expect(detectDelimiter(header)).toBe(expected);
  });

  it.each([
    ['a forbidden column name', 'employeeID,constructor\nE1,x\n', 'FORBIDDEN_KEY', "t:1: column name 'constructor' is not allowed"],
    ['a duplicate column name', 'a,b, a \n1,2,3\n', 'DUPLICATE_COLUMN', "t:1: column 'a' appears twice (columns 1 and 3)"],
    ['an unclosed quote', 'a,b\n1,2\n3,"x\n4,5\n', 'CSV_SYNTAX', 't:3: a quoted field is not closed or is followed by other characters'],
    ['a record over 1 MiB', `a,b\n1,2\n3,"${'x'.repeat(1_100_000)}"\n`, 'RECORD_TOO_LARGE', 't:3: a record is longer than 1,048,576 characters'],
  ])('%s is an error naming the line where its record starts', async (_what, csv, code, message) => {
    const err = await failure(csv, { chunk: 64 * 1024 });
    expect([err.code, err.message]).toEqual([code, message]);
  });
});

describe('JSON and NDJSON', () => {
  it('each element keeps the line of its opening brace', async () => {
    const json = '[\n  {"a": 1},\n  {\n    "a": "x\\ny"\n  },{"a": [1, {"b": 2}]}\n]\n';
    expect(await read(json, { format: 'json', chunk: 5 })).toEqual([
      { line: 2, cells: [1] },
      { line: 3, cells: ['x\ny'] },
      { line: 5, cells: [[1, { b: 2 }]] },
    ]);
  });

  it('NDJSON: one object per line, blank lines skipped, CRLF allowed', async () => {
    expect(await read('{"a": 1}\r\n\r\n{"a": 2}', { format: 'ndjson', chunk: 3 })).toEqual([
      { line: 1, cells: [1] },
      { line: 3, cells: [2] },
    ]);
  });

  it.each([
    ['json', '[{"a": 1},\n {"b": {"__proto__": 1}}]', 'FORBIDDEN_KEY', "t:2: key '__proto__' is not allowed"],
    ['json', '[{"a": 1},\n {"prototype": 1}]', 'FORBIDDEN_KEY', "t:2: key 'prototype' is not allowed"],
    ['ndjson', '{"a": 1}\n{"a": {"constructor": 1}}\n', 'FORBIDDEN_KEY', "t:2: key 'constructor' is not allowed"],
    ['json', '{"a": 1}', 'JSON_SYNTAX', 't:1: expected a JSON array starting with ['],
    ['json', '[{"a": 1}\n {"a": 2}]', 'JSON_SYNTAX', "t:2: expected ',' or ']' after a record"],
    ['json', '[{"a": 1}, 2]', 'JSON_SYNTAX', 't:1: expected an object {…} as the next record'],
    ['ndjson', '{"a": 1}\n[1]\n', 'NOT_AN_OBJECT', 't:2: a record must be a JSON object {…}'],
    ['json', `[{"a": "${'x'.repeat(1_100_000)}"}]`, 'RECORD_TOO_LARGE', 't:1: a record is longer than 1,048,576 characters'],
  ] as const)('%s case %# is refused', async (format, text, code, message) => {
    const err = await failure(text, { format });
    expect(err.code).toBe(code);
    if (message) expect(err.message).toBe(message);
  });
});

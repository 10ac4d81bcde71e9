// The reader at its edges — line breaks and bad bytes split across chunks, UTF-16 damage, a last line
// without its break, a workbook named as text — each case found by peer CSV suites or fuzzing.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { readRecords, type InputFormat, type RawRecord } from '../../src/read/index.js';

function stdin(content: string | Buffer, chunk = Infinity): Readable {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk === Infinity ? bytes.length : chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
}

async function read(content: string | Buffer, chunk = Infinity, format: InputFormat = 'csv', delimiter?: string): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const r of readRecords('-', { source: 't', format, delimiter }, () => stdin(content, chunk))) out.push(r);
  return out;
}

async function failure(content: string | Buffer, chunk = Infinity, format: InputFormat = 'csv'): Promise<InputError> {
  try {
    await read(content, chunk, format);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected the read to fail');
}

describe('the reader at chunk boundaries and with damaged bytes', () => {
  it.each([Infinity, 1, 7])('a bad byte after lone-CR line ends names its own line (chunks of %d)', async (chunk) => {
    const bytes = Buffer.concat([Buffer.from('a,b\r1,2\r3,4\r5,'), Buffer.from([0xff]), Buffer.from('\r')]);
    expect((await failure(bytes, chunk)).message).toMatch(/^t:4: the file is not UTF-8/);
  });

  it('a CR ending one chunk and LF starting the next are one line break', async () => {
    const bytes = Buffer.concat([Buffer.from('a,b\r\n1,2\r\n3,'), Buffer.from([0xff]), Buffer.from('\r\n')]);
    expect((await failure(bytes, 4)).message).toMatch(/^t:3:/);
  });

  it.each([Infinity, 1])('blank lines before the header are skipped, for delimiter detection too (chunks of %d)', async (chunk) => {
    const records = await read('\n  \r\n\na;b\n1;2\n', chunk);
    expect(records.map((r) => [r.line, r.columns, r.cells])).toEqual([[5, ['a', 'b'], ['1', '2']]]);
  });

  it.each([Infinity, 1])("Excel's sep=; first line names the delimiter and is not the header (chunks of %d)", async (chunk) => {
    const records = await read('sep=;\r\na,b;c\r\n1,5;2\r\n', chunk);
    expect(records.map((r) => [r.line, r.columns, r.cells])).toEqual([[3, ['a,b', 'c'], ['1,5', '2']]]);
    expect((await read('sep=;\na;b\n1;2\n', Infinity, 'csv', ';')).map((r) => r.line)).toEqual([3]);
  });

  it.each([Infinity, 1, 2])('JSON read as CSV is recognised however its start is cut (chunks of %d)', async (chunk) => {
    expect((await failure(' \n [\n  {"employeeID": "E1"}]', chunk)).code).toBe('WRONG_FORMAT');
    expect((await failure('{\n"a": 1}\n', chunk)).code).toBe('WRONG_FORMAT');
  });

  it('UTF-16 with an odd final byte is an error naming the line', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n1,2\n3,4', 'utf16le'), Buffer.from([0x35])]);
    const err = await failure(bytes);
    expect(err.code).toBe('NOT_UTF16');
    expect(err.message).toMatch(/^t:3: .*ends in the middle of a character/);
  });

  it('UTF-16 with a lone surrogate is an error naming the line', async () => {
    const body = Buffer.from('a,b\n1,X\n', 'utf16le');
    body.writeUInt16LE(0xd800, body.indexOf(Buffer.from('X', 'utf16le'))); // a high surrogate with no partner
    const err = await failure(Buffer.concat([Buffer.from([0xfe, 0xff]).reverse(), body]), 3);
    expect(err.code).toBe('NOT_UTF16');
    expect(err.message).toMatch(/^t:2: .*half of a character pair is missing/);
  });

  it('a last record with no line break after it is marked, a complete one is not', async () => {
    expect((await read('a,b\n1,2\n3,DE-')).map((r) => r.unterminated ?? false)).toEqual([false, 'lf']);
    expect((await read('a,b\n1,2\n3,4\n')).map((r) => r.unterminated ?? false)).toEqual([false, false]);
    expect((await read('a,b\n1,2\r')).map((r) => r.unterminated ?? false)).toEqual([false]);
    // Google Sheets: CRLF line ends and none after the last line.
    expect((await read('a,b\r\n1,2\r\n3,4')).map((r) => r.unterminated ?? false)).toEqual([false, 'crlf']);
  });

  it('a workbook given as CSV or JSON says it is a workbook', async () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
    expect((await failure(zip)).code).toBe('WRONG_FORMAT');
    expect((await failure(zip, Infinity, 'json')).code).toBe('WRONG_FORMAT');
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect((await failure(xls)).message).toContain('spreadsheet workbook');
  });
});

describe('reader fixes (issue 20)', () => {
  it('NOT_UTF8 names the same line and byte however a multi-byte character is split over reads', async () => {
    const bad = Buffer.concat([Buffer.from('a,b\n\u{1f600},\u20ac\n'), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from('x\n')]);
    for (const format of ['csv', 'json'] as const) {
      const body = format === 'json' ? Buffer.concat([Buffer.from('[{"a": "'), bad, Buffer.from('"}]')]) : bad;
      const whole = (await failure(body, Infinity, format)).message;
      expect(whole).toMatch(/^t:3: the file is not UTF-8 \(byte \d+\)/);
      for (const chunk of [1, 2, 3, 5]) expect((await failure(body, chunk, format)).message).toBe(whole);
    }
  });

  it('a first line of delimiters only, or a lone no-break space, is not taken for the header', async () => {
    expect((await read(',,,,\na;b\n1;2\n'))[0]).toMatchObject({ columns: ['a', 'b'], cells: ['1', '2'] });
    expect((await read('\u00a0\na;b\n1;2\n'))[0]).toMatchObject({ columns: ['a', 'b'], cells: ['1', '2'] });
    expect((await read(';;;\r\n\u00a0\r\na|b\r\n1|2\r\n'))[0]).toMatchObject({ columns: ['a', 'b'], cells: ['1', '2'] });
  });

  it('a delimiter tie among ; tab and | falls back to the comma, as documented', async () => {
    const { detectDelimiter } = await import('../../src/read/csv.js');
    expect(detectDelimiter('a;b\tc')).toBe(',');
    expect(detectDelimiter('a|b;c')).toBe(',');
    expect(detectDelimiter('a;b;c|d')).toBe(';');
    expect(detectDelimiter('a,b;c')).toBe(',');
  });

  it('the record limit counts characters: 600,000 three-byte characters are one record, more than 1,048,576 characters are not', async () => {
    const wide = '\u20ac'.repeat(600_000);
    expect((await read(`a,b\n${wide},x\n`))[0]!.cells[0]).toBe(wide);
    const err = await failure(`a,b\n"${'x'.repeat(1024 * 1024 + 1)}",x\n`);
    expect(err.code).toBe('RECORD_TOO_LARGE');
    expect(err.message).toContain('1,048,576 characters');
  });
});

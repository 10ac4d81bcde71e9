// The CSV reader's thread (src/read/csv-thread.ts) reads as the main thread does: the same batches of
// the same records, the same facts about the file, the same errors with their hints and fixes. Both
// run from dist/ (built by the suite's setup), where the worker can start: under the tests' type
// stripping the reader never starts it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

interface Built {
  readOnThread(path: string, options: object, info: object): AsyncGenerator<readonly Record<string, unknown>[]>;
  onThread(path: string, sniffing: boolean, from?: number): boolean;
  THREAD_FROM_BYTES: number;
}
interface Index {
  openRecords(path: string, options: object): { info: object; batches: AsyncIterable<readonly Record<string, unknown>[]> };
}

const dist = (file: string) => import(pathToFileURL(join(ROOT, 'dist', 'read', file)).href);
const thread = (await dist('csv-thread.js')) as Built;
const index = (await dist('index.js')) as Index;

/** What a read gave: its batches, what it learnt of the file, and how it failed (an error as data). */
async function outcome(batches: AsyncIterable<readonly Record<string, unknown>[]>, info: object) {
  const read: Record<string, unknown>[][] = [];
  let error: Record<string, unknown> | undefined;
  try {
    for await (const batch of batches) read.push(batch.map((r) => ({ ...r })));
  } catch (err) {
    const e = err as Error & Record<string, unknown>;
    error = { className: e.constructor.name, message: e.message, code: e.code, hint: e.hint, fixes: e.fixes };
  }
  return { read, info: { ...info }, error };
}

/** The file read on the main thread (it is small) and on the thread; options as the command gives them. */
async function both(content: string | Buffer, options: Record<string, unknown> = {}) {
  const path = tempDir().write('people.csv', content);
  const main = index.openRecords(path, { source: 'people.csv', ...options });
  const onMain = await outcome(main.batches, main.info);
  const info = { format: 'csv', delimiter: null, header: null, headerLine: null };
  const onThread = await outcome(thread.readOnThread(path, { source: 'people.csv', ...options }, info), info);
  return { onMain, onThread };
}

const header = 'Employee ID,Full Name,E-mail\n';
/** Rows enough for many batches (a batch is what one 256 KiB read completes). */
function manyRows(n: number, row: (i: number) => string): string {
  const rows: string[] = [header];
  for (let i = 1; i <= n; i++) rows.push(row(i));
  return rows.join('');
}

describe("the CSV reader's thread", () => {
  it.each([
    ['plain rows over many batches', manyRows(40_000, (i) => `E${i},Søren Müller ${i},s${i}@example.com\n`), {}],
    ['quoted cells with line breaks and doubled quotes, CRLF', `${header.replace('\n', '\r\n')}1,"Jane ""JJ""\r\nDoe",j@x.io\r\n2,"a,b",b@x.io\r\n`, {}],
    ['blank lines, a last line without its break', `\n${header}\n1,Ann,a@x.io\n\n2,Bo,b@x.io`, {}],
    ['a BOM and semicolons', `\ufeffEmployee ID;Full Name;E-mail\n1;Zoë;z@x.io\n`, {}],
    ["Excel's sep= line", `sep=|\nEmployee ID|Full Name|E-mail\n1|Ann|a@x.io\n`, {}],
    ['tabs, given by --delimiter', 'a\tb\tc\n1\t"x\ty"\t3\n', { delimiter: '\t' }],
    ['controls and combining marks (not plain)', `${header}1,Ame\u0301lie,a@x.io\n2,A\u0007B,b@x.io\n`, {}],
    ['windows-1252 by --encoding', Buffer.from(`${header}1,Fran\xe7ois,f@x.io\n`, 'latin1'), { encoding: 'windows-1252' }],
    ['a header only', header, {}],
    ['an empty file', '', {}],
    ['too few and too many cells', `${header}1,Ann\n2,Bo,b@x.io,extra\n`, {}],
  ])('%s: the same batches, file facts and outcome', async (_, content, options) => {
    const { onMain, onThread } = await both(content, options);
    expect(onThread).toEqual(onMain);
  });

  it.each([
    ['an unclosed quote after many records (they come first)', `${manyRows(20_000, (i) => `${i},N ${i},n${i}@x.io\n`)}9,"open,o@x.io\n`],
    ['a byte that is not UTF-8', Buffer.concat([Buffer.from(`${header}1,Ann,a@x.io\n2,`), Buffer.from([0xe9]), Buffer.from('lise,e@x.io\n')])],
    ['a column named twice', 'a,b,a\n1,2,3\n'],
    ['a forbidden column name', '__proto__,b\n1,2\n'],
    ['JSON read as CSV (a fix as data)', '[{"a": 1}]\n'],
    ['a workbook given as CSV (a fix as data)', Buffer.from('PK\u0003\u0004 not really a zip')],
  ])('%s: the same records first, then the same error', async (_, content) => {
    const { onMain, onThread } = await both(content, { format: 'csv' });
    expect(onMain.error).toBeDefined();
    expect(onThread).toEqual(onMain);
  });

  it('stops at once when the run is interrupted, with the signal’s reason', async () => {
    const path = tempDir().write(
      'people.csv',
      manyRows(60_000, (i) => `E${i},Name ${i},n${i}@x.io\n`),
    );
    const controller = new AbortController();
    const info = { format: 'csv', delimiter: null, header: null, headerLine: null };
    const reason = new Error('interrupted by the test');
    let batches = 0;
    const read = async () => {
      for await (const _ of thread.readOnThread(path, { source: 'people.csv', signal: controller.signal }, info)) {
        if (++batches === 2) controller.abort(reason);
      }
    };
    await expect(read()).rejects.toBe(reason);
    expect(batches).toBe(2);
  });

  it('is for a large regular CSV file only', () => {
    const dir = tempDir();
    const small = dir.write('small.csv', `${header}1,Ann,a@x.io\n`);
    const book = dir.write('book.csv', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64)]));
    expect(thread.THREAD_FROM_BYTES).toBe(8 * 1024 * 1024);
    expect(thread.onThread(small, true)).toBe(false);
    expect(thread.onThread(small, true, 1)).toBe(true);
    // Named .csv with no --format, its bytes a workbook: read as one, on the main thread.
    expect(thread.onThread(book, true, 1)).toBe(false);
    expect(thread.onThread(book, false, 1)).toBe(true);
    expect(thread.onThread('-', false, 0)).toBe(false);
    expect(thread.onThread(dir.dir, false, 0)).toBe(false);
    expect(thread.onThread(join(dir.dir, 'missing.csv'), false, 0)).toBe(false);
    const fifo = join(dir.dir, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    expect(thread.onThread(fifo, false, 0)).toBe(false);
  });
});

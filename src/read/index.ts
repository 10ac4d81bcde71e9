// The read stage: a path (or "-" for standard input) to a stream of raw records.
import { extname } from 'node:path';
import { UsageError } from '../errors.js';
import { issue } from '../issues.js';
import { decodeText } from './decode.js';
import { csvRecords } from './csv.js';
import { onThread, readOnThread } from './csv-thread.js';
import { fileBytes, isWorkbook, textBytes } from './file-bytes.js';
import { readJson, readNdjson } from './json.js';
import type { InputFormat, RawRecord, ReadInfo, ReadOptions, RecordSource, Stdin } from './types.js';

export type { InputFormat, RawRecord, ReadInfo, ReadOptions, RecordSource } from './types.js';

export const FORMATS: readonly InputFormat[] = ['csv', 'json', 'ndjson', 'xlsx'];

/** Extensions of the workbooks SheetJS reads; all of them are `--format xlsx`. */
const WORKBOOK_EXTENSIONS = new Set(['.xlsx', '.xlsm', '.xlsb', '.xls', '.ods']);

/** CSV and workbooks have one header row shared by every record; JSON records bring their own keys. */
export function hasHeaderRow(format: InputFormat): boolean {
  return format === 'csv' || format === 'xlsx';
}

export function formatFor(path: string, flag: InputFormat | undefined): InputFormat {
  if (flag) return flag;
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (WORKBOOK_EXTENSIONS.has(ext)) return 'xlsx';
  return 'csv';
}

export { displayName } from './types.js';

async function* workbookRecords(bytes: AsyncIterable<Uint8Array>, options: ReadOptions, info: ReadInfo): AsyncGenerator<readonly RawRecord[]> {
  // The workbook reader (a worker thread, zlib, the zip scan) loads only for a workbook: a CSV run's
  // start-up never pays for it.
  const { readAll, readWorkbook } = await import('./xlsx.js');
  yield* readWorkbook(await readAll(bytes, options.source), options, info);
}

/** The records of a file, one at a time. */
export function readRecords(path: string, options: ReadOptions, stdin: Stdin = () => process.stdin): AsyncGenerator<RawRecord> {
  return flat(openRecords(path, options, stdin).batches);
}

async function* flat(batches: AsyncIterable<readonly RawRecord[]>): AsyncGenerator<RawRecord> {
  for await (const batch of batches) yield* batch;
}

async function* oneByOne(records: AsyncIterable<RawRecord>): AsyncGenerator<readonly RawRecord[]> {
  for await (const record of records) yield [record];
}

/**
 * --sheet, --header-row and --hidden-rows read workbooks only. `sniffed`: the bytes, not a name or
 * --format, showed the file is no workbook, so --format xlsx would only be refused in turn.
 */
function workbookFlags(options: ReadOptions, format: InputFormat, sniffed = false): void {
  const flags = [
    ['--sheet', options.sheet],
    ['--header-row', options.headerRow],
    ['--hidden-rows', options.hiddenRows],
  ] as const;
  for (const [flag, value] of flags) {
    if (value === undefined || format === 'xlsx') continue;
    if (sniffed)
      throw new UsageError(
        'FLAG_NOT_FOR_FORMAT',
        `${flag} applies to workbooks only, but ${options.source} is read as ${format}: its bytes are no workbook`,
        `drop ${flag}`,
      );
    // Dropping a flag is no fix a script can add; --format xlsx is (a file that is no workbook is then refused, never sent).
    throw new UsageError(
      'FLAG_NOT_FOR_FORMAT',
      `${flag} applies to workbooks only, but ${options.source} is read as ${format}`,
      `drop ${flag}, or pass --format xlsx if the file is a workbook`,
    ).withFixes({ kind: 'flags', args: ['--format', 'xlsx'] });
  }
}

/**
 * The records of a file in batches (a CSV batch is what one chunk of text completes): the plan's loop
 * runs per record without an `await` for each. `info` is complete once the batches are.
 */
export function openRecords(path: string, options: ReadOptions, stdin: Stdin = () => process.stdin): RecordSource {
  const format = formatFor(path, options.format);
  if (options.delimiter !== undefined && format !== 'csv') {
    throw new UsageError(
      'FLAG_NOT_FOR_FORMAT',
      `--delimiter applies to CSV only, but ${options.source} is read as ${format}`,
      // No fix as data: --format csv suits a CSV file misnamed, and a JSON file read so is told
      // --format json, which brings the run back here; which it is, the person knows.
      'drop --delimiter, or pass --format csv if the file is CSV',
    );
  }
  const sniffing = options.format === undefined && (format === 'xlsx' || format === 'csv');
  // Without --format, a file named .csv may turn out to be a workbook: its bytes settle the flags.
  if (!sniffing) workbookFlags(options, format);
  const info: ReadInfo = { format, delimiter: null, header: null, headerLine: null };
  if (format === 'xlsx' && options.encoding !== undefined) {
    throw new UsageError(
      'FLAG_NOT_FOR_FORMAT',
      `--encoding applies to text files, but ${options.source} is read as a workbook`,
      'drop --encoding: a workbook stores its own text',
    );
  }
  // A large CSV file is read on a second thread, the same way (./csv-thread.ts).
  if (format === 'csv' && onThread(path, sniffing)) return { info, batches: threaded(path, options, info, sniffing) };
  const bytes = fileBytes(path, stdin, options.signal);
  // Named a workbook or a CSV file, with no --format: the first bytes decide which it is.
  if (sniffing) return { info, batches: sniffed(bytes, options, info) };
  if (format === 'xlsx') return { info, batches: workbookRecords(bytes, options, info) };
  return { info, batches: textRecords(textBytes(bytes, options.source, format), options, info) };
}

async function* threaded(path: string, options: ReadOptions, info: ReadInfo, sniffing: boolean): AsyncGenerator<readonly RawRecord[]> {
  // Its bytes showed it is no workbook (onThread), as sniffed() would have found: the flags are judged so.
  if (sniffing) workbookFlags(options, 'csv', true);
  yield* readOnThread(path, options, info);
}

function textRecords(bytes: AsyncIterable<Uint8Array>, options: ReadOptions, info: ReadInfo): AsyncIterable<readonly RawRecord[]> {
  if (info.format === 'json' || info.format === 'ndjson') {
    const text = decodeText(bytes, options.encoding, options.source, (info.notes ??= []));
    return oneByOne(info.format === 'json' ? readJson(text, options.source) : readNdjson(text, options.source));
  }
  return csvRecords(bytes, options, info);
}

/**
 * A file is what its bytes are, whatever its name: a CSV file named `.xlsx` gets every CSV check
 * (`1E5` is SCIENTIFIC_NOTATION, not the number 100000), and a workbook named `.csv` is read as one.
 */
async function* sniffed(bytes: AsyncGenerator<Uint8Array>, options: ReadOptions, info: ReadInfo): AsyncGenerator<readonly RawRecord[]> {
  let first = await bytes.next();
  while (!first.done && first.value.length === 0) first = await bytes.next();
  const head = first.done ? new Uint8Array(0) : first.value;
  async function* all(): AsyncGenerator<Uint8Array> {
    if (head.length) yield head;
    yield* bytes;
  }
  const named = info.format;
  info.format = head.length >= 4 && isWorkbook(head) ? 'xlsx' : 'csv';
  workbookFlags(options, info.format, true);
  if (info.format !== named) {
    if (info.format === 'xlsx' && (options.encoding !== undefined || options.delimiter !== undefined)) {
      const flag = options.encoding !== undefined ? '--encoding' : '--delimiter';
      throw new UsageError(
        'FLAG_NOT_FOR_FORMAT',
        `${flag} applies to text files, but ${options.source} is a spreadsheet workbook`,
        `drop ${flag}: a workbook stores its own text and columns`,
      );
    }
    const what = info.format === 'xlsx' ? 'a spreadsheet workbook' : 'text, not a workbook';
    (info.notes ??= []).push(
      issue(
        'warning',
        'FORMAT_FROM_CONTENT',
        `the file is named like ${named === 'xlsx' ? 'a workbook' : 'a CSV file'} but holds ${what}, so it was read as ${info.format === 'xlsx' ? 'a workbook' : 'CSV'}; pass --format to say otherwise`,
        { line: null },
      ),
    );
  }
  yield* info.format === 'xlsx' ? workbookRecords(all(), options, info) : textRecords(all(), options, info);
}

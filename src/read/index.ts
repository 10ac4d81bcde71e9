// The read stage: a path (or "-" for standard input) to a stream of raw records.
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { decodeText } from './decode.js';
import { readCsvBatches } from './csv.js';
import { readJson, readNdjson } from './json.js';
import type { InputFormat, RawRecord, ReadInfo, ReadOptions, RecordSource } from './types.js';
import { isWorkbook, readAll, readWorkbook } from './xlsx.js';

export type { InputFormat, RawRecord, ReadInfo, ReadOptions, RecordSource } from './types.js';

export const FORMATS: readonly InputFormat[] = ['csv', 'json', 'ndjson', 'xlsx'];

/** Extensions of the workbooks SheetJS reads; all of them are `--format xlsx`. */
const WORKBOOK_EXTENSIONS = new Set(['.xlsx', '.xlsm', '.xls', '.ods']);

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

export function displayName(path: string): string {
  return path === '-' ? 'stdin' : path;
}

async function* fileBytes(path: string, stdin: NodeJS.ReadableStream): AsyncGenerator<Uint8Array> {
  const stream = path === '-' ? stdin : createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } catch (err) {
    throw openError(path, err as NodeJS.ErrnoException);
  }
}

/** Text formats: a workbook given as text is named as one, not reported as "not UTF-8". */
async function* textBytes(bytes: AsyncIterable<Uint8Array>, source: string, format: InputFormat): AsyncGenerator<Uint8Array> {
  let first = true;
  for await (const chunk of bytes) {
    if (first && chunk.length > 0) {
      first = false;
      if (isWorkbook(chunk)) {
        throw new InputError(
          'LOOKS_LIKE_WORKBOOK',
          `${source}: this is a spreadsheet workbook (xlsx, xls or ods), but it is being read as ${format}`,
          'drop --format to read it by its extension, or pass --format xlsx (add --sheet NAME for another sheet than the first)',
        );
      }
    }
    yield chunk;
  }
}

async function* workbookRecords(path: string, options: ReadOptions, stdin: NodeJS.ReadableStream, info: ReadInfo): AsyncGenerator<readonly RawRecord[]> {
  const bytes = await readAll(fileBytes(path, stdin), options.source);
  yield* readWorkbook(bytes, options.source, options.sheet, info);
}

function openError(path: string, err: NodeJS.ErrnoException): InputError {
  const why =
    err.code === 'ENOENT'
      ? 'no such file'
      : err.code === 'EACCES' || err.code === 'EPERM'
        ? 'permission denied'
        : err.code === 'EISDIR'
          ? 'it is a directory, not a file'
          : err.message;
  return new InputError('CANNOT_READ', `${path}: cannot read the file: ${why}`, 'check the path and run again');
}

/** The records of a file, one at a time. */
export function readRecords(path: string, options: ReadOptions, stdin: NodeJS.ReadableStream = process.stdin): AsyncGenerator<RawRecord> {
  return flat(openRecords(path, options, stdin).batches);
}

async function* flat(batches: AsyncIterable<readonly RawRecord[]>): AsyncGenerator<RawRecord> {
  for await (const batch of batches) yield* batch;
}

async function* oneByOne(records: AsyncIterable<RawRecord>): AsyncGenerator<readonly RawRecord[]> {
  for await (const record of records) yield [record];
}

/**
 * The records of a file in batches (a CSV batch is what one chunk of text completes): the plan's loop
 * runs per record without an `await` for each. `info` is complete once the batches are.
 */
export function openRecords(path: string, options: ReadOptions, stdin: NodeJS.ReadableStream = process.stdin): RecordSource {
  const format = formatFor(path, options.format);
  if (options.delimiter !== undefined && format !== 'csv') {
    throw new UsageError(
      'DELIMITER_NOT_CSV',
      `--delimiter applies to CSV only, but ${options.source} is read as ${format}`,
      'drop --delimiter or pass --format csv',
    );
  }
  if (options.sheet !== undefined && format !== 'xlsx') {
    throw new UsageError(
      'SHEET_NOT_WORKBOOK',
      `--sheet applies to workbooks only, but ${options.source} is read as ${format}`,
      'drop --sheet, or pass --format xlsx if the file is a workbook',
    );
  }
  const info: ReadInfo = { format, delimiter: null, header: null, headerLine: null };
  if (format === 'xlsx') {
    if (options.encoding !== undefined) {
      throw new UsageError(
        'ENCODING_NOT_TEXT',
        `--encoding applies to text files, but ${options.source} is read as a workbook`,
        'drop --encoding: a workbook stores its own text',
      );
    }
    return { info, batches: workbookRecords(path, options, stdin, info) };
  }
  const text = decodeText(textBytes(fileBytes(path, stdin), options.source, format), options.encoding, options.source);
  if (format === 'json' || format === 'ndjson') {
    return { info, batches: oneByOne(format === 'json' ? readJson(text, options.source) : readNdjson(text, options.source)) };
  }
  return { info, batches: readCsvBatches(text, options.source, options.delimiter, info) };
}

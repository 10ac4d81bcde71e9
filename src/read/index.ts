// The read stage: a path (or "-" for standard input) to a stream of raw records.
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { extname } from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { issue } from '../issues.js';
import { decodeText } from './decode.js';
import { readCsvBatches } from './csv.js';
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

async function* fileBytes(path: string, stdin: Stdin, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  const size = path === '-' ? undefined : regularFileSize(path);
  if (size !== undefined) {
    yield* regularFile(path, size, signal);
    return;
  }
  const stream = path === '-' ? stdin() : createReadStream(path, { highWaterMark: READ_SIZE });
  // Ctrl-C ends a read that waits for bytes (standard input or a pipe from a slow producer) at once,
  // not when the next bytes come: the stream is destroyed, and the run ends as interrupted.
  if (signal) addAbortSignal(signal, stream as Readable);
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw openError(path, err as NodeJS.ErrnoException);
  }
}

/**
 * A large file is read this much at a time. Each read is decoded into a string of its own: at 32 KiB
 * that string, and the UTF-16 buffer Node decodes into, stay under the size from which V8 and the C
 * library give each allocation fresh pages of its own (128 KiB), so the memory is used again, not
 * faulted in anew. Against 256 KiB, the 1M dry run: 145,000 → 104,000 page faults, 10 % less CPU,
 * and a peak that no longer wanders (docs/performance.md, "Round 6, fifth session").
 */
const READ_SIZE = 32 * 1024;

/** Up to this size a file is read in one call (docs/performance.md, "Start-up, round 7"). */
const READ_AT_ONCE = 1024 * 1024;

/**
 * A regular file's reads hand the event loop back this often (every 512 KiB, a few tens of
 * milliseconds of the work on them): timers (a spinner), signals and Ctrl-C are served in between.
 */
const READS_PER_TURN = 16;

/** The size of a regular file; undefined for anything else (a FIFO, a device, a path that cannot be read). */
function regularFileSize(path: string): number | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A regular file, read on this thread: at once up to 1 MiB (a file stream costs a 10-row run more
 * than its read does: it loads Node's stream machinery for files, and fs/promises and readline with
 * it), else 32 KiB at a time. Not by a file stream: each of its reads went to libuv's thread pool and
 * back, and on a shared machine the main thread waited for that thread to be scheduled, read after
 * read; read here, the 1M dry run took 5–14 % less time in busy spells, and the same in quiet ones
 * (docs/performance.md, "Round 6, eighth session"). Anything else — standard input, a FIFO, a
 * device, a path that cannot be read — is streamed above, which waits or reports as it always has.
 */
async function* regularFile(path: string, size: number, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  if (size <= READ_AT_ONCE) {
    yield read(path, () => readFileSync(path));
    return;
  }
  const fd = read(path, () => openSync(path, 'r'));
  try {
    for (let reads = 1; ; reads++) {
      const chunk = Buffer.allocUnsafeSlow(READ_SIZE);
      const got = read(path, () => readSync(fd, chunk, 0, READ_SIZE, null));
      if (got === 0) return;
      yield got === READ_SIZE ? chunk : chunk.subarray(0, got);
      if (reads % READS_PER_TURN === 0) await new Promise(setImmediate);
      if (signal?.aborted) throw signal.reason;
    }
  } finally {
    closeSync(fd);
  }
}

/** `call`'s answer, or its error as CANNOT_READ naming the path. */
function read<T>(path: string, call: () => T): T {
  try {
    return call();
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
          'WRONG_FORMAT',
          `${source}: this is a spreadsheet workbook (xlsx, xls or ods), but it is being read as ${format}`,
          'drop --format to read it by its extension, or pass --format xlsx (add --sheet NAME for another sheet than the first)',
        ).withFixes({ kind: 'flags', args: ['--format', 'xlsx'] });
      }
    }
    yield chunk;
  }
}

/** The first bytes of a zip (xlsx, ods) or an OLE compound file (xls). */
function isWorkbook(head: Uint8Array): boolean {
  const zip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  const ole = head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0;
  return zip || ole;
}

async function* workbookRecords(bytes: AsyncIterable<Uint8Array>, options: ReadOptions, info: ReadInfo): AsyncGenerator<readonly RawRecord[]> {
  // The workbook reader (a worker thread, zlib, the zip scan) loads only for a workbook: a CSV run's
  // start-up never pays for it.
  const { readAll, readWorkbook } = await import('./xlsx.js');
  yield* readWorkbook(await readAll(bytes, options.source), options, info);
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
  return new InputError('CANNOT_READ', `${path}: cannot read the file: ${why}`, 'check the path and run again', { cause: err });
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
  const bytes = fileBytes(path, stdin, options.signal);
  // Named a workbook or a CSV file, with no --format: the first bytes decide which it is.
  if (sniffing) return { info, batches: sniffed(bytes, options, info) };
  if (format === 'xlsx') return { info, batches: workbookRecords(bytes, options, info) };
  return { info, batches: textRecords(textBytes(bytes, options.source, format), options, info) };
}

function textRecords(bytes: AsyncIterable<Uint8Array>, options: ReadOptions, info: ReadInfo): AsyncIterable<readonly RawRecord[]> {
  if (info.format === 'json' || info.format === 'ndjson') {
    const text = decodeText(bytes, options.encoding, options.source, (info.notes ??= []));
    return oneByOne(info.format === 'json' ? readJson(text, options.source) : readNdjson(text, options.source));
  }
  return readCsvBatches(decodeText(bytes, options.encoding, options.source, (info.notes ??= [])), options.source, options.delimiter, info);
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

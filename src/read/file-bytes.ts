// A file's bytes as the reader takes them: a small file at once, anything else streamed; and the check
// that text is not a workbook. Shared by the read stage (./index.ts) and the CSV reader's thread
// (./csv-worker.ts), which reads a large file the same way.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { InputError } from '../errors.js';
import type { InputFormat, Stdin } from './types.js';

export async function* fileBytes(path: string, stdin: Stdin, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  const whole = path === '-' ? undefined : smallFile(path);
  if (whole) {
    yield whole;
    return;
  }
  const stream = path === '-' ? stdin() : createReadStream(path, { highWaterMark: 256 * 1024 });
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

/** Up to this size a file is read in one call (docs/performance.md, "Start-up, round 7"). */
const READ_AT_ONCE = 1024 * 1024;

/**
 * A small regular file, read at once: a file stream costs a 10-row run more than its read does (it
 * loads Node's stream machinery for files, and fs/promises and readline with it). Anything else — a
 * large file, a FIFO, a device, a path that cannot be read — is streamed below, which waits or
 * reports as it always has.
 */
function smallFile(path: string): Buffer | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() && stats.size <= READ_AT_ONCE ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** Text formats: a workbook given as text is named as one, not reported as "not UTF-8". */
export async function* textBytes(bytes: AsyncIterable<Uint8Array>, source: string, format: InputFormat): AsyncGenerator<Uint8Array> {
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
export function isWorkbook(head: Uint8Array): boolean {
  const zip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  const ole = head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0;
  return zip || ole;
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

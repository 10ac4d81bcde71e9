// Small files a person names (a config, a token, a mapping, a list of keys): opened without waiting and
// read with a cap, so a FIFO with no writer, `/dev/zero` or a 2 GB export given by mistake ends at once
// with an error naming the path, instead of a hang or a memory blow-up. One helper for all of them.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError } from '../errors.js';
import type { Stdin } from './types.js';

/** How the file was named, for messages: a flag (`--map`) or a description (`the config file`). */
export type FileLabel = string;

const tooLarge = (path: string, label: FileLabel, maxBytes: number) =>
  new UsageError(
    'FLAG_FILE_TOO_LARGE',
    `${label} ${path === '-' ? '(standard input)' : path}: more than ${sizeText(maxBytes)}, which is not what ${label} takes`,
    `check the path given to ${label}`,
  );

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`);

/** What sits at a path that is not a regular file, in words. */
export function notAFileKind(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

export async function readSmall(path: string, label: FileLabel, maxBytes: number, stdin?: Stdin): Promise<Buffer> {
  if (path === '-') {
    if (!stdin) throw new UsageError('STDIN_TWICE', `${label} - has no standard input to read`, `give ${label} a file`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin()) {
      const b = Buffer.from(chunk as Uint8Array);
      size += b.length;
      if (size > maxBytes) throw tooLarge(path, label, maxBytes);
      chunks.push(b);
    }
    return Buffer.concat(chunks);
  }
  return readSmallFile(path, label, maxBytes);
}

export interface SmallFile {
  readonly bytes: Buffer;
  /** The opened file's own stat (a symbolic link's target): what was read is what was judged. */
  readonly stats: Stats;
}

// O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer. A link is
// followed on purpose: a person may keep their config or token behind one; its target is judged.
const NO_WAIT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A regular file read up to `maxBytes`: a FIFO, device, directory or socket is NOT_A_FILE, more is
 * FLAG_FILE_TOO_LARGE (both exit 2). Other failures (ENOENT, EACCES) are thrown as they are, for the
 * caller to put in its own words.
 */
export function openSmallFile(path: string, label: FileLabel, maxBytes: number, fix = `give ${label} a regular file`): SmallFile {
  const fd = openSync(path, NO_WAIT);
  try {
    const stats = fstatSync(fd);
    const what = notAFileKind(stats);
    if (what) throw new UsageError('NOT_A_FILE', `${label} ${path} is ${what}, not a regular file`, fix);
    // Sized by stat, grown (still bounded) if the file grows while it is read.
    let buf = Buffer.alloc(Math.min(maxBytes, stats.size) + 1);
    let size = 0;
    for (;;) {
      if (size === buf.length) {
        if (size > maxBytes) throw tooLarge(path, label, maxBytes);
        const bigger = Buffer.alloc(Math.min(maxBytes + 1, buf.length * 2));
        buf.copy(bigger);
        buf = bigger;
      }
      const n = readSync(fd, buf, size, buf.length - size, null);
      if (n === 0) return { bytes: buf.subarray(0, size), stats };
      size += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a regular file read up to `maxBytes` (see openSmallFile). */
export function readSmallFile(path: string, label: FileLabel, maxBytes: number): Buffer {
  return openSmallFile(path, label, maxBytes).bytes;
}

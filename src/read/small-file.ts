// Small files named by a flag (a token, a mapping): read with a cap, so `--token-file /dev/zero` or a
// mapping that is really a 2 GB export ends at once with an error naming the flag, instead of never.
import { closeSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';

const tooLarge = (path: string, flag: string, maxBytes: number) =>
  new UsageError(
    'FLAG_FILE_TOO_LARGE',
    `${flag} ${path === '-' ? '(standard input)' : path}: more than ${Math.round(maxBytes / 1024)} KiB, which is not what ${flag} takes`,
    `check the path given to ${flag}`,
  );

export async function readSmall(path: string, flag: string, maxBytes: number, stdin?: NodeJS.ReadableStream): Promise<Buffer> {
  if (path === '-') {
    if (!stdin) throw new UsageError('STDIN_TWICE', `${flag} - has no standard input to read`, `give ${flag} a file`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      const b = Buffer.from(chunk as Uint8Array);
      size += b.length;
      if (size > maxBytes) throw tooLarge(path, flag, maxBytes);
      chunks.push(b);
    }
    return Buffer.concat(chunks);
  }
  return readSmallFile(path, flag, maxBytes);
}

/** A file read up to `maxBytes`; more is FLAG_FILE_TOO_LARGE (exit 2). */
export function readSmallFile(path: string, flag: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(maxBytes + 1);
    let size = 0;
    while (size <= maxBytes) {
      const n = readSync(fd, buf, size, buf.length - size, null);
      if (n === 0) break;
      size += n;
    }
    if (size > maxBytes) throw tooLarge(path, flag, maxBytes);
    return buf.subarray(0, size);
  } finally {
    closeSync(fd);
  }
}

// Write a file so that a crash at any point leaves the old file or the new one, whole: a temp file in
// the same directory, fsync, rename over the target, fsync the directory.
import { randomBytes } from 'node:crypto';
import { readSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { renameRetrying } from './rename.js';

export async function writeFileAtomic(path: string, chunks: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>, mode = 0o600): Promise<void> {
  const file = await atomicFile(path, mode);
  try {
    for await (const chunk of chunks) await file.write(chunk);
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
}

/** A file being written in the temp file beside its target; nothing is at `path` until commit(). */
export interface AtomicFile {
  write(chunk: Uint8Array | string): Promise<void>;
  /** Reads back `length` bytes written at `position` (the caller knows where it wrote them). */
  readSync(position: number, length: number): Buffer;
  /** fsync, rename over the target, fsync the directory. */
  commit(): Promise<void>;
  /** Removes the temp file; the target is untouched. */
  abort(): Promise<void>;
}

/** Opens the temp file of an atomic write of `path`: `.NAME.PID.RANDOM.tmp` in the same directory. */
export async function atomicFile(path: string, mode = 0o600): Promise<AtomicFile> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const file = await open(temp, 'wx+', mode); // read too: readSync()
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await file.close();
  };
  return {
    async write(chunk) {
      if (typeof chunk === 'string') await file.write(chunk);
      else await file.write(chunk);
    },
    readSync(position, length) {
      const bytes = Buffer.alloc(length);
      readSync(file.fd, bytes, 0, length, position);
      return bytes;
    },
    async commit() {
      try {
        await file.sync();
        await close();
        await renameRetrying(temp, path);
      } catch (err) {
        await close().catch(() => {});
        await rm(temp, { force: true });
        throw err;
      }
      await syncDir(dir);
    },
    async abort() {
      await close().catch(() => {});
      await rm(temp, { force: true });
    },
  };
}

export async function syncDir(dir: string): Promise<void> {
  // Not every platform can fsync a directory (Windows cannot); the rename is still atomic there.
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    /* best effort */
  } finally {
    await handle.close();
  }
}

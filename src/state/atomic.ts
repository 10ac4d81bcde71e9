// Write a file so that a crash at any point leaves the old file or the new one, whole: a temp file in
// the same directory, fsync, rename over the target, fsync the directory.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, chunks: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const file = await open(temp, 'wx', mode);
  try {
    for await (const chunk of chunks) {
      if (typeof chunk === 'string') await file.write(chunk);
      else await file.write(chunk);
    }
    await file.sync();
  } catch (err) {
    await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw err;
  }
  await file.close();
  try {
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
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

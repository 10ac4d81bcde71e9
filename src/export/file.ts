// Where an export lands. It holds names and emails, so it is private from its first byte: 0600, or
// 0660 in a folder shared through its group (the same rule as the state directory, src/state/dir.ts),
// so the colleague who is meant to edit it can. Written the safe way: a temp file beside the target,
// then a rename, so a symlink at the path is replaced rather than followed, a half-written export never
// stands under the final name, and a FIFO, a device or a directory is refused rather than written into.
import { lstat, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UploadError, UsageError } from '../errors.js';
import { syncDir, tempBeside } from '../files/atomic.js';
import { sharedWithGroup } from '../files/modes.js';

/** The mode an export gets in `dir`: the group's too when the folder is shared with one (sharedWithGroup). */
export async function exportMode(dir: string): Promise<number> {
  const info = await stat(dir);
  return sharedWithGroup(info.mode) ? 0o660 : 0o600;
}

/** Refuses, before anything is read, a path the export cannot be written to. */
export async function checkTarget(path: string): Promise<void> {
  const existing = await lstat(path).catch(() => undefined);
  if (existing && !existing.isFile() && !existing.isSymbolicLink())
    throw unwritable(path, existing.isDirectory() ? 'it is a directory' : 'it is not a regular file (a FIFO or a device)');
  const dir = await stat(dirname(resolve(path))).catch(() => undefined);
  if (!dir?.isDirectory()) throw unwritable(path, 'its folder does not exist');
}

export async function writeExport(path: string, chunks: Iterable<string | Uint8Array>): Promise<number> {
  await checkTarget(path);
  const dir = dirname(resolve(path));
  const mode = await exportMode(dir);
  const temp = tempBeside(resolve(path));
  try {
    const file = await open(temp, 'wx', mode);
    try {
      // The umask would take the group's access away again: the mode is set outright.
      await file.chmod(mode);
      for (const chunk of chunks) await (typeof chunk === 'string' ? file.write(chunk) : file.write(chunk));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    // A record with no exact cell (EXPORT_INEXACT) stops the export as itself; nothing is left behind.
    if (err instanceof UploadError) throw err;
    throw unwritable(path, (err as NodeJS.ErrnoException).code ?? (err as Error).message, err);
  }
  await syncDir(dir);
  return mode;
}

function unwritable(path: string, why: string, cause?: unknown): UsageError {
  return new UsageError('OUTPUT_UNWRITABLE', `--output ${path}: cannot write the export: ${why}`, 'give --output a file in a folder you can write to', {
    cause,
  });
}

// Write a file so that a crash at any point leaves the old file or the new one, whole: a temp file in
// the same directory, fsync, rename over the target, fsync the directory. The target is never written
// through: a symbolic link, a FIFO or a device where a file belongs is refused (NotAFile), and the
// rename replaces an existing file's inode, so another user's file is never written into.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, openSync, readSync, rmSync, type Stats } from 'node:fs';
import { link, lstat, open, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { renameRetrying } from './rename.js';

/** A path that holds something other than a regular file, which this tool will not write or read through. */
export class NotAFile extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${path} is ${what}, not a regular file`);
  }
}

function kindOf(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isSymbolicLink()) return 'a symbolic link (the tool never writes or reads through one)';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Throws NotAFile unless `path` is missing or a regular file (not followed if it is a link). */
export async function checkTarget(path: string): Promise<void> {
  const stats = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  const what = stats && kindOf(stats);
  if (what) throw new NotAFile(path, what);
}

// O_NOFOLLOW and O_NONBLOCK: a link is refused by the kernel, and a FIFO opens at once (to be refused
// below) instead of waiting for a writer. Windows has neither; there a FIFO cannot sit in a folder.
const SAFE = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The umask takes bits away from a new file's mode (022 makes 0660 into 0640): a file in a folder
 * shared through its group must stay writable by the group whoever created it, so a mode that gives
 * the group anything is set outright. Only the owner may change a mode: another member's existing
 * file (EPERM) keeps the mode its creator's run set.
 */
async function exactMode(file: FileHandle, mode: number | undefined): Promise<void> {
  if (!umaskMayNarrow(mode)) return;
  await file.chmod(mode).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPERM') throw err;
  });
}

/** Whether the umask could take something `mode` gives away, so that it is set outright (exactMode). */
function umaskMayNarrow(mode: number | undefined): mode is number {
  return mode !== undefined && (mode & 0o070) !== 0 && process.platform !== 'win32';
}

/**
 * Opens an existing regular file, or creates one with `flags` 'a': never through a link, never a FIFO.
 * With the size it had when opened (the check's own fstat).
 */
async function openRegular(path: string, flags: number, mode?: number): Promise<{ file: FileHandle; size: number }> {
  let file: FileHandle;
  try {
    file = await open(path, flags | SAFE, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') await checkTarget(path);
    throw err;
  }
  const stats = await file.stat();
  const what = kindOf(stats);
  if (what) {
    await file.close();
    throw new NotAFile(path, what);
  }
  if ((flags & constants.O_CREAT) !== 0) await exactMode(file, mode);
  return { file, size: stats.size };
}

/** The whole content of a regular file; a link, a FIFO or a device is NotAFile, and never waited on. */
export async function readRegularFile(path: string): Promise<Buffer> {
  const { file } = await openRegular(path, constants.O_RDONLY);
  try {
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** A checked read asks the system for this much at a time, and hashes each piece while the next is read. */
const CHECKED_READ = 4 * 1024 * 1024;

/**
 * The content of a regular file that should hold `bytes` bytes whose sha256 is `sha256` (a recorded
 * snapshot); `undefined` when it does not (shorter, longer or changed: damaged). Each piece is hashed
 * while the system reads the next, so the check costs little more than the read: read whole, then
 * hashed, a 137 MB snapshot kept the main thread idle for the read and then busy for the hash
 * (docs/performance.md, "Round 6, ninth session"). A link, a FIFO or a device is NotAFile.
 */
export async function readChecked(path: string, bytes: number, sha256: string): Promise<Buffer | undefined> {
  const { file, size } = await openRegular(path, constants.O_RDONLY);
  try {
    // Not the recorded length (or a damaged record's length, which no buffer could hold): damaged.
    if (size !== bytes) return undefined;
    const body = Buffer.allocUnsafe(bytes);
    const hash = createHash('sha256');
    const readAt = (at: number) => file.read(body, at, Math.min(CHECKED_READ, bytes - at), at);
    let at = 0;
    let next = bytes > 0 ? readAt(0) : undefined;
    while (next) {
      const { bytesRead } = await next;
      if (bytesRead === 0) return undefined;
      const piece = body.subarray(at, at + bytesRead);
      at += bytesRead;
      next = at < bytes ? readAt(at) : undefined;
      hash.update(piece);
    }
    // A byte past the recorded length: the file is longer than the one recorded.
    const { bytesRead: more } = await file.read(Buffer.alloc(1), 0, 1, bytes);
    return more === 0 && hash.digest('hex') === sha256 ? body : undefined;
  } finally {
    await file.close();
  }
}

/** Appends `text` in one write (so concurrent writers never interleave a line), then fsyncs. */
export async function appendRegularFile(path: string, text: string, mode: number): Promise<void> {
  const { file } = await openRegular(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, mode);
  try {
    await writeAll(file, Buffer.from(text));
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Writes every byte, or fails: a short write (a nearly full disk) is an error, never a silent cut. */
async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) {
    const { bytesWritten } = await file.write(bytes, at, bytes.length - at);
    if (bytesWritten === 0) throw Object.assign(new Error(`a write made no progress after ${at} bytes`), { code: 'ENOSPC' });
    at += bytesWritten;
  }
}

/** Small chunks are gathered into writes of about this size. */
const WRITE_SIZE = 64 * 1024;

/**
 * Writes `chunks` to `path` atomically. Small chunks (a line of the errors CSV or the diff, a record's
 * body) are gathered into writes of about 64 KiB: a write call per line cost 160,000 rejected rows
 * ten seconds, most of it in the kernel.
 */
export async function writeFileAtomic(path: string, chunks: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>, mode = 0o600): Promise<void> {
  const file = await atomicFile(path, mode);
  let pending: Uint8Array[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending, size);
    pending = [];
    size = 0;
    await file.write(bytes);
  };
  try {
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      pending.push(bytes);
      size += bytes.length;
      if (size >= WRITE_SIZE) await flush();
    }
    await flush();
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
}

/**
 * Writes `chunks` to `path` atomically, handed to the kernel in one request (writev, synced as it
 * writes), and awaits `meanwhile` while it copies and syncs them: the calling thread is free for that
 * time (for 137 MB, 0.15–0.3 s).
 * Its result is returned once the file is in place; if it throws, nothing is at `path`.
 */
export async function writeBytesAtomic<T>(path: string, chunks: readonly Uint8Array[], mode: number, meanwhile: () => T | Promise<T>): Promise<T> {
  const file = await atomicFile(path, mode, true);
  const written = file.writev(chunks);
  // Awaited below, once `meanwhile` is done: a write that fails first (a full disk) is not an unhandled rejection.
  written.catch(() => {});
  let result: T;
  try {
    result = await meanwhile();
  } catch (err) {
    await written.catch(() => {});
    await file.abort();
    throw err;
  }
  try {
    await written;
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
  return result;
}

/** A file being written in the temp file beside its target; nothing is at `path` until commit(). */
export interface AtomicFile {
  write(chunk: Uint8Array | string): Promise<void>;
  /** Every chunk in one request to the kernel (writev), which starts before this returns. */
  writev(chunks: readonly Uint8Array[]): Promise<void>;
  /** Reads back `length` bytes written at `position` (the caller knows where it wrote them). */
  readSync(position: number, length: number): Buffer;
  /** fsync, rename over the target, fsync the directory. */
  commit(): Promise<void>;
  /** Removes the temp file; the target is untouched. */
  abort(): Promise<void>;
}

/** The name of a temp file beside `path`, for a write that a rename then puts in its place: `.NAME.PID.RANDOM.tmp`. */
export function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * The temp file of an atomic write of `path`, created at once (synchronously) as atomicFile() creates
 * its own, for bytes another thread writes: its descriptor and name. Once they are whole and synced
 * and the descriptor is closed, placeTemp() puts it in place.
 */
export function tempFileSync(path: string, mode = 0o600): { fd: number; temp: string } {
  const temp = tempBeside(path);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    // A file this run just created is its own: its mode can always be set.
    if (umaskMayNarrow(mode)) fchmodSync(fd, mode);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  return { fd, temp };
}

/**
 * A complete temp file beside `path` (synced, its descriptor closed) renamed over it, then the
 * directory synced; if the rename cannot be made, the temp file is removed and `path` left as it was.
 */
export async function placeTemp(temp: string, path: string): Promise<void> {
  try {
    // Checked again at the last moment: what the rename replaces must still be a file or nothing.
    await checkTarget(path);
    await renameRetrying(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDir(dirname(path));
}

/** Opens the temp file of an atomic write of `path`: `.NAME.PID.RANDOM.tmp` in the same directory. */
export async function atomicFile(path: string, mode = 0o600, synced = false): Promise<AtomicFile> {
  await checkTarget(path);
  const temp = tempBeside(path);
  // Read too: readSync(). `synced`: every write returns once its bytes are on the disk (O_DSYNC, where
  // the system has it), so one large write is the copy and the sync in one request to the kernel.
  const flags = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | (synced ? (constants.O_DSYNC ?? 0) : 0);
  const file = await open(temp, flags, mode);
  await exactMode(file, mode);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await file.close();
  };
  return {
    async write(chunk) {
      await writeAll(file, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    },
    async writev(chunks) {
      let done = (await file.writev(chunks)).bytesWritten;
      // A short write (a nearly full disk): the rest chunk by chunk, which fails with the reason.
      for (const chunk of chunks) {
        if (done >= chunk.length) done -= chunk.length;
        else {
          await writeAll(file, chunk.subarray(done));
          done = 0;
        }
      }
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
      } catch (err) {
        await close().catch(() => {});
        await rm(temp, { force: true });
        throw err;
      }
      await placeTemp(temp, path);
    },
    async abort() {
      await close().catch(() => {});
      await rm(temp, { force: true });
    },
  };
}

/**
 * Makes `path` a second name of the complete file `from` (already written atomically and synced): a hard
 * link under a temp name, renamed over `path`, then the directory synced. Nothing is copied, and `from`
 * keeps its name. False, with nothing changed, where the file system cannot link (the caller writes
 * the bytes instead).
 */
export async function linkFileAtomic(from: string, path: string): Promise<boolean> {
  await checkTarget(path);
  const temp = tempBeside(path);
  try {
    await link(from, temp);
  } catch {
    return false;
  }
  await placeTemp(temp, path);
  return true;
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

/** What link() answers on a file system without hard links (vfat, exFAT, SMB without Unix extensions). */
export const NO_HARD_LINKS: ReadonlySet<string> = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EINVAL']);

/**
 * Creates `path` with `text` only if nothing is there (false, nothing changed, when something is): the
 * content is written and synced beside it and given the name by link(), which fails if the name is
 * taken, so the file is never seen half-written. Without hard links: an exclusive create, then the
 * content (a reader may see it short for a moment).
 */
export async function createFileExclusive(path: string, text: string, mode = 0o600): Promise<boolean> {
  const temp = tempBeside(path);
  const file = await open(temp, 'wx', mode);
  await exactMode(file, mode);
  try {
    await writeAll(file, Buffer.from(text));
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw err;
    return await createInPlace(path, text, mode);
  } finally {
    await rm(temp, { force: true });
  }
  await syncDir(dirname(path));
  return true;
}

/**
 * Without hard links: an exclusive create of `path`, then `text`, synced; false when it exists. A write
 * that fails removes the file again (the lock file and the intent both use it).
 */
export async function createInPlace(path: string, text: string, mode: number): Promise<boolean> {
  let file;
  try {
    file = await open(path, 'wx', mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await exactMode(file, mode);
    await writeAll(file, Buffer.from(text));
    await file.sync();
  } catch (err) {
    await file.close().catch(() => {});
    await rm(path, { force: true });
    throw err;
  }
  await file.close();
  return true;
}

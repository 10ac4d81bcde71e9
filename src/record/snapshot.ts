// The baseline snapshot: the exact array last confirmed by the service for one base URL and kind.
// It is written from the same chunks that were sent, and read back streaming, one record at a time.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { decodeCanonical } from '../contract/json-array.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import { GuardRefusal, UploadError } from '../errors.js';
import { jsonArrayFile } from '../read/json.js';
import { writeFileAtomic } from './atomic.js';
import { isAlive } from './whoami.js';

/** Key → canonical JSON of every record in the snapshot; undefined when there is no snapshot yet. */
export async function readSnapshot(path: string, kind: Kind): Promise<Map<string, string> | undefined> {
  const keyField = KINDS[kind].keyField;
  const records = new Map<string, string>();
  const corrupt = (why: string): never => {
    throw new GuardRefusal(
      'SNAPSHOT_CORRUPT',
      `the snapshot of the last upload, ${path}, is damaged (${why}), so the changes and removals cannot be worked out`,
      `move the file aside and run again with --baseline FILE (an export that matches what the service holds), or delete it to start without a baseline`,
    );
  };
  try {
    // Our own canonical bytes are split without parsing each record; anything else is read in full.
    const fast = decodeCanonical(await readFile(path), keyField);
    if (fast) return fast;
    for await (const el of jsonArrayFile(path)) {
      let value: unknown;
      try {
        value = JSON.parse(el.text);
      } catch {
        corrupt(`line ${el.line} is not valid JSON`);
      }
      const key = (value as Record<string, unknown>)[keyField];
      if (typeof key !== 'string') corrupt(`the record on line ${el.line} has no ${keyField}`);
      if (records.has(key as string)) corrupt(`${keyField} '${key as string}' appears twice`);
      // Re-serialised, so comparisons with the plan's canonical JSON do not depend on whitespace.
      records.set(key as string, JSON.stringify(value));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (err instanceof GuardRefusal) throw err;
    if (err instanceof UploadError) corrupt(err.message.replace(`${path}:`, 'line '));
    corrupt((err as NodeJS.ErrnoException).code ?? (err as Error).message);
  }
  return records;
}

/** Only the keys of a snapshot (for parentKey checks); an empty set when there is none. */
export async function snapshotKeys(path: string, kind: Kind): Promise<Set<string> | undefined> {
  const records = await readSnapshot(path, kind);
  return records ? new Set(records.keys()) : undefined;
}

/** Replaces the snapshot with the array that was sent, byte for byte, atomically. */
export async function writeSnapshot(path: string, chunks: readonly Buffer[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await removeOrphans(path);
  await writeFileAtomic(path, chunks);
}

/** Temp files left by a writer that was killed mid-write (the lock says no other writer is running). */
async function removeOrphans(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (pid !== process.pid && !isAlive(pid)) await rm(join(dirname(path), name), { force: true });
  }
}

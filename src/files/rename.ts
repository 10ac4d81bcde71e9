// rename() that waits out a passing lock. On Windows a file that a virus scanner, a search indexer or
// a backup agent has open cannot be replaced: rename fails with EPERM, EBUSY or EACCES for a moment,
// then succeeds. Elsewhere those codes mean a real permission problem and fail at once.
import { rename } from 'node:fs/promises';

/** How long to keep trying, in all: a scanner holds a new file for well under a second. */
const PATIENCE_MS = 2_000;
const TRANSIENT = new Set(['EPERM', 'EBUSY', 'EACCES']);

export interface RenameOptions {
  readonly platform?: NodeJS.Platform;
  /** The operation tried again (tests pass one that fails on cue). */
  readonly rename?: (from: string, to: string) => Promise<void>;
  readonly patienceMs?: number;
}

export async function renameRetrying(from: string, to: string, options: RenameOptions = {}): Promise<void> {
  const op = options.rename ?? rename;
  const retries = (options.platform ?? process.platform) === 'win32';
  const deadline = Date.now() + (options.patienceMs ?? PATIENCE_MS);
  for (let wait = 10; ; wait = Math.min(wait * 2, 250)) {
    try {
      await op(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (!retries || !TRANSIENT.has(code) || Date.now() + wait > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

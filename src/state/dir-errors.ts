// What the operating system says about the state folder, as the documented refusal: a user who may
// not read the store, a read-only file system or a full disk is STATE_UNUSABLE (exit 2) with what to
// do, never "internal error, this is a bug" (exit 1). The system's error stays as the cause, for
// UPLOAD_DEBUG=1.
import { statSync } from 'node:fs';
import { UsageError, isUploadError } from '../errors.js';
import type { StateStore } from './types.js';

/** The hint for each thing the system can say, by errno code. */
const REMEDIES: Record<string, (root: string) => string> = {
  EACCES: (root) => noAccess(root),
  EPERM: (root) => noAccess(root),
  EROFS: (root) => `${root} is on a read-only file system: mount it read-write, or run where the state folder can be written`,
  ENOSPC: (root) => `the disk that holds ${root} is full: free space on it, then run again (nothing half-written is kept)`,
  EDQUOT: (root) => `your disk quota on ${root} is used up: free space or ask for a larger quota, then run again`,
  ENOENT: (root) => `a folder of ${root} vanished while the run used it (moved, deleted or unmounted): put it back, then run again`,
};

const SAID: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOENT: 'no such file or folder',
};

/** Whose folder it is decides the remedy: its owner can give the access back; anyone else asks. */
function noAccess(root: string): string {
  const owner = (() => {
    try {
      return statSync(root).uid;
    } catch {
      return undefined;
    }
  })();
  if (owner !== undefined && owner === process.getuid?.())
    return `${root} is yours, without your access: give it back with chmod -R u+rwX ${root}, then run again`;
  return `ask the owner of ${root} for access to it (the tool reads and writes every file in it), or run as a user who has it`;
}

/** What to do about what the system said on `folder`, when it is one of the causes above. */
export function remedyFor(err: unknown, folder: string): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? undefined : REMEDIES[code]?.(folder);
}

/** The system error as STATE_UNUSABLE, or the error itself when it is not one the system says about the folder. */
export function systemRefusal(err: unknown, root: string): unknown {
  if (isUploadError(err)) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  // A missing file is the store's own business (an absent head, a damaged intent: each has its answer);
  // a vanished folder is named where the lock is taken (./lease.ts).
  const remedy = code === undefined || code === 'ENOENT' ? undefined : REMEDIES[code];
  if (!remedy) return err;
  const path = (err as NodeJS.ErrnoException).path ?? root;
  return new UsageError('STATE_UNUSABLE', `the state store ${root} cannot be used: ${SAID[code!]} (${code}) on ${path}`, remedy(root), { cause: err });
}

/** For a folder the store may not have yet: absent is empty; anything else the system says is thrown (and mapped above). */
export function emptyIfAbsent(err: unknown): string[] {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
  throw err;
}

/**
 * The store, with every rejection of its methods (and of the lease's release) passed through
 * systemRefusal: one place, so that no read, write, readdir or mkdir of the folder escapes raw.
 */
export function withSystemRefusals<T extends StateStore>(store: T, root: string): T {
  const map = <R>(p: Promise<R>): Promise<R> =>
    p.catch((err: unknown) => {
      throw systemRefusal(err, root);
    });
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        return map(result).then((out: unknown) =>
          name === 'lock' && out && typeof out === 'object' && 'release' in out
            ? { ...out, release: () => map((out as { release: () => Promise<void> }).release()) }
            : out,
        );
      };
    },
  });
}

// Files the tool writes for the user that hold personal data (names, emails): the request body, the
// diff and the rejected rows. Mode 0600 from the first byte, like the snapshots; written to a temp file
// beside the target and renamed into place (./atomic.ts), so a failed or short write leaves the old
// file or none, a link is never followed and a FIFO never waited on. A path that cannot be written is
// the flag's fault, named as such.
import { constants } from 'node:fs';
import { access, chmod } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { checkTarget, NotAFile, writeFileAtomic } from './atomic.js';

/** Checked before the input is read, so a typo in the path does not cost a long validation first. */
export async function checkWritable(path: string, flag: string): Promise<void> {
  const unsafe = await checkTarget(path).then(
    () => undefined,
    (err: unknown) => (err instanceof NotAFile ? `it is ${err.what}` : undefined),
  );
  if (unsafe)
    throw new UsageError(
      'OUTPUT_UNWRITABLE',
      `${flag} ${path}: cannot write the file: ${unsafe}`,
      'give the path of a regular file, or of one that does not exist yet',
    );
  // The file is replaced, not written into: what counts is the right to write in its directory.
  const problem = await access(dirname(resolve(path)), constants.W_OK).then(
    () => undefined,
    (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? 'its directory does not exist' : 'permission denied'),
  );
  if (problem) throw new UsageError('OUTPUT_UNWRITABLE', `${flag} ${path}: cannot write the file: ${problem}`, 'give a path in a directory you can write to');
}

export async function writePrivateFile(path: string, flag: string, chunks: Iterable<string | Uint8Array>, mode = 0o600): Promise<void> {
  try {
    await writeFileAtomic(path, chunks, mode);
    // The umask would take the group's access away from a file meant for it.
    if (mode !== 0o600) await chmod(path, mode);
  } catch (err) {
    const why = err instanceof NotAFile ? `it is ${err.what}` : ((err as NodeJS.ErrnoException).code ?? (err as Error).message);
    throw new UsageError(
      'OUTPUT_UNWRITABLE',
      `${flag} ${path}: cannot write the file: ${why}`,
      'give a path in a directory you can write to, of a regular file or a new one',
      {
        cause: err,
      },
    );
  }
}

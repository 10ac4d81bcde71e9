// Files the tool writes for the user that hold personal data (names, emails): the request body, the
// diff and the rejected rows. Mode 0600 from the first byte, like the snapshots; a path that cannot be
// written is the flag's fault, named as such.
import { constants } from 'node:fs';
import { access, open, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

type Code = 'OUTPUT_UNWRITABLE' | 'ERRORS_CSV_UNWRITABLE';

/** Checked before the input is read, so a typo in the path does not cost a long validation first. */
export async function checkWritable(path: string, flag: string, code: Code = 'OUTPUT_UNWRITABLE'): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  const problem = existing?.isDirectory()
    ? 'it is a directory'
    : await access(existing ? path : dirname(resolve(path)), constants.W_OK).then(
        () => undefined,
        (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? 'its directory does not exist' : 'permission denied'),
      );
  if (problem) throw new UsageError(code, `${flag} ${path}: cannot write the file: ${problem}`, 'give a path in a directory you can write to');
}

export async function writePrivateFile(path: string, flag: string, chunks: Iterable<string | Uint8Array>, code: Code = 'OUTPUT_UNWRITABLE'): Promise<void> {
  try {
    const file = await open(path, 'w', 0o600);
    try {
      // An existing file keeps its mode on open: tighten it before a byte is written.
      await file.chmod(0o600);
      for (const chunk of chunks) await (typeof chunk === 'string' ? file.write(chunk) : file.write(chunk));
    } finally {
      await file.close();
    }
  } catch (err) {
    throw new UsageError(
      code,
      `${flag} ${path}: cannot write the file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      'give a path in a directory you can write to',
    );
  }
}

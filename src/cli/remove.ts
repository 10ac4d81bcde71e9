// The keys `upload remove` is given, from the command line and --keys-file FILE (one per line, - for
// standard input), and how the history names them.
import { InputError, UsageError } from '../errors.js';
import { readSmall } from '../read/small-file.js';
import { keyList } from '../sets/keys.js';
import type { ProcessIo } from './io.js';

/** A keys file far larger than any list of leavers is the wrong file. */
const MAX_KEYS_FILE = 16 * 1024 * 1024;

export async function removeList(args: readonly string[], keysFile: string | undefined, io: ProcessIo): Promise<{ list: string[]; source: string }> {
  let text: string | undefined;
  if (keysFile !== undefined) {
    const bytes = await readSmall(keysFile, '--keys-file', MAX_KEYS_FILE, io.stdin).catch((err: NodeJS.ErrnoException) => {
      if (err instanceof UsageError) throw err;
      throw new InputError('CANNOT_READ', `--keys-file ${keysFile}: cannot read the file: ${err.code ?? err.message}`, 'check the path');
    });
    text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  }
  const list = keyList(args, text);
  if (!list.length)
    throw new UsageError(
      'BAD_FLAG',
      keysFile === undefined ? 'no keys to remove were given' : `--keys-file ${keysFile} holds no keys`,
      'name them: upload remove team-members E1042 E1043, or --keys-file leavers.txt (one key per line)',
    );
  const shown = args.length > 5 ? `${args.slice(0, 5).join(', ')} and ${args.length - 5} more` : args.join(', ');
  const from = keysFile === undefined ? '' : `${shown ? ' and ' : ''}in ${keysFile === '-' ? 'standard input' : keysFile}`;
  return { list, source: `keys ${shown}${from}` };
}

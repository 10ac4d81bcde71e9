// `upload remove <kind> [keys...]`: the last recorded set without some keys, sent through the engine's
// frame (../operations/remove.ts). The keys come from the command line and --keys-file (one per line).
import { defineCommand, kindArg } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';
import type { ProcessIo } from '../cli/io.js';

export default defineCommand({
  description:
    'Send the last recorded set of store-cards or team-members without the records of the keys given (and those in --keys-file), through the same diff, guards, confirmation, lock, send and record as any upload. Naming the keys is the exact removal count. A key that is not in the set is an error that names it; nothing is sent.',
  examples: ['$ upload remove team-members E1042 --dry-run', '$ upload remove team-members --keys-file leavers.txt --yes'],
  flags: [
    'keysFile',
    'dryRun',
    'planOut',
    ...GROUPS.sending,
    ...GROUPS.guards.filter((f) => f !== 'maxRemovals'),
    ...GROUPS.output,
    ...GROUPS.state,
    ...GROUPS.target,
    ...GROUPS.fourEyes,
    ...GROUPS.after,
  ],
  kind: ([kind]) => kindArg(kind),
  interruptible: true,
  writes: (flags) => (flags.dryRun === true ? undefined : 'direct'),
  run: async ({ args: [kind, keys], flags, io, run }) => {
    const keysFile = flags.keysFile;
    const [{ parseRecordedSet }, { runRemove }] = await Promise.all([import('./shared/options.js'), import('../operations/remove.js')]);
    const options = await parseRecordedSet(kindArg(kind), flags, io, keysFile === '-' ? 'keys' : undefined);
    const { list, source } = await removeList((keys as readonly string[] | undefined) ?? [], keysFile, io);
    return runRemove({ ...options, keys: list, source }, run);
  },
});

/** A keys file far larger than any list of leavers is the wrong file. */
const MAX_KEYS_FILE = 16 * 1024 * 1024;

/** The keys from the command line and --keys-file FILE (- for standard input), and how the history names them. */
async function removeList(args: readonly string[], keysFile: string | undefined, io: ProcessIo): Promise<{ list: string[]; source: string }> {
  const [{ InputError, UsageError }, { readSmall }, { keyList }] = await Promise.all([
    import('../errors.js'),
    import('../read/small-file.js'),
    import('../sets/keys.js'),
  ]);
  let text: string | undefined;
  if (keysFile !== undefined) {
    const bytes = await readSmall(keysFile, '--keys-file', MAX_KEYS_FILE, () => io.stdin).catch((err: NodeJS.ErrnoException) => {
      if (err instanceof UsageError) throw err;
      throw new InputError('CANNOT_READ', `--keys-file ${keysFile}: cannot read the file: ${err.code ?? err.message}`, 'check the path', { cause: err });
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

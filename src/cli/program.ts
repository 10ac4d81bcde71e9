// The command line: the command it names, loaded from its file in src/commands/ (only that one), its
// words read against the table of flags (./argv.ts), and its run on the runner.
import { UsageError } from '../errors.js';
import { versionLine } from '../version.js';
import { closest, parseLine } from './argv.js';
import type { RunIo } from './io.js';
import type { CommandResult } from './result.js';
import { runCommand } from './runner.js';
import { commandNames, isCommand, loadCommand } from './table.js';

/**
 * Parses the command line and runs the command it names; 'shown' when what was asked was printed (the
 * version). A bad command line throws a usage error (BAD_USAGE) naming what is wrong.
 */
export async function parse(argv: readonly string[], io: RunIo): Promise<CommandResult | 'shown'> {
  const [name, ...rest] = argv;
  if (name === '-V' || name === '--version') {
    io.stdout.write(`${await versionLine()}\n`);
    return 'shown';
  }
  if (name === undefined || !isCommand(name)) {
    const word = name ?? '';
    const nearest = word.startsWith('-') ? undefined : await closest(word, commandNames());
    throw new UsageError(
      'BAD_USAGE',
      word.startsWith('-') ? `${word} is not an option of upload; the command comes first` : `'${word}' is not a command of upload`,
      nearest ? `did you mean upload ${nearest}? (run: upload --help)` : 'run: upload --help, which lists the commands',
    );
  }
  const spec = await loadCommand(name);
  const { args, flags, given } = await parseLine(name, spec, rest);
  return runCommand(name, spec, args, flags, io, { argv, given });
}

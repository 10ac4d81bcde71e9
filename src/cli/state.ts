// `upload state --to STORE`: every recorded upload, with its history, copied into another store (a
// local directory into PostgreSQL, or into a shared folder). Nothing in the target is overwritten.
import type { ProcessIo } from './io.js';
import { parseState } from './options.js';
import type { CommandResult } from './result.js';

export async function stateAction(flags: Record<string, unknown>, io: ProcessIo): Promise<CommandResult> {
  try {
    const from = parseState({ state: flags.from }, io).state;
    const to = parseState({ state: flags.to }, io).state;
    const { openStore, copyState } = await import('../state/index.js');
    const source = await openStore(from, { env: io.env });
    try {
      const target = await openStore(to, { env: io.env });
      try {
        for (const notice of target.notices) io.stderr.write(`${notice}\n`);
        const copied = await copyState(source, target);
        for (const notice of copied.notices) io.stderr.write(`${notice}\n`);
        io.stderr.write(
          `Copied ${copied.keys} base URL and kind pair(s), ${copied.generations} upload(s) and ${copied.attempts} audit line(s) from ${source.label} to ${target.label}.\n`,
        );
        io.stderr.write(`Use it with --state (or UPLOAD_STATE) on every machine that uploads: ${target.label}\n`);
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
    return { exitCode: 0 };
  } catch (failure) {
    return { failure };
  }
}

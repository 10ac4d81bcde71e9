// `upload state --to STORE`: every recorded upload, with its history, copied into another store (a
// local directory into PostgreSQL, or into a shared folder). Nothing in the target is overwritten.
import type { Flags } from './flags.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { resolveBaseUrl } from '../send/config.js';
import { normaliseBaseUrl } from '../state/paths.js';
import type { ProcessIo } from './io.js';
import { parseState } from './options.js';
import type { CommandResult } from './result.js';

export async function stateAction(flags: Flags, io: ProcessIo): Promise<CommandResult> {
  try {
    if (flags.to === undefined) throw new UsageError('BAD_USAGE', 'upload state needs --to STORE (or the action resolve)', 'see upload state --help');
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

/** `upload state resolve <kind> --sent|--previous`: settles an upload sent but never confirmed. */
export async function resolveAction(kind: Kind, flags: Flags, io: ProcessIo): Promise<CommandResult> {
  try {
    if ((flags.sent === true) === (flags.previous === true))
      throw new UsageError(
        'BAD_USAGE',
        'upload state resolve needs exactly one of --sent or --previous',
        'check on the service which set it holds, then say which',
      );
    const how = flags.sent === true ? 'sent' : 'previous';
    const baseUrl = resolveBaseUrl(flags.baseUrl, io.env);
    const { state, identity: who, keep } = parseState(flags, io);
    const [{ openStore }, { settlePending }] = await Promise.all([import('../state/index.js'), import('../state/settle.js')]);
    const store = await openStore(state, { env: io.env });
    try {
      const key = { baseUrl: normaliseBaseUrl(baseUrl), kind };
      const settled = await settlePending(store, key, how, { ...who, pid: process.pid, what: `${KINDS[kind].noun}s to ${key.baseUrl}` }, keep);
      const p = settled.pending;
      const what = p
        ? `the upload of ${p.records} ${KINDS[kind].noun}(s) from ${p.source} by ${p.user}@${p.host} at ${p.intendedAt}`
        : 'the unconfirmed upload, whose record was damaged,';
      io.stderr.write(
        settled.how === 'sent'
          ? `Settled: ${what} is what the service holds; it is now upload #${settled.generation.generation}, the baseline of the next run.\n`
          : `Settled: ${what} is forgotten; the next run compares with ${p ? `upload #${p.generation - 1}` : 'the latest recorded upload'} again.\n`,
      );
    } finally {
      await store.close();
    }
    return { exitCode: 0 };
  } catch (failure) {
    return { failure };
  }
}

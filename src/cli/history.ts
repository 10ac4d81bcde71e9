// `upload history <kind>`: the store's record of uploads to one address, for people or (--json) scripts.
import type { Kind } from '../contract/kinds.js';
import { resolveBaseUrl } from '../send/config.js';
import { FLAGS, type Flags } from './flags.js';
import type { ProcessIo } from './io.js';
import { count, parseState } from './options.js';
import type { CommandResult } from './result.js';

export async function historyAction(kind: Kind, flags: Flags, io: ProcessIo): Promise<CommandResult> {
  const json = flags.json === true;
  try {
    const baseUrl = resolveBaseUrl(flags.baseUrl, io.env);
    const limit = count('--limit', flags.limit ?? FLAGS.limit.default, 1);
    const { state } = parseState(flags, io);
    const { history } = await import('../engine/history.js');
    const report = await history(state, baseUrl, kind, limit, { env: io.env, stdin: io.stdin, emit: () => {}, confirm: () => Promise.resolve(false) });
    if (json) return { exitCode: 0, data: report, json };
    const { formatHistory } = await import('../report/history.js');
    io.stdout.write(`${formatHistory(report).join('\n')}\n`);
    return { exitCode: 0 };
  } catch (failure) {
    return { failure, json, facts: { kind, source: null, dryRun: false } };
  }
}

// `upload history <kind>`: the store's record of uploads to one address, for people or (--json) scripts,
// and with --html FILE as a page.
import type { Kind } from '../contract/kinds.js';
import { resolveBaseUrl } from '../send/config.js';
import { FLAGS, type Flags } from './flags.js';
import type { ProcessIo } from './io.js';
import { count, parseState } from './options.js';
import type { CommandResult } from './result.js';
import { withTarget, type CommandLine } from './targets.js';

export async function historyAction(kind: Kind, given: Flags, io: ProcessIo, line: CommandLine): Promise<CommandResult> {
  const json = given.json === true;
  try {
    // Reading is not writing: a protected target may be named by UPLOAD_TARGET here.
    const { flags } = await withTarget(given, io, line, kind, { showOnly: true });
    const baseUrl = resolveBaseUrl(flags.baseUrl, io.env);
    const limit = count('--limit', flags.limit ?? FLAGS.limit.default, 1);
    const { state } = parseState(flags, io);
    const { html } = flags;
    const { checkWritable, writePrivateFile } = await import('../report/private-file.js');
    if (html !== undefined) await checkWritable(html, '--html');
    const { history } = await import('../engine/history.js');
    const report = await history(state, baseUrl, kind, limit, { env: io.env, stdin: io.stdin, emit: () => {}, confirm: () => Promise.resolve(false) });
    if (html !== undefined) {
      const { historyPage } = await import('../report/html/history.js');
      await writePrivateFile(html, '--html', [historyPage(report, new Date().toISOString())]);
    }
    if (json) return { exitCode: 0, data: report, json };
    const { formatHistory } = await import('../report/history.js');
    io.stdout.write(`${formatHistory(report).join('\n')}\n`);
    return { exitCode: 0 };
  } catch (failure) {
    return { failure, json, facts: { kind, source: null, dryRun: false } };
  }
}

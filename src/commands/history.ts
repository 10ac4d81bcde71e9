// `upload history <kind>`: the store's record of uploads to one address, for people or (--json) scripts,
// and with --html FILE as a page.
import { defineCommand, kindArg } from '../cli/command.js';
import { FLAGS, GROUPS } from '../cli/flags.js';

export default defineCommand({
  description:
    'The uploads the state store recorded for one service address and kind, newest first, with what each changed and the failed attempts between them.',
  examples: [
    '$ upload history team-members --base-url https://scheduling.example.com',
    '$ upload history store-cards --limit 5 --json',
    '$ upload history store-cards --target production --html history.html',
  ],
  flags: ['baseUrl', ...GROUPS.store, 'limit', 'json', 'html', ...GROUPS.target],
  kind: ([kind]) => kindArg(kind),
  // Reading is not writing: a protected target may be named by UPLOAD_TARGET here.
  readOnly: true,
  run: async ({ args: [kind], flags, io, run }) => {
    const { resolveBaseUrl } = await import('../send/config.js');
    const baseUrl = resolveBaseUrl(flags.settings.baseUrl, io.env);
    const { count, parseState } = await import('./shared/parse.js');
    const limit = count('--limit', flags.limit ?? FLAGS.limit.default, 1);
    const { html } = flags;
    const { checkWritable, writePrivateFile } = await import('../files/private-file.js');
    if (html !== undefined) await checkWritable(html, '--html');
    const { history } = await import('../operations/history.js');
    const report = await history(parseState(flags, io).state, baseUrl, kindArg(kind), limit, run);
    if (html !== undefined) {
      const { historyPage } = await import('../render/html/history.js');
      await writePrivateFile(html, '--html', [historyPage(report, new Date().toISOString())]);
    }
    if (flags.json !== true) {
      const { formatHistory } = await import('../render/history.js');
      io.stdout.write(`${formatHistory(report).join('\n')}\n`);
    }
    return { data: report };
  },
});

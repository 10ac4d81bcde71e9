// `upload state --to STORE`: every recorded upload, with its history, copied into another store (a local
// directory into PostgreSQL, or into a shared folder); nothing in the target is overwritten.
// `upload state resolve <kind> --sent|--previous`: an upload sent but never confirmed, settled.
import { defineCommand, kindArg, type CommandContext } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';

export default defineCommand({
  description: `Without an action: copy everything a state store holds — every base URL and kind, each with its generations, snapshots and audit log — into another store, e.g. from the local directory into PostgreSQL. The target must not hold any of it yet.

resolve <kind> --sent|--previous: an upload whose outcome was never learnt (the answer lost, the lock lost while sending, or a store that could not record it) is recorded as "sent, not confirmed", and every run compared with the recorded uploads refuses (BASELINE_UNCERTAIN) until it is settled. The service offers no way to read what it holds: check in the scheduling application whether a record that upload added or changed is there, then say --sent (it holds that upload: its recorded bytes become the latest) or --previous (it does not).`,
  examples: [
    '$ upload state --to postgres://uploader@db.example.com/scheduling',
    '$ upload state --from /mnt/shared/upload-state --to ~/.local/state/scheduling-upload',
    '$ upload state resolve team-members --sent        the service holds the upload that was sent but not confirmed',
  ],
  flags: ['to', 'from', 'sent', 'previous', 'baseUrl', ...GROUPS.state, 'json', ...GROUPS.target, ...GROUPS.notify],
  kind: ([action, kind]) => (action === 'resolve' ? kindArg(kind) : undefined),
  run: async (ctx) => {
    const [action] = ctx.args;
    if (action === undefined) return copy(ctx);
    if (action === 'resolve') return resolve(ctx);
    const { UsageError } = await import('../errors.js');
    throw new UsageError(
      'BAD_USAGE',
      `'${String(action)}' is not an action of upload state`,
      'use upload state --to STORE, or upload state resolve KIND --sent|--previous',
    );
  },
});

async function copy({ flags, io, store, say }: CommandContext): Promise<{ data: unknown }> {
  const [{ UsageError }, { storeLocation }, { copyState }] = await Promise.all([
    import('../errors.js'),
    import('../config/settings.js'),
    import('../state/index.js'),
  ]);
  if (flags.to === undefined) throw new UsageError('BAD_USAGE', 'upload state needs --to STORE (or the action resolve)', 'see upload state --help');
  // --from, else the store a run would use (--state, the target's, $UPLOAD_STATE or the system's).
  const from = flags.from === undefined ? String(flags.settings.state.value) : storeLocation(flags.from, io.env);
  const to = storeLocation(flags.to, io.env);
  const source = await store(from);
  const target = await store(to);
  const copied = await copyState(source, target);
  for (const notice of copied.notices) say(notice);
  say(
    `Copied ${copied.keys} base URL and kind pair(s), ${copied.generations} upload(s)${copied.pending ? `, ${copied.pending} upload(s) sent but not confirmed (still to be settled in the copy)` : ''} and ${copied.attempts} audit line(s) from ${source.label} to ${target.label}.`,
  );
  say(`Use it with --state (or UPLOAD_STATE) on every machine that uploads: ${target.label}`);
  return { data: { from: source.label, to: target.label, keys: copied.keys, generations: copied.generations, attempts: copied.attempts } };
}

async function resolve({ args: [, kind_], flags, io, store, say }: CommandContext): Promise<{ data: unknown }> {
  const kind = kindArg(kind_);
  const [{ UsageError }, { KINDS }, { resolveBaseUrl }, { normaliseBaseUrl }, { parseState }, { settlePending }] = await Promise.all([
    import('../errors.js'),
    import('../contract/kinds.js'),
    import('../send/config.js'),
    import('../state/paths.js'),
    import('./shared/parse.js'),
    import('../state/settle.js'),
  ]);
  if ((flags.sent === true) === (flags.previous === true))
    throw new UsageError(
      'BAD_USAGE',
      'upload state resolve needs exactly one of --sent or --previous',
      'look in the scheduling application whether a record this upload added or changed is there (the service offers no way to read what it holds), then say which',
    );
  const how = flags.sent === true ? 'sent' : 'previous';
  const baseUrl = resolveBaseUrl(flags.settings.baseUrl, io.env);
  const { identity: who, keep } = parseState(flags, io);
  const key = { baseUrl: normaliseBaseUrl(baseUrl), kind };
  const settled = await settlePending(await store(), key, how, { ...who, pid: process.pid, what: `${KINDS[kind].noun}s to ${key.baseUrl}` }, keep);
  const p = settled.pending;
  const what = p
    ? `the upload of ${p.records} ${KINDS[kind].noun}(s) from ${p.source} by ${p.user}@${p.host} at ${p.intendedAt}`
    : 'the unconfirmed upload, whose record was damaged,';
  say(
    settled.how === 'sent'
      ? `Settled: ${what} is what the service holds; it is now upload #${settled.generation.generation}, the baseline of the next run.`
      : `Settled: ${what} is forgotten; the next run compares with ${p ? `upload #${p.generation - 1}` : 'the latest recorded upload'} again.`,
  );
  return {
    data: { kind, baseUrl: key.baseUrl, how: settled.how, generation: settled.how === 'sent' ? settled.generation.generation : p ? p.generation - 1 : null },
  };
}

// `upload config`: the settings a run would use and where each comes from, for a person or (--json) a
// script, secrets shown only as where they live. It prints the runner's own record (ctx.settings), so
// what it shows is what a run with the same flags, target and environment uses.
import { defineCommand } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';
import type { Kind } from '../contract/kinds.js';

export default defineCommand({
  description:
    'Print the effective settings — service address, state store, token source, mapping, guard limits, retries, notifications — for a target of the config file (or none), with where each value comes from: a flag, a target, a variable or the default. Give it the flags of a run to see what they change. Tokens are never shown; webhook addresses only by their host.',
  examples: ['$ upload config', '$ upload config --target production --kind store-cards --json', '$ upload config --max-removals 50 --state /srv/upload'],
  flags: [
    ...GROUPS.target,
    'kind',
    'json',
    'baseUrl',
    'tokenEnv',
    'tokenFile',
    'map',
    ...GROUPS.state,
    ...GROUPS.guards,
    'retries',
    'timeout',
    ...GROUPS.notify,
  ],
  kind: (_, flags) => flags.kind as Kind | undefined,
  // Showing a protected target's settings writes nothing, so naming it by UPLOAD_TARGET is fine here.
  readOnly: true,
  showsSettings: true,
  run: async ({ flags, io, target, config, settings, store }) => {
    const [{ checkSettings }, { parseNotify }, { effectiveConfig, formatConfig }] = await Promise.all([
      import('./shared/parse.js'),
      import('../notify/index.js'),
      import('../config/show.js'),
    ]);
    // What a run would refuse in these settings, upload config refuses too, with the same error.
    checkSettings(flags);
    parseNotify(settings, (secret) => io.secrets.keep(secret));
    const effective = effectiveConfig(config, target, settings, io.env);
    // The protective settings: the config's and the store's, the stricter, and where each came from.
    const { protection } = await import('../cli/policy-gate.js');
    const guarded = await protection({ settings, target, flags }, store);
    // The protective settings' sources in the same column as the others'.
    const shown = formatConfig(effective);
    const column = Math.max(0, ...shown.map((l) => l.indexOf('← ')));
    const aligned = (l: string) => {
      const at = l.indexOf(' ← ');
      return at < 0
        ? l
        : `${l
            .slice(0, at)
            .trimEnd()
            .padEnd(column - 1)} ${l.slice(at + 1)}`;
    };
    const lines = [...shown, ...guarded.lines.map(aligned)];
    if (flags.json !== true) io.stdout.write(`${io.secrets.redact(lines.join('\n'))}\n`);
    return { data: { ...effective, protection: guarded.data } };
  },
});

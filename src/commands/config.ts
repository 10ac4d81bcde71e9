// `upload config`: the settings a run would use and where each comes from, for a person or (--json) a
// script, secrets shown only as where they live.
import { defineCommand } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';
import type { Kind } from '../contract/kinds.js';

export default defineCommand({
  usage: 'config',
  summary: 'show the settings a run would use, and where each comes from (secrets redacted)',
  description:
    'Print the effective settings — service address, state store, token source, mapping, guard limits, notifications — for a target of the config file (or none), with where each value comes from: a flag, a target, a variable or the default. Tokens are never shown; webhook addresses only by their host.',
  examples: ['$ upload config', '$ upload config --target production --kind store-cards --json'],
  order: 10,
  flags: [...GROUPS.target, 'kind', 'json'],
  // Showing a protected target's settings writes nothing, so naming it by UPLOAD_TARGET is fine here.
  readOnly: true,
  run: async ({ flags, io, line }) => {
    const [{ loadConfig }, { chooseTarget, checkAddress, explicitAddress }, { effectiveConfig, formatConfig }] = await Promise.all([
      import('../config/load.js'),
      import('../config/target.js'),
      import('../config/show.js'),
    ]);
    const loaded = await loadConfig(flags.config, io.env);
    const chosen = chooseTarget(loaded, flags.target, io.env, { showOnly: true });
    checkAddress(chosen, explicitAddress(flags.baseUrl, line.given, io.env));
    const effective = effectiveConfig(loaded, chosen, flags, line.given, io.env, flags.kind as Kind | undefined);
    if (flags.json !== true) io.stdout.write(`${io.secrets.redact(formatConfig(effective).join('\n'))}\n`);
    return { data: effective };
  },
});

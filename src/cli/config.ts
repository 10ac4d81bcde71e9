// `upload config`: the effective settings of a run, for a person or (--json) a script, secrets redacted.
import type { Kind } from '../contract/kinds.js';
import type { Flags } from './flags.js';
import type { RunIo } from './io.js';
import type { CommandResult } from './result.js';
import type { CommandLine } from './targets.js';

export async function configAction(flags: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const json = flags.json === true;
  try {
    const [{ loadConfig }, { chooseTarget, checkAddress, explicitAddress }, { effectiveConfig, formatConfig }] = await Promise.all([
      import('../config/load.js'),
      import('../config/target.js'),
      import('../config/show.js'),
    ]);
    const loaded = await loadConfig(typeof flags.config === 'string' ? flags.config : undefined, io.env);
    // Showing a protected target's settings writes nothing, so naming it by UPLOAD_TARGET is fine here.
    const chosen = chooseTarget(loaded, typeof flags.target === 'string' ? flags.target : undefined, io.env, { showOnly: true });
    checkAddress(chosen, explicitAddress(typeof flags.baseUrl === 'string' ? flags.baseUrl : undefined, line.given, io.env));
    const effective = effectiveConfig(loaded, chosen, flags, line.given, io.env, flags.kind as Kind | undefined);
    if (json) return { exitCode: 0, data: effective, json };
    io.stdout.write(`${io.secrets.redact(formatConfig(effective).join('\n'))}\n`);
    return { exitCode: 0 };
  } catch (failure) {
    return { failure, json, facts: { kind: null, source: null, dryRun: false } };
  }
}

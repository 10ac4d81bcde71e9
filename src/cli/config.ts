// `upload config`: the effective settings of a run, for a person or (--json) a script, secrets redacted.
import type { Kind } from '../contract/kinds.js';
import { redact } from '../send/secrets.js';
import type { ProcessIo } from './io.js';
import type { CommandResult } from './result.js';
import type { CommandLine } from './targets.js';

export async function configAction(flags: Record<string, unknown>, io: ProcessIo, line: CommandLine): Promise<CommandResult> {
  const json = flags.json === true;
  try {
    const [{ loadConfig }, { chooseTarget }, { effectiveConfig, formatConfig }] = await Promise.all([
      import('../config/load.js'),
      import('../config/target.js'),
      import('../config/show.js'),
    ]);
    const loaded = loadConfig(typeof flags.config === 'string' ? flags.config : undefined, io.env);
    // Showing a protected target's settings writes nothing, so naming it by UPLOAD_TARGET is fine here.
    const chosen = chooseTarget(loaded, typeof flags.target === 'string' ? flags.target : undefined, io.env, { showOnly: true });
    const effective = effectiveConfig(loaded, chosen, flags, line.given, io.env, flags.kind as Kind | undefined);
    if (json) return { exitCode: 0, data: effective, json };
    io.stdout.write(`${redact(formatConfig(effective).join('\n'))}\n`);
    return { exitCode: 0 };
  } catch (failure) {
    const { emptyReport } = await import('../report/types.js');
    return { failure, json, report: emptyReport(null, null, false) };
  }
}

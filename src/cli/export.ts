// `upload export <kind> [file]`: flags → the export's options → the file (or standard output) and one
// line on stderr saying what was written. The file may be named like an upload's (`upload export
// team-members staff.csv`) or with --output, as people type it either way; two different names stop.
import type { Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { resolveBaseUrl } from '../send/config.js';
import type { Flags } from './flags.js';
import type { RunIo } from './io.js';
import { count, parseState } from './options.js';
import type { CommandResult } from './result.js';

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export async function exportAction(kind: Kind, file: string | undefined, flags: Flags, io: RunIo): Promise<CommandResult> {
  try {
    const baseUrl = resolveBaseUrl(text(flags.baseUrl), io.env);
    const { state } = parseState(flags, io);
    const flag = text(flags.output);
    if (file !== undefined && flag !== undefined && file !== flag)
      throw new UsageError('BAD_FLAG', `two files to export to: '${file}' and --output '${flag}'`, 'name the file once, as an argument or with --output');
    const output = file ?? flag;
    const generation = flags.exportGeneration === undefined ? undefined : count('--generation', flags.exportGeneration, 1);
    const { exportFormat } = await import('../export/index.js');
    const format = exportFormat(text(flags.exportFormat), output);
    if (format === 'xlsx' && output === undefined)
      throw new UsageError('BAD_FLAG', 'a workbook is not written to standard output', `give it a file: --output ${kind}.xlsx`);
    if (output !== undefined) await (await import('../export/file.js')).checkTarget(output);
    const { runExport } = await import('../export/run.js');
    const done = await runExport({ kind, baseUrl, state, generation, format, output }, io.env, io.stdout);
    if (flags.quiet !== true) {
      const { plural } = await import('../numbers.js');
      const g = done.generation;
      const where = output === undefined ? 'standard output' : `${output} (mode ${done.mode!.toString(8).padStart(4, '0')})`;
      io.stderr.write(
        `Exported ${plural(done.records, kind === 'store-cards' ? 'store card' : 'team member')} of upload #${g.generation} (${g.uploadedAt.slice(0, 16).replace('T', ' ')} UTC by ${g.user}@${g.host}) to ${where} as ${format.toUpperCase()}.\n`,
      );
    }
    return { exitCode: 0 };
  } catch (failure) {
    return { failure };
  }
}

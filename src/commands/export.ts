// `upload export <kind> [file]`: the last recorded set (or --generation N) as a file to edit and upload
// again, or on standard output. The file may be named like an upload's (`upload export team-members
// staff.csv`) or with --output, as people type it either way; two different names stop.
import { defineCommand, kindArg } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';

/** The formats as the summary line names them. */
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  csv: 'CSV',
  xlsx: 'XLSX',
  json: 'JSON',
  osm: "OpenStreetMap's opening_hours",
  'schema-org': 'schema.org JSON-LD',
  gbp: 'Google Business Profile hours columns',
};

export default defineCommand({
  description:
    "Write the set the service last confirmed (or an earlier one, while its snapshot is kept) as a file to edit and upload again: CSV or an Excel workbook in the layout of `upload template`, or the wire JSON. Uploading the untouched file changes nothing. Store cards' hours go to listings with --format osm (OpenStreetMap opening_hours), schema-org (JSON-LD OpeningHoursSpecification) or gbp (Google Business Profile bulk sheet hours columns). The file holds names and emails: it is written 0600 (0660 in a folder shared with a group).",
  examples: [
    '$ upload export team-members staff.xlsx                 for Excel; upload it again when edited',
    '$ upload export store-cards > stores.csv                 CSV on standard output',
    '$ upload export team-members --generation 41 --format json --output before.json',
    '$ upload export team-members --target production --json --output staff.csv',
    '$ upload export store-cards --format osm --output stores-osm.csv   hours as OpenStreetMap opening_hours',
  ],
  flags: ['exportGeneration', 'output', 'exportFormat', 'baseUrl', ...GROUPS.store, 'json', 'quiet', ...GROUPS.target, ...GROUPS.notify],
  kind: ([kind]) => kindArg(kind),
  readOnly: true,
  run: async ({ args: [kind_, file], flags, io, store, say }) => {
    const kind = kindArg(kind_);
    const [{ UsageError }, { resolveBaseUrl }, { count }, { exportFormat, HOURS_FORMATS }] = await Promise.all([
      import('../errors.js'),
      import('../send/config.js'),
      import('./shared/parse.js'),
      import('../export/index.js'),
    ]);
    const baseUrl = resolveBaseUrl(flags.settings.baseUrl, io.env);
    const flag = flags.output;
    if (file !== undefined && flag !== undefined && file !== flag)
      throw new UsageError(
        'BAD_FLAG',
        `two files to export to: '${String(file)}' and --output '${flag}'`,
        'name the file once, as an argument or with --output',
      );
    const output = (file as string | undefined) ?? flag;
    const generation = flags.exportGeneration === undefined ? undefined : count('--generation', flags.exportGeneration, 1);
    const format = exportFormat(flags.exportFormat, output);
    // Only store cards have hours; a team-members file in a listings' format would be empty of meaning.
    if (HOURS_FORMATS.has(format) && kind !== 'store-cards')
      throw new UsageError(
        'BAD_FLAG',
        `--format ${format} writes opening hours, which only store cards have; ${kind} export as csv, xlsx or json`,
        'use --format csv (or xlsx, json)',
      ).withFixes({ kind: 'flags', args: ['--format', 'csv'] });
    if (format === 'xlsx' && output === undefined)
      throw new UsageError('BAD_FLAG', 'a workbook is not written to standard output', `give it a file: --output ${kind}.xlsx`);
    // --json's document and the exported records cannot share standard output.
    if (flags.json === true && output === undefined)
      throw new UsageError(
        'BAD_FLAG',
        '--json writes its report to standard output, where the export would go',
        `give the export a file: --output ${kind}.csv`,
      );
    if (output !== undefined) await (await import('../export/file.js')).checkTarget(output);
    const { runExport } = await import('../export/run.js');
    const done = await runExport({ kind, baseUrl, generation, format, output }, await store(), io.stdout);
    if (flags.quiet !== true && flags.json !== true) {
      const { plural } = await import('../numbers.js');
      const g = done.generation;
      const where = output === undefined ? 'standard output' : `${output} (mode ${done.mode!.toString(8).padStart(4, '0')})`;
      say(
        `Exported ${plural(done.records, kind === 'store-cards' ? 'store card' : 'team member')} of upload #${g.generation} (${g.uploadedAt.slice(0, 16).replace('T', ' ')} UTC by ${g.user}@${g.host}) to ${where} as ${FORMAT_NAMES[format]}.`,
      );
    }
    const g = done.generation;
    return {
      data: {
        kind,
        baseUrl: done.baseUrl,
        store: done.store,
        generation: g.generation,
        uploadedAt: g.uploadedAt,
        records: done.records,
        format,
        output: output ?? null,
        mode: done.mode === null ? null : done.mode.toString(8).padStart(4, '0'),
      },
    };
  },
});

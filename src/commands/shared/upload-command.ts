// `upload store-cards|team-members <file>`: the two upload commands are one definition of a kind (the
// files src/commands/store-cards.ts and team-members.ts name it). The file's records, or with --merge
// the last recorded set with them added, go through the engine's frame.
import type { Kind } from '../../contract/kinds.js';
import { displayName } from '../../read/types.js';
import { defineCommand, type CommandFile } from '../../cli/command.js';
import { EXIT_CODES } from '../../cli/exit-codes.js';
import { GROUPS } from '../../cli/flags.js';

export function uploadCommand(kind: Kind): CommandFile {
  const noun = kind === 'store-cards' ? 'store card' : 'team member';
  const summary = `upload the complete set of ${noun}s`;
  const file = kind === 'store-cards' ? 'stores.csv' : 'staff.csv';
  const column = kind === 'store-cards' ? 'nodeKey": "Filiale' : 'employeeID": "Personalnummer';
  return defineCommand({
    description: `${summary}\n\n<file> is a CSV, JSON (array) or NDJSON file, a workbook (.xlsx, .xlsm, .xls or .ods; the first sheet unless --sheet), or - for standard input. Every ${noun} on the service is replaced by the file's records.`,
    examples: [
      `$ upload ${kind} ${file} --dry-run                 check the file, see the mapping and the changes; send nothing`,
      `$ upload ${kind} ${file}                           the same, then confirm and upload`,
      `$ upload ${kind} ${file} --yes --json              unattended (cron): no prompt, one JSON report on stdout`,
      `$ upload ${kind} export.csv --map '{"${column}"}'   name a column the tool does not know`,
      `$ upload ${kind} ${file} --max-removals 37         allow exactly the 37 removals you expect`,
      `$ upload ${kind} ${file} --max-changes 120         allow exactly the 120 changed records you expect`,
      `$ upload ${kind} ${kind === 'store-cards' ? 'fix.csv' : 'new-hires.csv'} --merge          add or replace only these records (docs/everyday.md)`,
      `$ upload ${kind} ${file} --yes --hold-removals     nightly: send additions and changes, hold back doubtful removals (exit 9)`,
      `$ upload ${kind} ${file} --yes --same-layout       nightly: refuse a file whose columns changed since the last upload (exit 4)`,
    ],
    helpAfter: EXIT_CODES,
    flags: [
      'dryRun',
      ...GROUPS.sending.slice(0, 4),
      'json',
      'map',
      'ignoreColumn',
      'timeFormat',
      'statusColumn',
      'active',
      'noStatusColumn',
      ...(kind === 'store-cards' ? (['splitHours', 'hoursAsOf', 'closedDays'] as const) : []),
      'format',
      'sheet',
      'headerRow',
      'hiddenRows',
      'delimiter',
      'encoding',
      'baseline',
      'noBaseline',
      'merge',
      'holdRemovals',
      'sameLayout',
      ...(kind === 'team-members' ? (['storeCards'] as const) : []),
      ...GROUPS.guards,
      ...GROUPS.sending.slice(4),
      'errorsCsv',
      'payloadOut',
      'diffOut',
      'planOut',
      ...GROUPS.output.slice(1),
      ...GROUPS.state,
      ...GROUPS.target,
      ...GROUPS.fourEyes,
      ...GROUPS.after,
    ],
    kind: () => kind,
    interruptible: true,
    writes: (flags) => (flags.dryRun === true ? undefined : 'direct'),
    facts: ([path], flags) => ({ kind, source: displayName(path as string), dryRun: flags.dryRun === true }),
    run: async ({ args: [path], flags, io, run }) => {
      const { parseUploadOptions } = await import('./options.js');
      const options = await parseUploadOptions(kind, path as string, flags, io);
      if (options.merge) {
        const [{ runFrame }, { mergeDefinition }] = await Promise.all([import('../../pipeline/frame.js'), import('../../operations/merge.js')]);
        return runFrame(mergeDefinition(options), run);
      }
      const { runUpload } = await import('../../pipeline/upload.js');
      return runUpload(options, run);
    },
  });
}

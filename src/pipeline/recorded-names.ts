// The recorded names against a doubtful reading (issue 28): SUSPECT_ENCODING is a warning while it
// only shows the names, and an error once it would rewrite names the service already holds.
import type { Bodies } from '../contract/json-array.js';
import type { Diff, RecordsByKey } from '../diff/index.js';
import { suspectNameChanges, type SuspectChanges } from '../diff/suspect-names.js';
import { issue, type Issue } from '../issues.js';
import { plural } from '../numbers.js';

/** The file-level notes, with SUSPECT_ENCODING made an error naming the recorded names it changes. */
export function guardRecordedNames(
  notes: readonly Issue[],
  baseline: RecordsByKey,
  keys: readonly string[],
  bodies: Bodies,
  diff: Diff,
  lineOf: (index: number) => number | undefined,
): Issue[] {
  const warning = notes.find((n) => n.code === 'SUSPECT_ENCODING');
  if (!diff.changed) return [...notes];
  const found = suspectNameChanges(baseline, keys, bodies, diff.status, warning !== undefined);
  if (found.count === 0) return [...notes];
  const changes = describeChanges(found, lineOf);
  if (warning) {
    // The warning already names the code page that reads the file right: that is the fix.
    const error: Issue = { ...warning, severity: 'error', message: `${warning.message}. Nothing was sent: this reading would change ${changes}` };
    return notes.map((n) => (n === warning ? error : n));
  }
  const fix = found.lostLetters
    ? 'a `?` stands where the recorded text has a letter, so the export lost those letters: export the file again as UTF-8 (in Excel: "CSV UTF-8")'
    : found.readAs
      ? `the new text is the recorded text's bytes read in the wrong encoding: run again with --encoding ${found.readAs}, which reads them as recorded, if the file was saved in it`
      : 'the new text looks mis-decoded: run again without --encoding to see the code pages ranked, and with --encoding of the one that shows the names right (or export the file again as UTF-8)';
  const first = found.examples[0]!;
  return [
    ...notes,
    issue('error', 'SUSPECT_ENCODING', `the file would change ${changes}; ${fix}. Nothing was sent`, {
      line: lineOf(first.index) ?? null,
      field: first.field,
      value: first.after,
      // The encoding that gives back the recorded text, as data; a lossy export has no flag to fix it.
      fixes: !found.lostLetters && found.readAs ? [{ kind: 'flags', args: ['--encoding', found.readAs] }] : undefined,
    }),
  ];
}

/** "2 recorded values: E1 (line 2) name 'Łukasz Żółć' to '£ukasz ¯ó³æ', …". */
function describeChanges(found: SuspectChanges, lineOf: (index: number) => number | undefined): string {
  const shown = found.examples.map((c) => {
    const line = lineOf(c.index);
    return `${c.key}${line === undefined ? '' : ` (line ${line})`} ${c.field} '${c.before}' to '${c.after}'`;
  });
  const more = found.count - found.examples.length;
  return `${plural(found.count, 'recorded value')}: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

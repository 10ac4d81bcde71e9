// What the read stage learnt about the file as a whole, as issues for the report: the sheet read and
// the others, a format decided by the bytes, and which columns a workbook hides.
import { issue, type Issue } from '../issues.js';
import { plural, thousands } from '../numbers.js';
import type { ReadInfo } from './types.js';

/** Hidden rows named one by one in HIDDEN_ROWS_EXCLUDED before "and N more". */
const SHOWN_ROWS = 10;

/** File-level warnings, once the records have all been read. `sheetFlag` is --sheet as given. */
export function readNotes(info: Readonly<ReadInfo>, sheetFlag: string | undefined): Issue[] {
  const notes = [...(info.notes ?? [])];
  const sheet = info.sheet;
  if (sheet?.hidden) {
    notes.push(issue('warning', 'HIDDEN_SHEET', `sheet '${sheet.name}' is hidden in the workbook; it was read because --sheet named it`, { line: null }));
  }
  const excluded = sheet?.excludedRows ?? [];
  if (sheet && excluded.length) {
    // Left out as asked, but a reviewer of the run must see that rows of the sheet were not uploaded.
    const listed = excluded.slice(0, SHOWN_ROWS).join(', ');
    const more = excluded.length > SHOWN_ROWS ? ` and ${thousands(excluded.length - SHOWN_ROWS)} more` : '';
    notes.push(
      issue(
        'warning',
        'HIDDEN_ROWS_EXCLUDED',
        `${plural(excluded.length, 'hidden row')} of sheet '${sheet.name}' ${excluded.length === 1 ? 'was' : 'were'} left out, as --hidden-rows exclude asks (row${excluded.length === 1 ? '' : 's'} ${listed}${more})`,
        { line: null },
      ),
    );
  }
  if (sheet && sheetFlag === undefined && sheet.others.length) {
    // The first visible sheet is only a guess at which one the user meant when others hold data too.
    const others = sheet.others.map((n) => `'${n}'`).join(', ');
    notes.push(
      issue(
        'warning',
        'OTHER_SHEETS',
        `the workbook has other sheets with data (${others}); only the first visible one, '${sheet.name}', was read: pass --sheet NAME with one of them to read it instead`,
        { line: null, fixes: sheet.others.map((name) => ({ kind: 'flags', args: ['--sheet', name] })) },
      ),
    );
  }
  return notes;
}

/** Every issue naming a column the workbook hides says so: the user cannot see it on screen. */
export function markHiddenColumns(issues: Issue[], info: Readonly<ReadInfo>): Issue[] {
  const hidden = new Set(info.hiddenColumns ?? []);
  if (hidden.size === 0) return issues;
  return issues.map((i) =>
    i.column !== null && hidden.has(i.column) ? { ...i, message: `${i.message} (column '${i.column}' is hidden in the workbook)` } : i,
  );
}

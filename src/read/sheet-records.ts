// One sheet's cells (as ./xlsx-worker.ts found them) to raw records, reading the sheet as it is shown:
// a hidden row is never uploaded without a word, an error cell is never sent as a name, a title row
// or a merged two-row header is named as such with the way forward.
import { InputError, UsageError, type Fix } from '../errors.js';
import { issue, type Issue } from '../issues.js';
import { checkHeader } from './csv.js';
import type { HiddenRows, RawRecord } from './types.js';
import type { SheetCells } from './xlsx-worker.js';

/** The two answers HIDDEN_ROWS offers, as its message says them. */
const HIDDEN_ROWS_FIXES: readonly Fix[] = [
  { kind: 'flags', args: ['--hidden-rows', 'exclude'] },
  { kind: 'flags', args: ['--hidden-rows', 'include'] },
];

export interface SheetOptions {
  readonly source: string;
  readonly sheet: string;
  /** --header-row: the 1-based row that names the columns; rows above it are not read. */
  readonly headerRow?: number | undefined;
  readonly hiddenRows?: HiddenRows | undefined;
}

export interface SheetRecords {
  readonly header: string[] | null;
  readonly headerLine: number | null;
  readonly records: RawRecord[];
  /** Names of the header's columns that are hidden in the workbook. */
  readonly hiddenColumns: string[];
  /** Rows (1-based) left out because they are hidden and --hidden-rows exclude asked for that. */
  readonly excludedRows: number[];
}

/** A1-style column letters of a 0-based column index. */
export function columnLetters(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const filled = (cells: readonly string[]) => cells.filter((v) => v.trim() !== '').length;

export function sheetRecords(cells: SheetCells, options: SheetOptions): SheetRecords {
  const { source, sheet } = options;
  // Formula cells with no calculated value, by row. A row of nothing else is not in `cells.rows`
  // (SheetJS drops such cells): it is a row all the same, and is read to be named.
  const uncalculated = new Map<number, { c: number; formula: string; cached?: string }[]>();
  for (const u of cells.uncalculated ?? []) uncalculated.set(u.r, [...(uncalculated.get(u.r) ?? []), u]);
  const present = new Set(cells.rows.map((row) => row.r));
  const formulaRows = [...uncalculated.keys()].filter((r) => !present.has(r)).map((r) => ({ r, cells: [] as string[], errors: [] as number[] }));
  const rows = (formulaRows.length ? [...cells.rows, ...formulaRows].sort((a, b) => a.r - b.r) : cells.rows).filter(
    (row) => filled(row.cells) > 0 || uncalculated.has(row.r),
  );
  let at = 0;
  if (options.headerRow !== undefined) {
    at = rows.findIndex((row) => row.r + 1 >= options.headerRow!);
    if (at === -1 || rows[at]!.r + 1 !== options.headerRow) {
      // The next row with more than one cell filled is the header's likely place, as for TITLE_ROW.
      const below = rows.find((row) => row.r + 1 > options.headerRow! && filled(row.cells) > 1);
      throw new UsageError(
        'HEADER_ROW_EMPTY',
        `--header-row ${options.headerRow}: row ${options.headerRow} of sheet '${sheet}' in ${source} is empty`,
        below
          ? `give the number of the row that names the columns, as the spreadsheet numbers it: --header-row ${below.r + 1} if it is row ${below.r + 1} (it looks like it)`
          : 'give the number of the row that names the columns, as the spreadsheet numbers it',
      ).withFixes(...(below ? [{ kind: 'flags' as const, args: ['--header-row', String(below.r + 1)] }] : []));
    }
  }
  const head = rows[at];
  if (!head) return { header: null, headerLine: null, records: [], hiddenColumns: [], excludedRows: [] };
  const line = head.r + 1;
  if (options.headerRow === undefined && filled(head.cells) === 1) {
    const below = rows.slice(at + 1).find((row) => filled(row.cells) > 1);
    if (below) {
      const title = head.cells.find((v) => v.trim() !== '')!.trim();
      throw new InputError(
        'TITLE_ROW',
        `${source}: row ${line} of sheet '${sheet}' holds only '${title}', a title rather than a header naming the columns`,
        `pass --header-row ${below.r + 1} if that row names the columns (row ${below.r + 1} looks like it)`,
      ).withFixes({ kind: 'flags', args: ['--header-row', String(below.r + 1)] });
    }
  }
  checkMerged(cells.merges, head.r, options);
  const hiddenColumnSet = new Set(cells.hiddenColumns);
  const columns = checkHeader(source, line, head.cells, (c) => `column ${columnLetters(c)}${hiddenColumnSet.has(c) ? ', hidden in the workbook' : ''}`);
  const hiddenColumns = columns.filter((name, c) => name !== '' && hiddenColumnSet.has(c));
  const hiddenRowSet = new Set(cells.hiddenRows);
  const records: RawRecord[] = [];
  const excludedRows: number[] = [];
  for (const row of rows.slice(at + 1)) {
    const r = row.r + 1;
    let issues: Issue[] | undefined;
    if (hiddenRowSet.has(row.r)) {
      if (options.hiddenRows === 'exclude') {
        excludedRows.push(r);
        continue;
      }
      if (options.hiddenRows !== 'include') {
        (issues ??= []).push(
          issue(
            'error',
            'HIDDEN_ROWS',
            `row ${r} is hidden in sheet '${sheet}' (hidden by hand or by a filter), so it may not be meant for upload; pass --hidden-rows exclude to leave hidden rows out, or --hidden-rows include to upload them`,
            { line: r, fixes: HIDDEN_ROWS_FIXES },
          ),
        );
      }
    }
    const unread = uncalculated.get(row.r) ?? [];
    for (const { c, formula, cached } of unread) {
      const holds = `cell ${columnLetters(c)}${r} of sheet '${sheet}' holds ${formula ? `the formula ${formula}` : 'a formula'}`;
      (issues ??= []).push(
        issue(
          'error',
          'FORMULA_NOT_CALCULATED',
          cached === undefined
            ? `${holds} but no calculated value (the workbook was written by a program and never calculated), so it would be read as empty; open the workbook in Excel or LibreOffice and save it (that calculates it), or paste the cells as values, then run again`
            : // LibreOffice keeps such a value when it opens the workbook (it recalculates an .xlsx on load only when told to).
              `${holds} and the value '${cached}', which the program that wrote the workbook left without calculating it (the workbook asks to be calculated when opened); open it in Excel and save it, or in LibreOffice recalculate it (Data ▸ Calculate ▸ Recalculate Hard) and save it, or paste the cells as values, then run again`,
          { line: r, column: columns[c] || null, value: formula || null },
        ),
      );
    }
    for (const c of row.errors) {
      // An uncalculated `=NA()` is an error cell with no text: said above, as the formula it is.
      if (unread.some((u) => u.c === c)) continue;
      (issues ??= []).push(
        issue(
          'error',
          'ERROR_CELL',
          `cell ${columnLetters(c)}${r} shows the error ${row.cells[c]} (a formula that failed), which is never sent as a value; fix the formula or the cells it uses, or clear the cell`,
          { line: r, column: columns[c] || null, value: row.cells[c] },
        ),
      );
    }
    // A sheet has no "missing cells": empty ones at the end of a row are empty, not a cut-off line.
    const values = row.cells.length < columns.length ? [...row.cells, ...Array<string>(columns.length - row.cells.length).fill('')] : row.cells;
    records.push(issues ? { line: r, columns, cells: values, issues } : { line: r, columns, cells: values });
  }
  return { header: columns, headerLine: line, records, hiddenColumns, excludedRows };
}

/** A header row that is part of a merged range is one row of a two-row header: never guessed at. */
function checkMerged(merges: readonly string[], r: number, options: SheetOptions): void {
  for (const ref of merges) {
    const m = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(ref);
    if (!m) continue;
    const top = Number(m[2]) - 1;
    const bottom = Number(m[4] ?? m[2]) - 1;
    if (r < top || r > bottom) continue;
    throw new InputError(
      'MERGED_HEADER',
      `${options.source}: the header (row ${r + 1} of sheet '${options.sheet}') has merged cells (${ref}), so some columns have no name of their own`,
      'unmerge the cells and give every column its own name in one row (for example "Monday open", "Monday close"); if that row is not the first, pass --header-row N',
    );
  }
}

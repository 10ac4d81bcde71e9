// Workbooks read as a person sees them on screen (issue 20): LibreOffice-made fixtures
// (fixtures/sources/make-workbooks.py) through the real CLI to a real sandbox, which must store
// exactly the fixture's wire JSON, or the run must stop naming the sheet, row, column or cell.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { json, upload, type Kind } from '../helpers/scenarios.js';
import { tempDir } from '../helpers/tmp.js';
import { openRecords } from '../../src/read/index.js';

const dryRun = (kind: Kind, file: string, args: readonly string[] = []) => runCli([kind, fixture(file), '--dry-run', '--json', ...args]);

describe('a workbook with a hidden sheet, a filtered-out row and a hidden column', () => {
  const file = 'team-members-hidden-workbook.xlsx';

  it('reads the first visible sheet, and stops on the hidden row naming it', async () => {
    const r = await dryRun('team-members', file);
    expect(r.code).toBe(3);
    const issues = r.json().issues as { code: string; line: number | null; message: string; column: string | null }[];
    expect(issues.filter((i) => i.code === 'HIDDEN_ROWS')).toEqual([
      expect.objectContaining({ line: 4, message: expect.stringMatching(/row 4 is hidden in sheet 'Staff'.*--hidden-rows exclude.*--hidden-rows include/) }),
    ]);
    // The stale hidden sheet is not read, and nothing warns of "other sheets": it is not shown.
    expect(JSON.stringify(r.json())).not.toContain('left@example.com');
    expect(issues.some((i) => i.code === 'OTHER_SHEETS')).toBe(false);
    // Trailing empty cells of a sheet row are empty, not a cut-off line.
    expect(issues.some((i) => i.code === 'TOO_FEW_CELLS')).toBe(false);
  });

  it('calls a hidden column hidden in every message that names it', async () => {
    const r = await dryRun('team-members', file, ['--hidden-rows', 'exclude']);
    const naming = (r.json().issues as { column: string | null; message: string }[]).filter((i) => i.column === 'Notes');
    expect(naming.length).toBeGreaterThan(0);
    for (const i of naming) expect(i.message).toContain("column 'Notes' is hidden in the workbook");
  });

  it('says which hidden rows --hidden-rows exclude left out', async () => {
    const r = await dryRun('team-members', file, ['--hidden-rows', 'exclude']);
    expect(r.json().issues).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'HIDDEN_ROWS_EXCLUDED',
        message: "1 hidden row of sheet 'Staff' was left out, as --hidden-rows exclude asks (row 4)",
      }),
    );
    const included = await dryRun('team-members', file, ['--hidden-rows', 'include']);
    expect((included.json().issues as { code: string }[]).map((i) => i.code)).not.toContain('HIDDEN_ROWS_EXCLUDED');
  });

  it.each([
    ['exclude', 'team-members-hidden-workbook.exclude.wire.json'],
    ['include', 'team-members-hidden-workbook.include.wire.json'],
  ])('--hidden-rows %s uploads exactly what it says', async (mode, wire) => {
    const { run, stored } = await upload('team-members', file, ['--hidden-rows', mode]);
    expect(run.code).toBe(0);
    expect(stored).toEqual(json(wire));
  });

  it('reads the hidden sheet only when --sheet names it, and says it is hidden', async () => {
    const r = await dryRun('team-members', file, ['--sheet', 'Old staff']);
    expect(r.code).toBe(0);
    expect(r.json().issues).toEqual([expect.objectContaining({ code: 'HIDDEN_SHEET', message: expect.stringContaining("sheet 'Old staff' is hidden") })]);
    // A number counts the sheets the spreadsheet shows: 1 is 'Staff'; there is no visible second one.
    const second = await dryRun('team-members', file, ['--sheet', '2']);
    expect(second.code).toBe(2);
    expect(second.json().error).toMatchObject({ code: 'SHEET_NOT_FOUND', message: expect.stringContaining("'Old staff' (hidden), 'Staff'") });
  });

  it('--hidden-rows and --header-row are for workbooks only', async () => {
    const r = await dryRun('team-members', 'team-members.csv', ['--hidden-rows', 'include']);
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'FLAG_NOT_FOR_FORMAT', message: expect.stringContaining('--hidden-rows') });
    const h = await dryRun('team-members', 'team-members.csv', ['--header-row', '2']);
    expect(h.json().error).toMatchObject({ code: 'FLAG_NOT_FOR_FORMAT', message: expect.stringContaining('--header-row') });
    const bad = await dryRun('team-members', file, ['--hidden-rows', 'maybe']);
    expect(bad.json().error).toMatchObject({ code: 'BAD_FLAG', message: expect.stringContaining('--hidden-rows') });
  });
});

// LibreOffice's .ods and .xls twins of the xlsx above (made from it: fixtures/sources/make-workbooks.py).
// SheetJS reports an .xls's hidden sheets, rows and columns; an .ods's are read by the tool itself.
describe.each(['ods', 'xls'])('its .%s twin, saved by LibreOffice', (ext) => {
  const file = `team-members-hidden-workbook.${ext}`;

  it('reads the first visible sheet, names the hidden row and calls the column hidden', async () => {
    const r = await dryRun('team-members', file);
    expect(r.code).toBe(3);
    const issues = r.json().issues as { code: string; line: number | null; column: string | null; message: string }[];
    expect(issues.filter((i) => i.code === 'HIDDEN_ROWS').map((i) => [i.line, i.message.slice(0, 28)])).toEqual([[4, "row 4 is hidden in sheet 'St"]]);
    expect(issues.find((i) => i.column === 'Notes')?.message).toContain("column 'Notes' is hidden in the workbook");
    expect(JSON.stringify(r.json())).not.toContain('left@example.com');
    expect(issues.some((i) => i.code === 'OTHER_SHEETS')).toBe(false);
  });

  it('--hidden-rows exclude uploads the visible rows only (include is as for the xlsx)', async () => {
    const { run, stored } = await upload('team-members', file, ['--hidden-rows', 'exclude']);
    expect(run.code).toBe(0);
    expect(stored).toEqual(json('team-members-hidden-workbook.exclude.wire.json'));
  });

  it('reads the hidden sheet only when --sheet names it, and calls it hidden', async () => {
    const r = await dryRun('team-members', file, ['--sheet', 'Old staff']);
    expect(r.code).toBe(0);
    expect(r.json().issues).toEqual([expect.objectContaining({ code: 'HIDDEN_SHEET', message: expect.stringContaining("sheet 'Old staff' is hidden") })]);
  });
});

describe('a title row above the header, times and dates written with dots', () => {
  const file = 'store-cards-dotted-times-workbook.xlsx';

  it('a title row is named as one, with the --header-row to pass', async () => {
    const r = await dryRun('store-cards', file);
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({
      code: 'TITLE_ROW',
      message: expect.stringContaining("row 1 of sheet 'Stores' holds only 'Store list, November 2026'"),
      hint: expect.stringContaining('row 3 looks like it'),
    });
  });

  it('with --header-row, hh.mm, h.mm and [$-40B]h.mm cells upload as the times they are', async () => {
    // Monday and Tuesday only: the rest of the week is declared closed (MISSING_DAYS otherwise).
    const { run, stored } = await upload('store-cards', file, ['--header-row', '3', '--closed-days', 'We-Su']);
    expect(run.code).toBe(0);
    expect(stored).toEqual(json('store-cards-dotted-times-workbook.wire.json'));
  });

  it("Excel's locale time formats ([$-40B]h.mm;@, [$-40B]hh.mm;@, [$-409]h:mm AM/PM;@) upload as the times shown", async () => {
    // Written by openpyxl (scripts/locale-time-fixtures-python.py): Monday to Wednesday, the rest closed.
    const { run, stored } = await upload('store-cards', 'store-cards-locale-times-openpyxl.xlsx', ['--closed-days', 'Th-Su']);
    expect(run.code, run.stderr).toBe(0);
    expect(stored).toEqual(json('store-cards-locale-times-openpyxl.wire.json'));
  });

  it('a dd.mm.yyyy date cell reads as its date, not a serial number', async () => {
    const source = openRecords(fixture(file), { source: file, headerRow: 3 });
    const cells: unknown[][] = [];
    for await (const batch of source.batches) for (const r of batch) cells.push([...r.cells]);
    expect(cells).toEqual([['STORE-201', 'dots@example.com', '12', '09:30', '19:00', '08:00', '20:30', '23.11.2026']]);
  });

  it('--header-row on an empty row says so', async () => {
    const r = await dryRun('store-cards', file, ['--header-row', '2']);
    expect(r.code).toBe(2);
    expect(r.json().error.code).toBe('HEADER_ROW_EMPTY');
  });
});

describe('error cells and merged headers', () => {
  it('each error cell is ERROR_CELL naming the cell, never a value', async () => {
    const r = await dryRun('team-members', 'team-members-error-cells-workbook.xlsx');
    expect(r.code).toBe(3);
    const cells = (r.json().issues as { code: string; line: number; column: string; message: string }[]).filter((i) => i.code === 'ERROR_CELL');
    expect(cells.map((i) => [i.line, i.column, i.message.match(/cell (\w+) shows the error (\S+)/)?.slice(1)])).toEqual([
      [3, 'employeeID', ['A3', '#REF!']],
      [4, 'email', ['B4', '#N/A']],
      [5, 'name', ['C5', '#VALUE!']],
    ]);
    expect(r.json().records).toBe(4);
  });

  it('a merged two-row header gets workbook advice, not delimiter advice', async () => {
    const r = await dryRun('store-cards', 'store-cards-merged-header-workbook.xlsx');
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({ code: 'MERGED_HEADER', message: expect.stringContaining('(A1:B1)') });
    expect(r.json().error.hint).toContain('unmerge');
    expect(r.json().error.hint).not.toContain('delimiter');
  });
});

describe('a file is what its bytes are', () => {
  it('a CSV file named .xlsx gets the CSV checks', async () => {
    const t = tempDir();
    const file = t.write('stores.xlsx', 'nodeKey,email\n1.23457E+11,a@example.com\n');
    const r = await runCli(['store-cards', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    const codes = (r.json().issues as { code: string }[]).map((i) => i.code);
    expect(codes).toContain('SCIENTIFIC_NOTATION');
    expect(codes).toContain('FORMAT_FROM_CONTENT');
  });

  it('a workbook named .csv is read as the workbook it is', async () => {
    const t = tempDir();
    const file = t.write('staff.csv', readFileSync(fixture('team-members-hidden-workbook.xlsx')));
    const r = await runCli(['team-members', file, '--dry-run', '--json', '--hidden-rows', 'exclude']);
    expect(r.code).toBe(0);
    expect(r.json().records).toBe(3);
    expect((r.json().issues as { code: string }[]).map((i) => i.code)).toContain('FORMAT_FROM_CONTENT');
  });
});

describe('an .xlsb workbook (binary sheets, written here by SheetJS: LibreOffice cannot write .xlsb)', () => {
  it('names its hidden row, as SheetJS reports it', async () => {
    const XLSX = await import('@e965/xlsx');
    const ws = XLSX.utils.aoa_to_sheet([
      ['employeeID', 'email', 'name'],
      ['E1', 'a@example.com', 'A'],
      ['E2', 'b@example.com', 'B'],
    ]);
    ws['!rows'] = [{}, {}, { hidden: true }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Staff');
    const file = tempDir().write('staff.xlsb', XLSX.write(wb, { type: 'buffer', bookType: 'xlsb' }) as Buffer);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect((r.json().issues as { code: string; line: number }[]).filter((i) => i.code === 'HIDDEN_ROWS').map((i) => i.line)).toEqual([3]);
    const excluded = await runCli(['team-members', file, '--dry-run', '--json', '--hidden-rows', 'exclude']);
    expect(excluded.json()).toMatchObject({ exitCode: 0, records: 1 });
  });

  it('names the first ten hidden rows left out, then how many more', async () => {
    const XLSX = await import('@e965/xlsx');
    const rows = Array.from({ length: 30 }, (_, i) => [`E${i + 1}`, `e${i + 1}@example.com`, `N${i + 1}`]);
    const ws = XLSX.utils.aoa_to_sheet([['employeeID', 'email', 'name'], ...rows]);
    ws['!rows'] = [{}, ...rows.map((_, i) => (i % 2 ? { hidden: true } : {}))];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Staff');
    const file = tempDir().write('staff.xlsb', XLSX.write(wb, { type: 'buffer', bookType: 'xlsb' }) as Buffer);
    const r = await runCli(['team-members', file, '--dry-run', '--json', '--hidden-rows', 'exclude']);
    expect(r.json()).toMatchObject({ exitCode: 0, records: 15 });
    const note = (r.json().issues as { code: string; message: string }[]).find((i) => i.code === 'HIDDEN_ROWS_EXCLUDED');
    expect(note?.message).toBe(
      "15 hidden rows of sheet 'Staff' were left out, as --hidden-rows exclude asks (rows 3, 5, 7, 9, 11, 13, 15, 17, 19, 21 and 5 more)",
    );
  });
});

describe('formulas with no calculated value (a workbook written by a program, opened by nobody)', () => {
  // fixtures/store-cards-formulas-uncalculated.xlsx is written by scripts/formula-fixtures.mjs.
  it('are FORMULA_NOT_CALCULATED naming each cell and the fix, never empty cells or closed days; nothing is sent', async () => {
    const { run, stored } = await upload('store-cards', 'store-cards-formulas-uncalculated.xlsx');
    expect(run.code).toBe(3);
    expect(stored).toEqual([]);
    const issues = run.json().issues as { code: string; line: number; column: string; value: string; message: string }[];
    // 14 time cells in each of two stores, and the concept code of the third.
    expect(issues.filter((i) => i.code === 'FORMULA_NOT_CALCULATED')).toHaveLength(29);
    expect(issues.map((i) => i.code).filter((c) => c !== 'FORMULA_NOT_CALCULATED')).toEqual([]);
    expect(issues[0]).toMatchObject({ line: 2, column: 'Mon Open', value: '=TIME(9,0,0)' });
    expect(issues[0]!.message).toBe(
      "cell D2 of sheet 'Stores' holds the formula =TIME(9,0,0) but no calculated value (the workbook was written by a program and never calculated), so it would be read as empty; open the workbook in Excel or LibreOffice and save it (that calculates it), or paste the cells as values, then run again",
    );
    // The uncalculated =NA() is said as the formula it is, not as an error cell with no text.
    expect(issues.find((i) => i.line === 4)).toMatchObject({ code: 'FORMULA_NOT_CALCULATED', column: 'storeConceptCode', value: '=NA()' });
  });

  it('once LibreOffice has calculated and saved it, the times read as shown, and =NA() is the ERROR_CELL it shows', async () => {
    const { run, stored } = await upload('store-cards', 'store-cards-formulas-libreoffice.xlsx');
    expect(run.code).toBe(3);
    expect(stored).toEqual([]);
    expect(run.json().issues).toEqual([
      expect.objectContaining({ code: 'ERROR_CELL', line: 4, column: 'storeConceptCode', value: '#N/A' }),
      expect.objectContaining({ code: 'NOT_A_NUMBER', line: 4, column: 'storeConceptCode' }),
    ]);
    // The calculated times are read as the cells show them.
    const source = openRecords(fixture('store-cards-formulas-libreoffice.xlsx'), { source: 'lo.xlsx' });
    const cells: unknown[][] = [];
    for await (const batch of source.batches) for (const r of batch) cells.push([...r.cells]);
    expect(cells[0]).toEqual(['S1', 's1@example.com', '12', ...Array.from({ length: 6 }, () => ['09:00', '18:30']).flat(), '09:00', '14:00']);
  });
});

// Formulas saved with an empty cached value, as openpyxl writes every one (`<v></v>`, `<v/>`): never
// read as empty cells (a Monday sent closed, "email is required"), but FORMULA_NOT_CALCULATED naming
// the cell; and the hint's fix, opening and saving the workbook in LibreOffice, followed for real.
// The workbooks are written by scripts/formula-fixtures-python.py, with their LibreOffice twins.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { saveInLibreOffice } from '../helpers/libreoffice.js';
import { sandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

interface Issue {
  code: string;
  line: number;
  column: string;
  value: string;
  message: string;
  fixes?: unknown[];
}

const day = (since: number, to: number) => ({ since, to });
const week = (monday: { since: number; to: number }, other: { since: number; to: number }) => ({
  '0': other,
  '1': monday,
  '2': other,
  '3': other,
  '4': other,
  '5': other,
  '6': other,
});
/** What the store-card workbook means, once its formulas are calculated. */
const STORES = [
  { nodeKey: 'S1', email: 's1@example.com', storeConceptCode: 12, opentToGuestsPeriod: week(day(9, 17.5), day(9, 18)) },
  { nodeKey: 'S2', email: 's2@example.com', storeConceptCode: 12, opentToGuestsPeriod: week(day(10, 16), day(10, 16)) },
];
/** What the team-member workbook means: the formula's email, and a role code whose formula gives empty text. */
const MEMBERS = [
  { employeeID: 'E1001', email: 'jane.doe@example.com', name: 'Jane Doe', roleCode: null, parentKey: 'S1' },
  { employeeID: 'E1002', email: 'bob@example.com', name: 'Bob Berg', roleCode: '3', parentKey: 'S2' },
];

type Kind = 'store-cards' | 'team-members';

/** A real first upload of the workbook at `path` to a sandbox of its own: the run, and what the sandbox holds. */
async function uploadFile(kind: Kind, path: string) {
  const sb = await sandbox();
  try {
    const run = await runCli([kind, path, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    return { run, stored: await sb.stored(kind === 'store-cards' ? '/integrations/storeCards' : '/integrations/teamMembers') };
  } finally {
    await sb.stop();
  }
}

describe('a formula with an empty cached value (openpyxl) is FORMULA_NOT_CALCULATED, and nothing is sent', () => {
  it('store cards: Monday made by =TIME() formulas (<v/>) is named cell by cell, never a closed Monday', async () => {
    const { run, stored } = await uploadFile('store-cards', fixture('store-cards-formulas-openpyxl.xlsx'));
    expect(run.code).toBe(3);
    expect(stored).toEqual([]);
    const issues = run.json().issues as Issue[];
    expect(issues).toEqual([
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', severity: 'error', line: 2, column: 'Mon Open', value: '=TIME(9,0,0)' }),
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', severity: 'error', line: 2, column: 'Mon Close', value: '=TIME(17,30,0)' }),
    ]);
    expect(issues[0]!.message).toMatch(
      /^cell D2 of sheet 'Stores' holds the formula =TIME\(9,0,0\) but no calculated value .*open the workbook in Excel or LibreOffice and save it/,
    );
    // Opening and saving the workbook is no flag, cell or command: the fix is the words alone (no
    // `fixes`), and they are followed below, in LibreOffice.
    expect(issues.map((i) => i.fixes)).toEqual([undefined, undefined]);
    expect(run.json().error).toMatchObject({ code: 'INVALID_RECORDS' });
  });

  it('team members: an email made by a formula (<v></v>) is named, never "email is required"', async () => {
    const { run, stored } = await uploadFile('team-members', fixture('team-members-formulas-openpyxl.xlsx'));
    expect(run.code).toBe(3);
    expect(stored).toEqual([]);
    expect(run.json().issues).toEqual([
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', line: 2, column: 'email', value: '=LOWER("Jane.Doe@Example.com")' }),
      // openpyxl calculated nothing: even a formula that will give empty text is not known to yet.
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', line: 2, column: 'roleCode', value: '=IF(TRUE,"","3")' }),
    ]);
    expect((run.json().issues as Issue[])[0]!.message).toContain(
      `cell B2 of sheet 'Staff' holds the formula =LOWER("Jane.Doe@Example.com") but no calculated value`,
    );
  });
});

describe('an .ods formula with no result (odfpy: a table:formula and nothing else) is the same error', () => {
  it('team members: the email formula and the role-code formula are named, in OpenFormula as written', async () => {
    const { run, stored } = await uploadFile('team-members', fixture('team-members-formulas-odfpy.ods'));
    expect(run.code).toBe(3);
    expect(stored).toEqual([]);
    expect(run.json().issues).toEqual([
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', line: 2, column: 'email', value: '=LOWER("Jane.Doe@Example.com")' }),
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', line: 2, column: 'roleCode', value: '=IF(TRUE();"";"3")' }),
    ]);
  });
});

describe('a value no spreadsheet calculated (XlsxWriter: 0 in every formula, and "calculate on load") is the same error', () => {
  it('team members: the email and the role code, which read as written would be 0, are named with the value left', async () => {
    const { run, stored } = await uploadFile('team-members', fixture('team-members-formulas-xlsxwriter.xlsx'));
    expect(run.code).toBe(3);
    expect(stored).toEqual([]);
    const issues = run.json().issues as Issue[];
    expect(issues).toEqual([
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', line: 2, column: 'email', value: '=LOWER("Jane.Doe@Example.com")' }),
      expect.objectContaining({ code: 'FORMULA_NOT_CALCULATED', line: 2, column: 'roleCode', value: '=IF(TRUE,"","3")' }),
    ]);
    expect(issues[1]!.message).toBe(
      `cell D2 of sheet 'Staff' holds the formula =IF(TRUE,"","3") and the value '0', which the program that wrote the workbook left without calculating it (the workbook asks to be calculated when opened); open it in Excel and save it, or in LibreOffice recalculate it (Data ▸ Calculate ▸ Recalculate Hard) and save it, or paste the cells as values, then run again`,
    );
  });
});

describe('the fix the message gives, followed: open and save the workbook in LibreOffice', () => {
  it('soffice --headless --convert-to xlsx calculates both workbooks, which then upload what they mean', async () => {
    const { dir } = tempDir();
    const files = ['store-cards-formulas-openpyxl.xlsx', 'team-members-formulas-openpyxl.xlsx'].map((name) => {
      copyFileSync(fixture(name), join(dir, name));
      return join(dir, name);
    });
    saveInLibreOffice(files, join(dir, 'saved'), { to: 'xlsx' });
    const stores = await uploadFile('store-cards', join(dir, 'saved', 'store-cards-formulas-openpyxl.xlsx'));
    expect(stores.run.code, stores.run.stderr).toBe(0);
    expect(stores.run.json().issues).toEqual([]);
    expect(stores.stored).toEqual(STORES);
    const members = await uploadFile('team-members', join(dir, 'saved', 'team-members-formulas-openpyxl.xlsx'));
    expect(members.run.code, members.run.stderr).toBe(0);
    expect(members.run.json().issues).toEqual([]);
    expect(members.stored).toEqual(MEMBERS);
  }, 150_000);

  it('soffice --headless --convert-to ods calculates the .ods, which then uploads what it means', async () => {
    const { dir } = tempDir();
    copyFileSync(fixture('team-members-formulas-odfpy.ods'), join(dir, 'staff.ods'));
    saveInLibreOffice([join(dir, 'staff.ods')], join(dir, 'saved'), { to: 'ods' });
    const { run, stored } = await uploadFile('team-members', join(dir, 'saved', 'staff.ods'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().issues).toEqual([]);
    expect(stored).toEqual(MEMBERS);
  }, 150_000);

  it("XlsxWriter's workbook, recalculated in LibreOffice as the message says and saved, uploads what it means", async () => {
    const { dir } = tempDir();
    copyFileSync(fixture('team-members-formulas-xlsxwriter.xlsx'), join(dir, 'staff.xlsx'));
    saveInLibreOffice([join(dir, 'staff.xlsx')], join(dir, 'saved'), { to: 'xlsx', recalculate: true });
    const { run, stored } = await uploadFile('team-members', join(dir, 'saved', 'staff.xlsx'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().issues).toEqual([]);
    expect(stored).toEqual(MEMBERS);
  }, 150_000);

  it.each([
    ['store-cards', 'store-cards-formulas-openpyxl-libreoffice.xlsx', STORES],
    ['team-members', 'team-members-formulas-openpyxl-libreoffice.xlsx', MEMBERS],
    ['team-members', 'team-members-formulas-odfpy-libreoffice.ods', MEMBERS],
    ['team-members', 'team-members-formulas-xlsxwriter-libreoffice.xlsx', MEMBERS],
  ] as const)(
    'the committed LibreOffice twin %s %s reads the same: an empty text result (t="str" and <v></v>; <text:p/>) is calculated, and empty',
    async (kind, file, records) => {
      const { run, stored } = await uploadFile(kind, fixture(file));
      expect(run.code, run.stderr).toBe(0);
      expect(run.json().issues).toEqual([]);
      expect(stored).toEqual(records);
    },
  );
});

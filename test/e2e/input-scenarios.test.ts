// Real-world exports that used to upload wrong data with exit 0, each a fixture named by
// its scenario: through the real CLI (in-process) to a real sandbox, which must store exactly the
// fixture's wire JSON, or the run must stop with exactly the fixture's issues.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { FIXTURES, json, upload, uploadsExactly, refusesExactly, type Kind, type Refusal, type Upload } from '../helpers/scenarios.js';
import { tempDir } from '../helpers/tmp.js';

const UPLOADS: Upload[] = [
  { kind: 'store-cards', file: 'store-cards-dutch-day-columns.csv', wire: 'store-cards-dutch-day-columns.wire.json' },
  { kind: 'store-cards', file: 'store-cards-german-day-columns.csv', wire: 'store-cards-german-day-columns.wire.json' },
  { kind: 'store-cards', file: 'store-cards-french-day-columns.csv', wire: 'store-cards-french-day-columns.wire.json' },
  { kind: 'store-cards', file: 'store-cards-italian-day-columns.csv', wire: 'store-cards-italian-day-columns.wire.json' },
  // Monday to Friday only: the weekend is declared closed (MISSING_DAYS otherwise).
  {
    kind: 'store-cards',
    file: 'store-cards-comma-times.csv',
    wire: 'store-cards-comma-times.clock.wire.json',
    args: ['--time-format', 'clock', '--closed-days', 'Sa,Su'],
  },
  {
    kind: 'team-members',
    file: 'team-members-store-and-store-id.csv',
    wire: 'team-members-store-and-store-id.wire.json',
    args: ['--map', fixture('team-members-store-and-store-id.map.json')],
  },
  {
    kind: 'team-members',
    file: 'team-members-store-and-store-id.csv',
    wire: 'team-members-store-and-store-id.wire.json',
    args: ['--map', '{"parentKey": "Store ID"}', '--ignore-column', 'Store'],
  },
  {
    kind: 'team-members',
    file: 'team-members-first-last-name.csv',
    wire: 'team-members-first-last-name.wire.json',
    args: ['--map', fixture('team-members-first-last-name.map.json')],
  },
  { kind: 'team-members', file: 'team-members-blank-lines-sep.csv', wire: 'team-members-blank-lines-sep.wire.json' },
];

uploadsExactly(UPLOADS);

const REFUSALS: Refusal[] = [
  { kind: 'store-cards', file: 'store-cards-misspelt-weekday.csv', issues: 'store-cards-misspelt-weekday.issues.json' },
  { kind: 'store-cards', file: 'store-cards-comma-times.csv', issues: 'store-cards-comma-times.issues.json' },
  { kind: 'store-cards', file: 'store-cards-around-the-clock.csv', issues: 'store-cards-around-the-clock.issues.json' },
  { kind: 'store-cards', file: 'store-cards-ambiguous-weekday.csv', issues: 'store-cards-ambiguous-weekday.issues.json' },
  { kind: 'team-members', file: 'team-members-email-and-work-email.csv', issues: 'team-members-email-and-work-email.issues.json' },
  { kind: 'team-members', file: 'team-members-store-and-store-id.csv', issues: 'team-members-store-and-store-id.issues.json' },
];

refusesExactly('each ambiguous scenario stops with exit 3 and its issues, sending nothing', REFUSALS);

describe.concurrent('a file cut mid-row', () => {
  it('uploads with a warning that names the last record', async () => {
    const { run: r, stored } = await upload('team-members', 'team-members-cut-off.csv');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().issues).toEqual(json('team-members-cut-off.issues.json'));
    expect(stored).toEqual(json('team-members-cut-off.wire.json'));
  });
});

describe.concurrent('workbooks made by LibreOffice upload the same payload as their CSV twins', () => {
  it.each([
    { kind: 'store-cards', file: 'store-cards-hours-ranges-workbook.xlsx', wire: 'store-cards-hours-ranges.wire.json', args: [] },
    { kind: 'store-cards', file: 'store-cards-hours-ranges-workbook.ods', wire: 'store-cards-hours-ranges.wire.json', args: [] },
    { kind: 'store-cards', file: 'store-cards-hours-ranges-workbook.xls', wire: 'store-cards-hours-ranges.wire.json', args: [] },
    // Times stored as numbers, displayed as 09:30:00 AM.
    { kind: 'store-cards', file: 'store-cards-hours-pairs-workbook.xlsx', wire: 'store-cards-hours-pairs.wire.json', args: [] },
    // The ID column kept as text: 00042 stays 00042.
    {
      kind: 'team-members',
      file: 'team-members-first-last-name-workbook.xlsx',
      wire: 'team-members-first-last-name.wire.json',
      args: ['--map', fixture('team-members-first-last-name.map.json')],
    },
  ])('$file', async ({ kind, file, wire, args }) => {
    const { run: r, stored } = await upload(kind as Kind, file, args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().issues).toEqual([]);
    expect(stored).toEqual(json(wire));
  });

  it('--sheet picks a sheet by number or name; an unknown one is a usage error naming the sheets', async () => {
    const ok = await runCli(['store-cards', fixture('store-cards-hours-ranges-workbook.xlsx'), '--dry-run', '--json', '--sheet', '1']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().records).toBe(2);
    const bad = await runCli(['store-cards', fixture('store-cards-hours-ranges-workbook.xlsx'), '--dry-run', '--json', '--sheet', 'Stores']);
    expect(bad.code).toBe(2);
    expect(bad.json().error.code).toBe('SHEET_NOT_FOUND');
    // A sheet name is at most 31 characters: LibreOffice cut the file name to fit.
    expect(bad.json().error.message).toContain("its sheets are 'store-cards-hours-ranges-workbo'");
    const byName = await runCli([
      'store-cards',
      fixture('store-cards-hours-ranges-workbook.xlsx'),
      '--dry-run',
      '--json',
      '--sheet',
      'store-cards-hours-ranges-workbo',
    ]);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.json().records).toBe(2);
  });

  it('a workbook on standard input is read with --format xlsx', async () => {
    const r = await runCli(['store-cards', '-', '--dry-run', '--json', '--format', 'xlsx'], {
      input: readFileSync(join(FIXTURES, 'store-cards-hours-ranges-workbook.xlsx')),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ source: 'stdin', records: 2, issues: [] });
  });

  it('a workbook read as CSV says it is a workbook, not "not UTF-8"', async () => {
    const r = await runCli(['store-cards', fixture('store-cards-hours-ranges-workbook.xlsx'), '--dry-run', '--json', '--format', 'csv']);
    expect(r.code).toBe(3);
    expect(r.json().error.code).toBe('WRONG_FORMAT');
    expect(r.json().error.hint).toContain('--format xlsx');
  });
});

describe('a workbook with several sheets', () => {
  it('warns when other sheets hold data and no --sheet chose one', async () => {
    const XLSX = await import('@e965/xlsx');
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['employeeID', 'email', 'name'],
        ['E1', 'a@example.com', 'A'],
      ]),
      'Staff',
    );
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['old'], ['x']]), 'Archive');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([]), 'Empty');
    const file = tempDir().write('multi.xlsx', XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().issues).toEqual([
      expect.objectContaining({
        code: 'OTHER_SHEETS',
        severity: 'warning',
        message: expect.stringContaining("('Archive'); only the first visible one, 'Staff'"),
      }),
    ]);
    const chosen = await runCli(['team-members', file, '--dry-run', '--json', '--sheet', 'Staff']);
    expect(chosen.json().issues).toEqual([]);
  });
});

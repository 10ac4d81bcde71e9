// The export writers: every format reads back, through the same stages as any upload, to exactly the
// records it was written from — awkward values included — and no cell is one a spreadsheet would run.
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Kind } from '../../src/contract/kinds.js';
import { exportChunks, exportFormat, type ExportFormat } from '../../src/export/index.js';
import { writeExport } from '../../src/export/file.js';
import { headerOf, hoursCells } from '../../src/export/layout.js';
import { buildPlan } from '../../src/pipeline/plan.js';
import { tempDir } from '../helpers/tmp.js';

const STORES = [
  { nodeKey: 'S1', email: 'a@example.com', storeConceptCode: 12, opentToGuestsPeriod: { '1': { since: 9, to: 21 }, '5': { since: 18, to: 26 } } },
  // 06:00 to 06:00 next day, midnight, 09:20 (9.333333), every day closed
  { nodeKey: '=HYPERLINK("http://x", "click")', email: '+tag@example.com', storeConceptCode: -5, opentToGuestsPeriod: { '0': { since: 6, to: 30 } } },
  {
    nodeKey: 'S, "quoted"',
    email: '-x@example.com',
    storeConceptCode: null,
    opentToGuestsPeriod: { '2': { since: 18, to: 24 }, '3': { since: 9.333333, to: 17.75 } },
  },
  { nodeKey: '00123', email: 'björn@exämple.se', storeConceptCode: 0.30000000000000004, opentToGuestsPeriod: {} },
  { nodeKey: '@S5', email: 'e@example.com', storeConceptCode: 123456789012, opentToGuestsPeriod: { '6': { since: 23, to: 30 } } },
];
const MEMBERS = [
  { employeeID: '00123', email: 'jane@example.com', name: 'Jane Doe', roleCode: '3', parentKey: 'S1' },
  { employeeID: 'E2', email: 'x@example.com', name: "=cmd|' /C calc'!A0", roleCode: null, parentKey: null },
  { employeeID: '-E3', email: 'y@example.com', name: 'Line one\nline two, "quoted"', roleCode: '007', parentKey: '+1' },
  { employeeID: '@E4', email: 'z@example.com', name: 'Zoë Ünal', roleCode: '1.5', parentKey: '=S1' },
];

/** Records as the tool holds them: canonical wire JSON, by reading a JSON file through the stages. */
async function canonical(kind: Kind, records: readonly object[]): Promise<string[]> {
  const t = tempDir();
  const plan = await buildPlan({ kind, path: t.write('in.json', JSON.stringify(records)), read: { source: 'in.json' }, mapping: {} });
  expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
  return Array.from({ length: plan.bodies.length }, (_, i) => plan.bodies.json(i));
}

async function roundTrip(kind: Kind, bodies: readonly string[], format: ExportFormat): Promise<{ bodies: string[]; path: string; errors: unknown[] }> {
  const t = tempDir();
  const path = join(t.dir, `export.${format}`);
  await writeExport(path, await exportChunks(kind, bodies, format, true));
  const plan = await buildPlan({ kind, path, read: { source: path }, mapping: {} });
  return { bodies: Array.from({ length: plan.bodies.length }, (_, i) => plan.bodies.json(i)), path, errors: plan.issues.filter((i) => i.severity === 'error') };
}

describe('an export reads back to the identical records', () => {
  for (const format of ['csv', 'xlsx', 'json'] as const) {
    for (const [kind, records] of [
      ['store-cards', STORES],
      ['team-members', MEMBERS],
    ] as const) {
      it(`${kind} as ${format}`, async () => {
        const bodies = await canonical(kind, records);
        const back = await roundTrip(kind, bodies, format);
        expect(back.errors).toEqual([]);
        expect(back.bodies).toEqual(bodies);
      });
    }
  }

  it('for any opening hours in whole minutes within the contract (CSV and xlsx)', async () => {
    const minute = (min: number, max: number) => fc.integer({ min: min * 60, max: max * 60 }).map((m) => Math.round((m / 60) * 1e6) / 1e6);
    const day = fc.tuple(minute(6, 23), minute(8, 30)).filter(([s, t]) => s < t);
    const period = fc.dictionary(
      fc.constantFrom('0', '1', '2', '3', '4', '5', '6'),
      day.map(([since, to]) => ({ since, to })),
    );
    // Many weeks to a file, few files: each xlsx read starts a worker thread and SheetJS (about a tenth
    // of a second), and a failing week still shrinks to itself.
    await fc.assert(
      fc.asyncProperty(fc.array(period, { minLength: 1, maxLength: 40 }), async (periods) => {
        const records = periods.map((p, i) => ({ nodeKey: `S${i}`, email: `s${i}@example.com`, storeConceptCode: i, opentToGuestsPeriod: p }));
        const bodies = await canonical('store-cards', records);
        for (const format of ['csv', 'xlsx'] as const) expect((await roundTrip('store-cards', bodies, format)).bodies).toEqual(bodies);
      }),
      { numRuns: 5 },
    );
  });
});

describe('the layout', () => {
  it('is the template’s: its header and its hours', () => {
    expect(headerOf('store-cards').join(',')).toBe('nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat');
    expect(headerOf('team-members').join(',')).toBe('employeeID,email,name,roleCode,parentKey');
    expect(hoursCells({ '1': { since: 9, to: 21 }, '5': { since: 9, to: 23.5 }, '6': { since: 10, to: 26 } })).toEqual([
      'closed',
      '09:00-21:00',
      'closed',
      'closed',
      'closed',
      '09:00-23:30',
      '10:00-02:00',
    ]);
    // Opening and closing at 06:00 would read as a mistake: the wire's own 30:00 says "next day".
    expect(hoursCells({ '0': { since: 6, to: 30 } })[0]).toBe('06:00-30:00');
  });

  it('refuses a value no cell holds exactly, naming the record and the day, and points to JSON', async () => {
    const records = [
      JSON.stringify({ nodeKey: 'S9', email: 'a@example.com', storeConceptCode: null, opentToGuestsPeriod: { '2': { since: 9.1234, to: 20 } } }),
    ];
    const chunks = await exportChunks('store-cards', records, 'csv', false);
    expect(() => [...chunks]).toThrow(expect.objectContaining({ code: 'EXPORT_INEXACT', message: expect.stringContaining('S9') }));
    const json = [...(await exportChunks('store-cards', records, 'json', false))].join('');
    expect(JSON.parse(json)).toEqual([JSON.parse(records[0]!)]);
  });
});

describe('formula safety', () => {
  it('CSV: no cell starts like a formula, and the values are unchanged but for one leading space', async () => {
    const bodies = await canonical('team-members', MEMBERS);
    const text = [...(await exportChunks('team-members', bodies, 'csv', true))].join('');
    expect(text.startsWith('\uFEFFemployeeID,')).toBe(true);
    const rows: string[][] = parse(text.slice(1));
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows[2]![2]).toBe(" =cmd|' /C calc'!A0");
    expect(text.split('\r\n').length).toBe(6); // header, four records (one with a line break inside quotes), end
  });

  it('xlsx: every text is a text cell, none a formula', async () => {
    const XLSX = await import('@e965/xlsx');
    const bodies = await canonical('store-cards', STORES);
    const { path } = await roundTrip('store-cards', bodies, 'xlsx');
    const sheet = XLSX.read(readFileSync(path), { cellFormula: true }).Sheets['store-cards']!;
    const cells = Object.entries(sheet).filter(([k]) => !k.startsWith('!'));
    expect(cells.some(([, c]) => (c as { f?: string }).f !== undefined)).toBe(false);
    expect(sheet.A3).toMatchObject({ t: 's', v: '=HYPERLINK("http://x", "click")' });
    expect(sheet.A5).toMatchObject({ t: 's', v: '00123' });
    expect(sheet.C2).toMatchObject({ t: 'n', v: 12 });
  });
});

describe('the file', () => {
  it('is 0600, or 0660 in a folder its group may write to; a symlink is replaced, never followed', async () => {
    const t = tempDir();
    const body = await exportChunks('team-members', await canonical('team-members', MEMBERS), 'csv', true);
    const own = join(t.dir, 'own.csv');
    expect(await writeExport(own, body)).toBe(0o600);
    expect(statSync(own).mode & 0o777).toBe(0o600);
    const shared = join(t.dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o2770);
    const inShared = join(shared, 'staff.csv');
    expect(await writeExport(inShared, ['x'])).toBe(0o660);
    expect(statSync(inShared).mode & 0o777).toBe(0o660);
    // A folder the group can only read (what a umask of 022 makes of every folder) is not shared.
    const readable = join(t.dir, 'home');
    mkdirSync(readable);
    chmodSync(readable, 0o755);
    expect(await writeExport(join(readable, 'staff.csv'), ['x'])).toBe(0o600);
    expect(statSync(join(readable, 'staff.csv')).mode & 0o777).toBe(0o600);

    const victim = t.write('victim.txt', 'keep me');
    const link = join(t.dir, 'link.csv');
    symlinkSync(victim, link);
    await writeExport(link, ['export']);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(link).isFile()).toBe(true);
  });

  it('refuses a directory, and a folder that does not exist', async () => {
    const t = tempDir();
    await expect(writeExport(t.dir, ['x'])).rejects.toMatchObject({ code: 'OUTPUT_UNWRITABLE', message: expect.stringContaining('directory') });
    await expect(writeExport(join(t.dir, 'no', 'x.csv'), ['x'])).rejects.toMatchObject({ code: 'OUTPUT_UNWRITABLE' });
  });
});

describe('the format', () => {
  it('follows --format, else --output’s extension, else CSV', () => {
    expect(exportFormat(undefined, undefined)).toBe('csv');
    expect(exportFormat(undefined, 'a.XLSX')).toBe('xlsx');
    expect(exportFormat(undefined, 'a.json')).toBe('json');
    expect(exportFormat(undefined, 'a.txt')).toBe('csv');
    expect(exportFormat('json', 'a.csv')).toBe('json');
    expect(() => exportFormat(undefined, 'a.xls')).toThrow(expect.objectContaining({ code: 'BAD_FLAG' }));
  });
});

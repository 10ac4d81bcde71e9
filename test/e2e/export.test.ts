// `upload export` end to end: the recorded set out of the store, as CSV, xlsx and JSON, uploaded back
// unchanged through the real CLI against the real sandbox — a diff of =N and nothing else.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const STORES = [
  'nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat',
  'S1,s1@example.com,12,closed,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-23:30,10:00-02:00',
  ' =S2 ,+s2@example.com,,06:00-30:00,9:20-17:45,closed,closed,closed,closed,18:00-24:00',
  '"S3, the big one",s3@example.com,-4,closed,closed,closed,closed,closed,closed,closed',
].join('\n');

describe('upload export', () => {
  for (const backend of ['directory', 'postgres'] as const) {
    it(`round-trips the recorded set exactly in CSV, xlsx and JSON (${backend} state)`, async () => {
      sb = await sandbox();
      const state = backend === 'directory' ? sb.stateDir : await freshDatabase();
      const run = (args: string[]) => runCli([...args, '--state', state], { env: sb!.env });
      const first = join(sb.dir, 'stores.csv');
      writeFileSync(first, `${STORES}\n`);
      expect((await run(['store-cards', first, '--yes', '--no-baseline', '--json'])).code).toBe(0);
      const stored = await sb.stored('/integrations/storeCards');

      const stdout = await run(['export', 'store-cards']);
      expect(stdout.code).toBe(0);
      expect(stdout.stdout.split('\r\n')[0]).toBe('nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat');
      expect(stdout.stderr).toContain('Exported 3 store cards of upload #1');
      const piped = join(sb.dir, 'piped.csv');
      writeFileSync(piped, stdout.stdout);

      for (const file of [piped, join(sb.dir, 'stores-export.csv'), join(sb.dir, 'stores.xlsx'), join(sb.dir, 'stores.json')]) {
        if (file !== piped) {
          const r = await run(['export', 'store-cards', '--output', file]);
          expect(r.code, r.stderr).toBe(0);
          expect(statSync(file).mode & 0o777).toBe(0o600);
        }
        const again = await run(['store-cards', file, '--yes', '--json']);
        expect(again.code, again.stderr).toBe(0);
        expect(again.json()).toMatchObject({ unchanged: true, diff: { added: 0, removed: 0, changed: 0, unchanged: 3 } });
        expect(await sb.stored('/integrations/storeCards')).toEqual(stored);
      }
      // Each re-upload was recorded; an earlier one is exported with --generation.
      const json = await run(['export', 'store-cards', '--generation', '1', '--format', 'json']);
      expect(JSON.parse(json.stdout)).toEqual(stored);
    });
  }

  it('a workbook export keeps keys as Text: 000140 round-trips, and the key columns are Text for rows typed below', async () => {
    sb = await sandbox();
    const run = (args: string[]) => runCli([...args, '--state', sb!.stateDir], { env: sb!.env });
    const staff = join(sb.dir, 'staff.csv');
    writeFileSync(staff, 'employeeID,email,name,roleCode,parentKey\n000140,a@example.com,Ann,3,0042\n000141,b@example.com,Bob,,0042\n');
    expect((await run(['team-members', staff, '--yes', '--no-baseline'])).code).toBe(0);
    const book = join(sb.dir, 'staff.xlsx');
    expect((await run(['export', 'team-members', book])).code).toBe(0);

    // Untouched, it uploads back as no change at all.
    const again = await run(['team-members', book, '--dry-run', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ diff: { added: 0, removed: 0, changed: 0, unchanged: 2 } });

    // The key cells, and the key columns themselves (what a typed cell below takes), are Text (@, format 49).
    const XLSX = await import('@e965/xlsx');
    const parts = XLSX.CFB.read(readFileSync(book), { type: 'buffer' });
    const part = (path: string) => Buffer.from(XLSX.CFB.find(parts, `/${path}`)!.content).toString('utf8');
    const xfs = [.../<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(part('xl/styles.xml'))![1]!.matchAll(/<xf\b[^>]*>/g)].map((m) => m[0]);
    const numFmt = (style: string | undefined) => /numFmtId="(\d+)"/.exec(xfs[Number(style ?? 0)]!)![1];
    const sheet = part('xl/worksheets/sheet1.xml');
    const colStyle = (n: number) => new RegExp(`<col min="${n}" max="${n}"[^>]*style="(\\d+)"`).exec(sheet)?.[1];
    const cellStyle = (ref: string) => new RegExp(`<c r="${ref}"[^>]*s="(\\d+)"`).exec(sheet)?.[1];
    expect([colStyle(1), colStyle(5)].map(numFmt)).toEqual(['49', '49']); // employeeID, parentKey
    expect(colStyle(3)).toBeUndefined(); // name: General, as before
    expect(['A2', 'A3', 'E2', 'E3'].map((ref) => numFmt(cellStyle(ref)))).toEqual(['49', '49', '49', '49']);
    const read = XLSX.read(readFileSync(book), { cellNF: true });
    expect(read.Sheets[read.SheetNames[0]!]!['A2']).toMatchObject({ t: 's', v: '000140', z: '@' });
  });

  it('says what is missing: no recorded upload, a workbook to the terminal, a snapshot no longer kept', async () => {
    sb = await sandbox();
    const run = (args: string[]) => runCli([...args, '--state', sb!.stateDir], { env: sb!.env });
    let r = await run(['export', 'team-members']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to export');
    writeFileSync(join(sb.dir, 'a.csv'), 'employeeID,email,name\nE1,e1@example.com,One\n');
    expect((await run(['team-members', join(sb.dir, 'a.csv'), '--yes', '--no-baseline'])).code).toBe(0);
    r = await run(['export', 'team-members', '--format', 'xlsx']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output team-members.xlsx');
    r = await run(['export', 'team-members', '--generation', '7']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('#7 is not among the snapshots kept');
    r = await run(['export', 'team-members', '--output', join(sb.dir, 'x.ods')]);
    expect(r.code).toBe(2);
    expect(readFileSync(join(sb.dir, 'a.csv'), 'utf8')).toContain('E1');
    r = await run(['export', 'team-members', join(sb.dir, 'one.csv'), '--output', join(sb.dir, 'two.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('two files to export to');
  });

  it('takes the file as an argument too, as an upload does: upload export team-members staff.csv', async () => {
    sb = await sandbox();
    const run = (args: string[]) => runCli([...args, '--state', sb!.stateDir], { env: sb!.env });
    writeFileSync(join(sb.dir, 'a.csv'), 'employeeID,email,name\nE1,e1@example.com,One\n');
    expect((await run(['team-members', join(sb.dir, 'a.csv'), '--yes', '--no-baseline'])).code).toBe(0);
    const file = join(sb.dir, 'staff.csv');
    const r = await run(['export', 'team-members', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`to ${file} (mode 0600) as CSV`);
    expect(readFileSync(file, 'utf8')).toContain('E1,e1@example.com,One');
    expect((await run(['team-members', file, '--dry-run', '--json'])).json().diff).toMatchObject({ unchanged: 1, added: 0, removed: 0, changed: 0 });
  });
});

// Store hours out in the listings' standards, end to end: the real CLI exports the week the sandbox
// holds as OpenStreetMap opening_hours, schema.org JSON-LD and Google Business Profile's hours
// columns; each reads back to the identical week. The OpenStreetMap file uploads back as no change;
// the other two hold only what their standard does (no concept code, GBP no email), so uploading
// one back is refused with nothing sent, never a set with those fields emptied.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import OpeningHours from 'opening_hours';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fix } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';
import { followFix } from '../helpers/follow-fix.js';
import { gbpWeek, schemaOrgWeek, type Period } from '../helpers/listings.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

interface Card {
  nodeKey: string;
  opentToGuestsPeriod: Period;
}

// Nights past midnight (Friday and Saturday to 02:00, Sunday's into Monday), the service's whole day
// (06:00-30:00), half and quarter hours, a week closed every day.
const STORES = [
  'nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat',
  'S1,s1@example.com,12,closed,09:00-21:00,09:00-21:00,09:00-21:00,closed,18:00-02:00,18:00-02:00',
  'S2,s2@example.com,,22:00-04:00,09:00-17:00,closed,06:00-30:00,08:30-17:15,closed,closed',
  'S3,s3@example.com,-4,closed,closed,closed,closed,closed,closed,closed',
].join('\n');

let sb: TestSandbox;
let stored: Card[];
const run = (args: string[]) => runCli([...args, '--state', sb.stateDir], { env: sb.env });

beforeAll(async () => {
  sb = await sandbox();
  const file = join(sb.dir, 'stores.csv');
  writeFileSync(file, `${STORES}\n`);
  const r = await run(['store-cards', file, '--yes', '--no-baseline', '--json']);
  expect(r.code, r.stderr).toBe(0);
  stored = (await sb.stored('/integrations/storeCards')) as Card[];
});
afterAll(() => sb?.stop());

const weekOf = (key: string) => stored.find((c) => c.nodeKey === key)!.opentToGuestsPeriod;

/** The open minutes from Monday 00:00 of one week, by the opening_hours package or from the wire week. */
function reference(value: string): number[][] {
  const from = new Date(2012, 9, 8);
  return new OpeningHours(value, null, 0)
    .getOpenIntervals(from, new Date(2012, 9, 15))
    .map(([a, b]) => [(a.getTime() - from.getTime()) / 60000, (b.getTime() - from.getTime()) / 60000]);
}
function minutes(period: Period): number[][] {
  const out: number[][] = [];
  for (const [day, { since, to }] of Object.entries(period)) {
    const [a, b] = [((Number(day) + 6) % 7) * 1440 + since * 60, ((Number(day) + 6) % 7) * 1440 + to * 60];
    if (b <= 10080) out.push([a, b]);
    else out.push([a, 10080], [0, b - 10080]);
  }
  return out.sort((x, y) => x[0]! - y[0]!);
}

describe('upload export store-cards --format osm|schema-org|gbp', () => {
  it('osm: opening_hours the reference reads as the recorded week; the file uploads back unchanged', async () => {
    const file = join(sb.dir, 'stores-osm.csv');
    const r = await run(['export', 'store-cards', '--format', 'osm', '--output', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("as OpenStreetMap's opening_hours");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const rows: Record<string, string>[] = parse(readFileSync(file, 'utf8'), { bom: true, columns: true });
    expect(rows.map((row) => [row.nodeKey, row.opening_hours])).toEqual([
      ['S1', 'Mo-We 09:00-21:00, Fr,Sa 18:00-02:00'],
      ['S2', 'Mo 09:00-17:00, We 06:00-30:00, Th 08:30-17:15, Su 22:00-04:00'],
      ['S3', 'Mo-Su off'],
    ]);
    for (const row of rows) expect(reference(row.opening_hours!), row.opening_hours).toEqual(minutes(weekOf(row.nodeKey!)));

    const again = await run(['store-cards', file, '--yes', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ unchanged: true, diff: { added: 0, removed: 0, changed: 0, unchanged: 3 } });
    expect(await sb.stored('/integrations/storeCards')).toEqual(stored);
  });

  it('schema-org: JSON-LD Stores whose OpeningHoursSpecification is the recorded week', async () => {
    const r = await run(['export', 'store-cards', '--format', 'schema-org']);
    expect(r.code, r.stderr).toBe(0);
    const stores = JSON.parse(r.stdout) as { '@context': string; '@type': string; branchCode: string; openingHoursSpecification: unknown }[];
    expect(stores.map((s) => [s['@context'], s['@type'], s.branchCode])).toEqual(['S1', 'S2', 'S3'].map((k) => ['https://schema.org', 'Store', k]));
    for (const store of stores) expect(schemaOrgWeek(store.openingHoursSpecification as Parameters<typeof schemaOrgWeek>[0])).toEqual(weekOf(store.branchCode));

    // It holds no concept codes: uploaded back it is refused (whichever column is named first), nothing sent.
    const file = join(sb.dir, 'stores.json');
    writeFileSync(file, r.stdout);
    const back = await run(['store-cards', file, '--yes', '--json']);
    expect(back.code).toBe(3);
    expect(await sb.stored('/integrations/storeCards')).toEqual(stored);
  });

  it("gbp: the bulk sheet's Store code and day hours columns, the recorded week", async () => {
    const file = join(sb.dir, 'gbp.csv');
    const r = await run(['export', 'store-cards', '--format', 'gbp', '--output', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const rows: string[][] = parse(readFileSync(file, 'utf8'), { bom: true });
    expect(rows).toEqual([
      ['Store code', 'Sunday hours', 'Monday hours', 'Tuesday hours', 'Wednesday hours', 'Thursday hours', 'Friday hours', 'Saturday hours'],
      ['S1', 'x', '09:00-21:00', '09:00-21:00', '09:00-21:00', 'x', '18:00-02:00', '18:00-02:00'],
      ['S2', '22:00-04:00', '09:00-17:00', 'x', '00:00-24:00', '08:30-17:15', 'x', 'x'],
      ['S3', 'x', 'x', 'x', 'x', 'x', 'x', 'x'],
    ]);
    for (const [key, ...cells] of rows.slice(1)) expect(gbpWeek(cells), key).toEqual(weekOf(key!));
    // The sheet has no email column: uploaded back it is refused, nothing sent.
    const back = await run(['store-cards', file, '--yes', '--json']);
    expect(back.code).toBe(3);
    expect(await sb.stored('/integrations/storeCards')).toEqual(stored);
  });

  it('an earlier upload with --generation', async () => {
    const file = join(sb.dir, 'later.csv');
    writeFileSync(file, `${STORES.replace('S1,s1@example.com,12,closed', 'S1,s1@example.com,12,10:00-16:00')}\n`);
    expect((await run(['store-cards', file, '--yes'])).code).toBe(0);
    const latest = await run(['export', 'store-cards', '--format', 'osm']);
    expect(latest.stdout).toContain('Su 10:00-16:00');
    const first = await run(['export', 'store-cards', '--format', 'osm', '--generation', '1']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('S1,s1@example.com,12,"Mo-We 09:00-21:00, Fr,Sa 18:00-02:00"');
  });

  it('team members have no hours: --format osm is a usage error whose fix exports them as CSV', async () => {
    const staff = join(sb.dir, 'staff.csv');
    writeFileSync(staff, 'employeeID,email,name,roleCode,parentKey\nE1,a@example.com,Ann,3,S1\n');
    expect((await run(['team-members', staff, '--yes', '--no-baseline'])).code).toBe(0);
    const argv = ['export', 'team-members', '--format', 'osm', '--output', join(sb.dir, 'staff-out.csv'), '--json'];
    const r = await run(argv);
    expect(r.code).toBe(2);
    const error = r.json<{ error: { code: string; message: string; fixes: Fix[] } }>().error;
    expect(error.code).toBe('BAD_FLAG');
    expect(error.message).toContain('--format osm writes opening hours, which only store cards have');
    expect(error.fixes).toEqual([{ kind: 'flags', args: ['--format', 'csv'] }]);

    const followed = await run(followFix(argv, error.fixes[0]!));
    expect(followed.code, followed.stderr).toBe(0);
    expect(readFileSync(join(sb.dir, 'staff-out.csv'), 'utf8')).toBe('\uFEFFemployeeID,email,name,roleCode,parentKey\r\nE1,a@example.com,Ann,3,S1\r\n');
  });
});

// Issue 41, deliverable 4: the layouts real exports use. Toast's one row per store per day, two
// columns for one day (`Monday Lunch`, `Monday Dinner`, or a list in --map), Yext's legacy `Hours`,
// Lightspeed's `Store Hours` week text and the Google Business Profile bulk sheet's `Monday hours`.
// Each fixture runs through the real CLI against one real sandbox, which must hold exactly the store
// cards the person means, or the run stops naming the rows or cells and sends nothing; each fix a
// refusal offers is followed.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { fixesOf, followFix } from '../helpers/follow-fix.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { xlsx } from '../helpers/zip.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.stop();
});

const stored = () => sb.stored('/integrations/storeCards');
// Each run a state of its own: every scenario is a first upload, not a replacement the guards weigh.
let runs = 0;
const argv = (file: string, args: readonly string[] = []) => [
  'store-cards',
  file,
  '--yes',
  '--no-baseline',
  '--json',
  '--state',
  join(sb.dir, `state-${++runs}`),
  ...args,
];
const run = (args: readonly string[]) => runCli(args, { env: sb.env });

/** A week in wire terms from `[day, since, to]` triples. */
const week = (...days: [number, number, number][]) => Object.fromEntries(days.map(([d, since, to]) => [String(d), { since, to }]));
const card = (nodeKey: string, email: string, period: Record<string, unknown>) => ({ nodeKey, email, storeConceptCode: null, opentToGuestsPeriod: period });

/** The run stops with exit 3, the service unchanged; its issues are returned. */
async function refused(args: readonly string[]) {
  const before = await stored();
  const r = await run(args);
  expect(r.code, r.stderr).toBe(3);
  expect(await stored()).toEqual(before);
  return r;
}

/** The run uploads with no issue, and the service then holds exactly `cards`. */
async function uploads(args: readonly string[], cards: unknown[]) {
  const r = await run(args);
  expect(r.code, r.stderr).toBe(0);
  expect(r.json().issues).toEqual([]);
  expect(await stored()).toEqual(cards);
}

const TOAST_CARDS = [
  card('TST-10', 'uptown@example.com', week([1, 11, 22], [2, 11, 22], [3, 11, 22], [4, 11, 22], [5, 11, 23.5], [6, 10, 25])),
  card('TST-20', 'lakeside@example.com', week([0, 8, 14], [1, 7, 15], [2, 7, 15], [3, 7, 15], [4, 7, 15], [5, 7, 15], [6, 8, 14])),
];

describe('one row per store per day (Toast)', () => {
  it('the rows of each location are one store card: its days from its rows, an empty day closed', async () => {
    await uploads(argv(fixture('store-cards-toast-day-rows.csv'), ['--ignore-column', 'Location Name']), TOAST_CARDS);
  });

  it('a day column with one range column (Day of Week, Hours) is read the same way', async () => {
    // No row of the file names Wednesday to Friday: sent closed for every store only once the person says so.
    const asked = await refused(argv(fixture('store-cards-day-rows-range.csv')));
    const missing = (asked.json().issues as { code: string; message: string; fixes?: { kind: string; args: string[] }[] }[]).find(
      (i) => i.code === 'MISSING_DAYS',
    )!;
    expect(missing.message).toContain('no row of the file names Wednesday to Friday');
    expect(missing.fixes).toEqual([{ kind: 'flags', args: ['--closed-days', 'We,Th,Fr'] }]);
    await uploads(argv(fixture('store-cards-day-rows-range.csv'), missing.fixes![0]!.args), [
      card('ST-1', 'one@example.com', week([1, 9, 17], [2, 9, 17], [6, 10, 14])),
      card('ST-2', 'two@example.com', week([1, 8, 20])),
    ]);
  });

  it('rows that disagree are refused naming the rows, never chosen or deleted as duplicates; two rows for one day are SPLIT_HOURS', async () => {
    const args = argv(fixture('store-cards-toast-day-rows-disagree.csv'), ['--ignore-column', 'Location Name', '--closed-days', 'Th,Fr,Sa']);
    const r = await refused(args);
    const issues = r.json().issues as { code: string; line: number; column: string | null; message: string }[];
    expect(issues.map((i) => i.code)).toEqual(['DAY_ROWS_DISAGREE', 'DAY_ROWS_DISAGREE', 'SPLIT_HOURS']);
    expect(issues.some((i) => i.code === 'DUPLICATE_KEY')).toBe(false);
    expect(issues[0]).toMatchObject({ line: 4, column: 'Email' });
    expect(issues[0]!.message).toContain(`"uptown@example.com" on lines 2, 3, 5, 6, "uptown-old@example.com" on line 4`);
    expect(issues[1]!.message).toBe("store 'TST-10' has Sunday closed on line 5 but open on line 6; keep the rows that are right");
    expect(issues[2]!.message).toContain('07:00-11:00 and 12:00-15:00');
    expect(issues[2]!.message).toContain('(lines 7, 8)');

    // The one fix offered (--split-hours span) settles Monday; the rows that disagree still stop the run.
    const fixes = fixesOf(r.json());
    expect(fixes).toEqual([{ kind: 'flags', args: ['--split-hours', 'span'] }]);
    const again = await refused(followFix(args, fixes[0]!));
    expect((again.json().issues as { code: string }[]).map((i) => i.code)).toEqual(['DAY_ROWS_DISAGREE', 'DAY_ROWS_DISAGREE']);

    // With the rows made to agree, the same fix sends Monday as first opening to last closing.
    const file = join(sb.dir, 'toast-agreeing.csv');
    const lines = readFileSync(fixture('store-cards-toast-day-rows-disagree.csv'), 'utf8').split('\n');
    writeFileSync(
      file,
      lines
        .filter((_, i) => i !== 4)
        .join('\n')
        .replace('uptown-old@', 'uptown@'),
    );
    await uploads(followFix(argv(file, ['--ignore-column', 'Location Name', '--closed-days', 'Th,Fr,Sa']), fixes[0]!), [
      card('TST-10', 'uptown@example.com', week([0, 12, 21], [1, 11, 22], [2, 11, 22], [3, 11, 22])),
      card('TST-20', 'lakeside@example.com', week([1, 7, 15])),
    ]);
  });

  it('--errors-csv writes every row of a refused store, so fixing that file loses no day', async () => {
    const out = join(sb.dir, 'rejected.csv');
    await refused(
      argv(fixture('store-cards-toast-day-rows-disagree.csv'), ['--ignore-column', 'Location Name', '--closed-days', 'Th,Fr,Sa', '--errors-csv', out]),
    );
    const rows = readFileSync(out, 'utf8').trim().split(/\r?\n/).slice(1);
    expect(rows.map((r) => r.split(',').slice(0, 4).join(','))).toEqual([
      'TST-10,Uptown,uptown@example.com,Monday',
      'TST-10,Uptown,uptown@example.com,Tuesday',
      'TST-10,Uptown,uptown-old@example.com,Wednesday',
      'TST-10,Uptown,uptown@example.com,Sunday',
      'TST-10,Uptown,uptown@example.com,Sunday',
      'TST-20,Lakeside,lakeside@example.com,Monday',
      'TST-20,Lakeside,lakeside@example.com,Monday',
    ]);
  });

  it('a row whose day is not a weekday names its cell', async () => {
    const file = join(sb.dir, 'toast-bad-day.csv');
    copyFileSync(fixture('store-cards-toast-day-rows.csv'), file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('TST-20,Lakeside,lakeside@example.com,Sunday', 'TST-20,Lakeside,lakeside@example.com,Holiday'));
    const r = await refused(argv(file, ['--ignore-column', 'Location Name']));
    expect(r.json().issues).toMatchObject([
      { code: 'INVALID_HOURS', line: 15, column: 'Day', message: "'Holiday' is not a weekday; write a day name such as Monday or Mon" },
    ]);
  });
});

describe('two columns for one day', () => {
  it('Monday Lunch and Monday Dinner are one day with two periods: SPLIT_HOURS, and its fix sends the span', async () => {
    const args = argv(fixture('store-cards-toast-services.csv'));
    const r = await refused(args);
    const issues = r.json().issues as { code: string; column: string }[];
    expect(issues.map((i) => [i.code, i.column])).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'].map((d) => ['SPLIT_HOURS', `${d} Lunch`]));
    const [fix] = fixesOf(r.json());
    expect(fix).toEqual({ kind: 'flags', args: ['--split-hours', 'span'] });
    // Saturday has only a dinner, Sunday only a lunch: each is that one period.
    await uploads(followFix(args, fix!), [
      card('TST-1', 'bistro@example.com', week([0, 11, 15], [1, 11, 22], [2, 11, 22], [3, 11, 22], [4, 11, 22], [5, 11, 23], [6, 17, 23])),
    ]);
  });

  it('--map gives a day a list of columns, one per period, as MISSING_DAYS says to', async () => {
    const unmapped = await refused(argv(fixture('store-cards-services-mapped.csv')));
    const missing = (unmapped.json().issues as { code: string; message: string }[]).find((i) => i.code === 'MISSING_DAYS')!;
    const map = '{"opentToGuestsPeriod":{"Mo":["Mo Mittagstisch","Mo Abendkarte"]}}';
    expect(missing.message).toContain(`name them with --map '${map}' (each column one period of Monday, in order)`);
    // The line as printed, then --split-hours span as the next refusal offers.
    const printed = await refused(argv(fixture('store-cards-services-mapped.csv'), ['--map', map]));
    expect(printed.json().issues).toMatchObject([{ code: 'SPLIT_HOURS' }]);
    const args = argv(fixture('store-cards-services-mapped.csv'), ['--map', '{"opentToGuestsPeriod": {"Mo": ["Mo Mittagstisch", "Mo Abendkarte"]}}']);
    const r = await refused(args);
    expect(r.json().issues).toMatchObject([{ code: 'SPLIT_HOURS', column: 'Mo Mittagstisch', field: 'opentToGuestsPeriod.1' }]);
    const [fix] = fixesOf(r.json());
    await uploads(followFix(args, fix!), [
      card('HB-7', 'hamburg@example.de', week([1, 11.5, 22], [2, 11.5, 22], [3, 11.5, 22], [4, 11.5, 22], [5, 11.5, 22], [6, 11.5, 22])),
    ]);
  });
});

describe('week formats of listing and point-of-sale exports', () => {
  it("Yext's legacy Hours (day 1 is Sunday; a day listed twice has two periods; past midnight)", async () => {
    const args = argv(fixture('store-cards-yext-hours.csv'), ['--ignore-column', 'Location Name']);
    const r = await refused(args);
    expect(r.json().issues).toMatchObject([{ code: 'SPLIT_HOURS', line: 3, column: 'Hours', field: 'opentToGuestsPeriod.1' }]);
    const [fix] = fixesOf(r.json());
    await uploads(followFix(args, fix!), [
      card('YX-1', 'main@example.com', week([1, 9, 17], [2, 9, 17], [3, 9, 17], [4, 9, 17], [5, 9, 19.5], [6, 10, 16])),
      card('YX-2', 'riverside@example.com', week([0, 12, 17], [1, 8, 18], [2, 8, 18], [3, 8, 18], [4, 8, 18], [5, 8, 18])),
      card('YX-3', 'owl@example.com', week([4, 18, 26], [5, 18, 27], [6, 18, 27])),
    ]);
  });

  it("Yext's open 24 hours is refused with the cell to write, the service's widest day, and following it sends 06:00-06:00", async () => {
    const file = join(sb.dir, 'yext-24h.csv');
    writeFileSync(file, 'Store ID,Email,Hours\nYX-9,allday@example.com,"1:00:00:00:00,2:00:00:00:00,3:9:00:17:00"\n');
    const args = argv(file);
    const r = await refused(args);
    expect((r.json().issues as { code: string }[]).map((i) => i.code)).toEqual(['INVALID_HOURS', 'INVALID_HOURS']);
    const fixes = fixesOf(r.json());
    expect(fixes[0]).toEqual({ kind: 'cell', line: 2, column: 'Hours', text: '1:6:00:30:00,2:6:00:30:00,3:9:00:17:00' });
    await uploads(followFix(args, fixes[0]!, { file }), [card('YX-9', 'allday@example.com', week([0, 6, 30], [1, 6, 30], [2, 9, 17]))]);
  });

  it("Lightspeed's Store Hours column holds Google's week and is read with no --map", async () => {
    const weekdays = (since: number, to: number) => [1, 2, 3, 4, 5].map((d): [number, number, number] => [d, since, to]);
    await uploads(argv(fixture('store-cards-lightspeed-store-hours.csv')), [
      card('LS-101', 'downtown@example.com', week([1, 9, 17], [2, 9, 17], [3, 9, 17], [4, 9, 20], [5, 9, 20], [6, 10, 16])),
      card('LS-102', 'harbour@example.com', week([0, 12, 17], ...weekdays(10, 18), [6, 10, 18])),
    ]);
  });

  it("the Google Business Profile bulk sheet's day hours columns, x for closed", async () => {
    const r = await refused(argv(fixture('store-cards-gbp-bulk-sheet.csv')));
    // Its business name is no field of a store card: the run says so, and its fix is followed.
    const fixes = fixesOf(r.json());
    expect(fixes).toContainEqual({ kind: 'flags', args: ['--ignore-column', 'Business name'] });
    await uploads(followFix(argv(fixture('store-cards-gbp-bulk-sheet.csv')), { kind: 'flags', args: ['--ignore-column', 'Business name'] }), [
      card('GBP-1', 'bakery@example.com', week([1, 7, 15], [2, 7, 15], [3, 7, 15], [4, 7, 15], [5, 7, 18], [6, 8, 14])),
      card('GBP-2', 'cafe@example.com', week([0, 10, 16], [2, 8, 17], [3, 8, 17], [4, 8, 17], [5, 8, 22], [6, 9, 22])),
    ]);
  });
});

describe("Excel's locale time formats", () => {
  it('[$-40B]h.mm;@ and the other [$-…] prefixes are read as the times they show, never 0.3958', async () => {
    // One row per format; the numbers are the fractions of a day Excel stores (0.375 is 09:00).
    const formats = ['[$-40B]h.mm;@', '[$-406]hh.mm;@', '[$-fi-FI]h.mm;@', '[$-409]h:mm AM/PM;@', '[$-F400]h:mm:ss AM/PM'];
    const text = (ref: string, t: string) => `<c r="${ref}" t="inlineStr"><is><t>${t}</t></is></c>`;
    const time = (ref: string, style: number, v: number) => `<c r="${ref}" s="${style}"><v>${v}</v></c>`;
    const rows = formats.map((_, k) => {
      const r = k + 2;
      return `<row r="${r}">${text(`A${r}`, `FI-${r}`)}${text(`B${r}`, `s${r}@example.com`)}${time(`C${r}`, k + 1, 0.3958333333333333)}${time(`D${r}`, k + 1, 0.8125)}</row>`;
    });
    const header = `<row r="1">${text('A1', 'Store ID')}${text('B1', 'Email')}${text('C1', 'Monday open')}${text('D1', 'Monday close')}</row>`;
    const file = join(sb.dir, 'finnish-times.xlsx');
    writeFileSync(file, xlsx({ sheetData: header + rows.join(''), numFmts: formats }));
    await uploads(
      argv(file, ['--closed-days', 'Tu-Su']),
      formats.map((_, k) => card(`FI-${k + 2}`, `s${k + 2}@example.com`, week([1, 9.5, 19.5]))),
    );
  });
});

// Issue 41, rules a reader must not flatten, through the real CLI against one real sandbox: times
// after `;` keep the days of the rule before, a rule about holidays only is left out, and rules
// bound to dates are sent for the --hours-as-of week (recorded in the report and the history) or
// refused with that flag as their fix, which is followed.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysWithin, parseDates, today } from '../../src/map/date-rules.js';
import { tokenize } from '../../src/map/day-words.js';
import { runCli } from '../helpers/cli.js';
import { followFix, fixesOf } from '../helpers/follow-fix.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

type Week = Record<string, { since: number; to: number }>;
interface Issue {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly fixes?: readonly { kind: 'flags'; args: string[] }[];
}
const days = (list: readonly number[], since: number, to: number): Week => Object.fromEntries(list.map((d) => [String(d), { since, to }]));
const MON_FRI = [1, 2, 3, 4, 5];

let sb: TestSandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.stop();
});

/** A store-cards file of the given weeks (one store each), and the words that upload it with a state of its own. */
function storesFile(weeks: readonly string[]): { argv: string[]; state: string } {
  const tmp = tempDir();
  const rows = weeks.map((hours, i) => `S${i + 1},s${i + 1}@example.com,1,"${hours}"`);
  const file = tmp.write('stores.csv', `nodeKey,email,storeConceptCode,hours\n${rows.join('\n')}\n`);
  const state = join(tmp.dir, 'state');
  return { argv: ['store-cards', file, '--yes', '--no-baseline', '--json', '--state', state], state };
}

async function run(argv: readonly string[]) {
  const before = await sb.stored('/integrations/storeCards');
  const result = await runCli(argv, { env: sb.env });
  const stored = (await sb.stored('/integrations/storeCards')) as { opentToGuestsPeriod?: Week }[];
  return { result, report: result.json(), before, stored, weeks: stored.map((s) => s.opentToGuestsPeriod) };
}

describe('times after ; keep the days of the rule before', () => {
  it('Mo-Fr 8:30-11:30; 13:00-16:30 is SPLIT_HOURS Monday to Friday; its fix sends 08:30-16:30 on weekdays only', async () => {
    const { argv } = storesFile(['Mo-Fr 8:30-11:30; 13:00-16:30']);
    const refused = await run(argv);
    expect(refused.result.code, refused.result.stderr).toBe(3);
    expect(refused.stored).toEqual(refused.before);
    const issues = (refused.report.issues as Issue[]).filter((i) => i.code === 'SPLIT_HOURS');
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain('08:30-11:30 and 13:00-16:30');
    const fixes = issues[0]!.fixes!;
    expect(fixes).toEqual([{ kind: 'flags', args: ['--split-hours', 'span'] }]);

    const followed = await run(followFix(argv, fixes[0]!));
    expect(followed.result.code, followed.result.stderr).toBe(0);
    expect(followed.weeks).toEqual([days(MON_FRI, 8.5, 16.5)]);
  });
});

describe('a rule about holidays only is left out, never read as the regular week', () => {
  it('SH Mo-Fr and PH Sa: the holidays left out with HOLIDAYS_LEFT_OUT, the regular week sent', async () => {
    const { argv } = storesFile(['Mo-Fr 09:00-18:00; SH Mo-Fr 10:00-12:00', 'PH Sa 10:00-20:00']);
    const { result, report, weeks } = await run(argv);
    expect(result.code, result.stderr).toBe(0);
    // The second store writes nothing but a holiday rule: it has no regular hours to send.
    expect(weeks).toEqual([days(MON_FRI, 9, 18), {}]);
    const notes = (report.issues as Issue[]).filter((i) => i.code === 'HOLIDAYS_LEFT_OUT');
    expect(notes).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringMatching(/^'SH Mo - Fr 10:00 - 12:00': the service holds one week without holidays/),
      }),
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/^'PH Sa 10:00 - 20:00': the service holds one week without holidays/) }),
    ]);
  });
});

describe('rules bound to dates: --hours-as-of', () => {
  const WEEK = 'Mo-Fr 09:00-18:00; Apr 10-15 off';

  it('without it the cell is refused, and following its fix sends the week holding today', async () => {
    const { argv } = storesFile([WEEK]);
    const refused = await run(argv);
    expect(refused.result.code, refused.result.stderr).toBe(3);
    expect(refused.stored).toEqual(refused.before);
    const issue = (refused.report.issues as Issue[]).find((i) => i.code === 'INVALID_HOURS');
    expect(issue?.message).toContain(`'Apr 10 - 15 off' holds on some dates only`);
    expect(issue?.message).toContain(`--hours-as-of ${today()} for this week`);
    const fixes = fixesOf(refused.report);
    expect(fixes).toEqual([{ kind: 'flags', args: ['--hours-as-of', today()] }]);
    expect(refused.report.hoursAsOf).toBeNull();

    const followed = await run(followFix(argv, fixes[0]!));
    expect(followed.result.code, followed.result.stderr).toBe(0);
    const off = daysWithin(parseDates(tokenize('Apr 10-15', true), 0)!, today());
    expect(followed.weeks).toEqual([
      days(
        MON_FRI.filter((d) => !off.has(d)),
        9,
        18,
      ),
    ]);
    expect(followed.report.hoursAsOf).toBe(today());
  });

  it('--hours-as-of 2026-04-08 sends that week (Friday 10 April closed) and records the date in the report and the history', async () => {
    const { argv, state } = storesFile([WEEK]);
    const { result, report, weeks } = await run([...argv, '--hours-as-of', '2026-04-08']);
    expect(result.code, result.stderr).toBe(0);
    expect(weeks).toEqual([days([1, 2, 3, 4], 9, 18)]);
    expect(report.hoursAsOf).toBe('2026-04-08');

    const history = await runCli(['history', 'store-cards', '--json', '--state', state], { env: sb.env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.json<{ generations: { hoursAsOf?: string }[] }>().generations.map((g) => g.hoursAsOf)).toEqual(['2026-04-08']);
    const words = await runCli(['history', 'store-cards', '--state', state], { env: sb.env });
    expect(words.stdout).toContain('hours as of 2026-04-08: rules bound to dates read for that week');
  });

  it('a plan made with --hours-as-of keeps the date: apply sends it and records it in the history', async () => {
    const { argv, state } = storesFile([WEEK]);
    const plan = join(state, '..', 'week.plan.json');
    const planned = await runCli([...argv.filter((a) => a !== '--yes'), '--dry-run', '--plan-out', plan, '--hours-as-of', '2026-04-08'], { env: sb.env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.json().hoursAsOf).toBe('2026-04-08');
    const applied = await run(['apply', plan, '--yes', '--json', '--state', state]);
    expect(applied.result.code, applied.result.stderr).toBe(0);
    expect(applied.weeks).toEqual([days([1, 2, 3, 4], 9, 18)]);
    expect(applied.report.hoursAsOf).toBe('2026-04-08');
    const history = await runCli(['history', 'store-cards', '--json', '--state', state], { env: sb.env });
    expect(history.json<{ generations: { hoursAsOf?: string }[] }>().generations.map((g) => g.hoursAsOf)).toEqual(['2026-04-08']);
  });

  it('a --baseline file is read for the same week: the same file is no change', async () => {
    const { argv } = storesFile([WEEK]);
    const file = argv[1]!;
    const { result, report } = await run([...argv.filter((a) => a !== '--no-baseline'), '--baseline', file, '--hours-as-of', '2026-04-08', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(report.diff).toMatchObject({ baseline: 'file', added: 0, removed: 0, changed: 0, unchanged: 1 });
  });

  it('a date that is no day is BAD_FLAG; its fix is a date that works', async () => {
    const { argv } = storesFile([WEEK]);
    const refused = await run([...argv, '--hours-as-of', '2026-02-30']);
    expect(refused.result.code).toBe(2);
    expect(refused.report.error).toMatchObject({ code: 'BAD_FLAG', message: expect.stringContaining("--hours-as-of '2026-02-30' is not a date") });
    const fixes = fixesOf(refused.report);
    expect(fixes).toEqual([{ kind: 'flags', args: ['--hours-as-of', today()] }]);
    // A later --hours-as-of wins, as with every flag given twice.
    const followed = await run(followFix([...argv, '--hours-as-of', '2026-02-30'], fixes[0]!));
    expect(followed.result.code, followed.result.stderr).toBe(0);
    expect(followed.report.hoursAsOf).toBe(today());
  });
});

it('schema.org hours in a JSON file: the special hours of Christmas sent for the --hours-as-of week', async () => {
  const tmp = tempDir();
  const spec = (extra: object) => ({ '@type': 'OpeningHoursSpecification', ...extra });
  const hours = [
    spec({ dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '09:00', closes: '18:00' }),
    spec({ opens: '00:00', closes: '00:00', validFrom: '2026-12-24', validThrough: '2026-12-26' }),
  ];
  const file = tmp.write('stores.json', JSON.stringify([{ nodeKey: 'S1', email: 's1@example.com', storeConceptCode: 1, opentToGuestsPeriod: hours }]));
  const argv = ['store-cards', file, '--yes', '--no-baseline', '--json', '--state', join(tmp.dir, 'state')];
  const refused = await run(argv);
  expect(refused.result.code, refused.result.stderr).toBe(3);
  expect((refused.report.issues as Issue[]).map((i) => i.code)).toEqual(['INVALID_HOURS']);
  expect(fixesOf(refused.report)).toEqual([{ kind: 'flags', args: ['--hours-as-of', today()] }]);

  const sent = await run([...argv, '--hours-as-of', '2026-12-22']);
  expect(sent.result.code, sent.result.stderr).toBe(0);
  expect(sent.weeks).toEqual([days([1, 2, 3], 9, 18)]);
  expect(sent.report.hoursAsOf).toBe('2026-12-22');
});

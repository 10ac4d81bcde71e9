// Issue 41, deliverables 1 and 2: clocks settled by the file's evidence, and the words the service can
// say (noon, midnight, military times, Open 24 hours, Closed). Each through the real CLI against one
// real sandbox: a file is read as meant (the sandbox holds those hours) or stops with AMBIGUOUS_TIME
// naming both readings, and each fix offered is followed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fix } from '../../src/errors.js';
import { fixture, runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

type Week = Record<string, { since: number; to: number }>;
interface Found {
  readonly code: string;
  readonly line: number;
  readonly column: string | null;
  readonly message: string;
  readonly fixes?: Fix[];
}

let sb: TestSandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.stop();
});

const HEADER = 'nodeKey,email,Mon,Tue,Wed,Thu,Fri,Sat,Sun';

/**
 * `upload store-cards` of a file; what the sandbox holds after it. The runs share one sandbox, one
 * after another, each replacing the last one's cards (hence --max-removals and --max-changes).
 */
async function upload(file: string, args: readonly string[] = []) {
  const run = await runCli(
    // A state of its own per run: a mapping recorded for the same header (and its --time-format) would be reused.
    ['store-cards', file, '--yes', '--no-baseline', '--json', '--max-removals', '100%', '--max-changes', '100%', '--state', tempDir().dir, ...args],
    {
      env: sb.env,
    },
  );
  const stored = (await sb.stored('/integrations/storeCards')) as { opentToGuestsPeriod?: Week }[];
  return { run, issues: (run.json().issues ?? []) as Found[], weeks: stored.map((s) => s.opentToGuestsPeriod) };
}

const args = (fix: Fix | undefined): string[] => (fix?.kind === 'flags' ? [...fix.args] : []);

describe('a range a 12-hour sign and a 24-hour clock read differently', () => {
  it('7-11 alone asks, naming both readings; each fix is followed to the reading it names', async () => {
    const file = tempDir().write('stores.csv', `${HEADER}\nS1,s1@example.com,7-11,,,,,,\n`);
    const { run, issues } = await upload(file);
    expect(run.code).toBe(3);
    const [asked] = issues.filter((i) => i.code === 'AMBIGUOUS_TIME');
    expect(asked).toMatchObject({
      line: 2,
      column: 'Mon',
      message: expect.stringContaining("'7-11' could be 07:00-23:00 (a 12-hour clock) or 07:00-11:00 (a 24-hour clock)"),
    });
    expect(asked!.fixes).toEqual([
      { kind: 'flags', args: ['--time-format', '12h'] },
      { kind: 'flags', args: ['--time-format', '24h'] },
    ]);
    const twelve = await upload(file, args(asked!.fixes![0]));
    expect(twelve.run.code, twelve.run.stderr).toBe(0);
    expect(twelve.weeks).toEqual([{ '1': { since: 7, to: 23 } }]);
    const twentyFour = await upload(file, args(asked!.fixes![1]));
    expect(twentyFour.run.code, twentyFour.run.stderr).toBe(0);
    expect(twentyFour.weeks).toEqual([{ '1': { since: 7, to: 11 } }]);
  });

  it("the file's 24-hour cells settle it, and the warning names them; its fix reads the 12-hour way", async () => {
    const file = tempDir().write('stores.csv', `${HEADER}\nS1,s1@example.com,7-11,13-21,13-21,,,,\nS2,s2@example.com,6-10,,,,,,\n`);
    const { run, issues, weeks } = await upload(file);
    expect(run.code, run.stderr).toBe(0);
    expect(weeks).toEqual([{ '1': { since: 7, to: 11 }, '2': { since: 13, to: 21 }, '3': { since: 13, to: 21 } }, { '1': { since: 6, to: 10 } }]);
    const noted = issues.filter((i) => i.code === 'CLOCK_FROM_EVIDENCE');
    expect(noted).toHaveLength(1);
    expect(noted[0]!.message).toContain("'13-21' (column 'Tue')");
    expect(noted[0]!.fixes).toEqual([{ kind: 'flags', args: ['--time-format', '12h'] }]);
    const followed = await upload(file, args(noted[0]!.fixes![0]));
    expect(followed.run.code, followed.run.stderr).toBe(0);
    expect(followed.weeks).toEqual([{ '1': { since: 7, to: 23 }, '2': { since: 13, to: 21 }, '3': { since: 13, to: 21 } }, { '1': { since: 6, to: 22 } }]);
  });

  it('AM/PM in the same week settles it the 12-hour way: Mon-Fri 10am - 6 is 10:00-18:00', async () => {
    const file = tempDir().write('stores.csv', `nodeKey,email,hours\nS1,s1@example.com,"Mon-Fri 10am - 6, Sat 7-11"\n`);
    const { run, issues, weeks } = await upload(file);
    expect(run.code, run.stderr).toBe(0);
    expect(weeks).toEqual([
      {
        '1': { since: 10, to: 18 },
        '2': { since: 10, to: 18 },
        '3': { since: 10, to: 18 },
        '4': { since: 10, to: 18 },
        '5': { since: 10, to: 18 },
        '6': { since: 7, to: 23 },
      },
    ]);
    expect(issues.map((i) => i.code)).toEqual(['CLOCK_FROM_EVIDENCE']);
  });

  it('cells of both clocks settle nothing: the question is asked', async () => {
    const file = tempDir().write('stores.csv', `${HEADER}\nS1,s1@example.com,7-11,13-21,9am-5pm,,,,\n`);
    const { run, issues } = await upload(file);
    expect(run.code).toBe(3);
    expect(issues.map((i) => i.code)).toEqual(['AMBIGUOUS_TIME']);
  });
});

describe('the words of a sign', () => {
  it('noon, midday, 12nn, midnight and military times are read', async () => {
    const file = tempDir().write(
      'stores.csv',
      `${HEADER}\nS1,s1@example.com,noon-8pm,12 noon - 6pm,midday-6pm,11am-midnight,8am - 12nn,0900-1730,Closed all day\n`,
    );
    const { run, weeks } = await upload(file);
    expect(run.code, run.stderr).toBe(0);
    expect(weeks).toEqual([
      {
        '1': { since: 12, to: 20 },
        '2': { since: 12, to: 18 },
        '3': { since: 12, to: 18 },
        '4': { since: 11, to: 24 },
        '5': { since: 8, to: 12 },
        '6': { since: 9, to: 17.5 },
      },
    ]);
  });

  it("24h, 24/7 and Open 24 hours are the service's whole day, 6-30, each noted OPEN_ALL_DAY", async () => {
    const { run, issues, weeks } = await upload(fixture('store-cards-around-the-clock.csv'), ['--closed-days', 'Th-Su']);
    expect(run.code, run.stderr).toBe(0);
    expect(weeks).toEqual([{ '1': { since: 6, to: 30 }, '2': { since: 6, to: 30 }, '3': { since: 6, to: 30 } }]);
    expect(issues.filter((i) => i.code === 'OPEN_ALL_DAY').map((i) => i.column)).toEqual(['Mon', 'Tue']);
  });

  it('a week cell Closed is a store closed every day; Open 24 hours is every day 6-30', async () => {
    const file = tempDir().write('stores.csv', 'nodeKey,email,hours\nS1,s1@example.com,Closed\nS2,s2@example.com,Open 24 hours\n');
    const { run, weeks, issues } = await upload(file);
    expect(run.code, run.stderr).toBe(0);
    expect(weeks).toEqual([{}, Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [String(d), { since: 6, to: 30 }]))]);
    expect(issues.filter((i) => i.code === 'OPEN_ALL_DAY')).toHaveLength(1);
  });
});

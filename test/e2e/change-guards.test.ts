// The change guards end to end (issue 19): each slip of a file that is complete but read wrongly, run
// as the nightly cron job against a recorded baseline, is refused with exit 4 and nothing sent; the
// exact override the message gives lets it through; routine syncs pass without flags. The real CLI
// against the real sandbox, on both state backends.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const STORES = '/integrations/storeCards';
const TEAM = '/integrations/teamMembers';
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const backends = {
  directory: async () => join(tempDir().dir, 'state'),
  postgres: () => freshDatabase(),
};

const store = (n: number) => `S-${String(n).padStart(3, '0')}`;
const stores = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
/** Every third store opens on Sundays. */
const sunday = (n: number) => (n % 3 === 0 ? '12:00-16:00' : 'closed');

/** The export as the tool reads it: a column per weekday. `saturday` overrides some stores' Saturdays. */
function storesCsv(saturday: Record<number, string> = {}): string {
  const rows = stores(30).map((n) => {
    const weekday = Array(5).fill('09:00-20:00').join(',');
    return `${store(n)},s${n}@example.com,${(n % 3) + 1},${weekday},${saturday[n] ?? '10:00-18:00'},${sunday(n)}`;
  });
  return ['Store ID,Store Email,Concept,Mon,Tue,Wed,Thu,Fri,Sat,Sun', ...rows].join('\n') + '\n';
}

/** The same stores, but the weekdays under one `Business days` column the reader does not know. */
function moFrCsv(): string {
  const rows = stores(30).map((n) => `${store(n)};s${n}@example.com;${(n % 3) + 1};09:00-20:00;10:00-18:00;${sunday(n)}`);
  return ['Store ID;Store Email;Concept;Business days;Sa;So', ...rows].join('\n') + '\n';
}

/** The concept column under a name the tool does not know. */
const konzeptCsv = () => storesCsv().replace('Concept', 'Store Format');

const member = (n: number) => `E${String(n).padStart(4, '0')}`;

/** An HR export with first and last names; `roleCode` per member, `renamed` members get another first name. */
function staffCsv(numbers: readonly number[], over: { renamed?: readonly number[]; noRole?: readonly number[] } = {}): string {
  const rows = numbers.map((n) => {
    const first = over.renamed?.includes(n) ? 'Renamed' : 'First';
    const role = over.noRole?.includes(n) ? '' : String((n % 4) + 1);
    return `${member(n)},${first},Last${n},m${n}@example.com,${role},STORE-${(n % 7) + 1}`;
  });
  return ['Personnel Number,First Name,Last Name,Work Email,Role,Store', ...rows].join('\n') + '\n';
}
const FULL_NAME = '{"name":["First Name","Last Name"]}';

describe.each(Object.entries(backends))('the change guards, with a %s store', (_name, make) => {
  async function setup() {
    sb = await sandbox();
    const state = await make();
    const s = sb;
    const write = (name: string, text: string) => {
      const path = join(s.dir, name);
      writeFileSync(path, text);
      return path;
    };
    /** The nightly cron line of docs/safety.md, against this store. */
    const cron = (kind: string, file: string, ...flags: string[]) =>
      runCli([kind, file, '--yes', '--json', '--state', state, ...flags], { env: { ...s.env, UPLOAD_USER: 'cron', UPLOAD_HOST: 'sync-01' } });
    return { s, state, write, cron };
  }

  it('refuses stores declared closed Monday to Friday beside a Business days column, sends nothing, and lets the exact override through', async () => {
    const { s, state, write, cron } = await setup();
    expect((await cron('store-cards', write('stores.csv', storesCsv()), '--no-baseline')).code).toBe(0);
    const before = await s.stored(STORES);

    const slip = write('stores-mofr.csv', moFrCsv());
    // The reader stops it first: no column gives Monday to Friday, and 'Business days' is not used.
    const unread = await cron('store-cards', slip);
    expect(unread.code).toBe(3);
    expect(unread.json().issues).toEqual([
      // The nightly file's header is not the last upload's: named first (docs/input.md, "A layout remembered").
      expect.objectContaining({ code: 'LAYOUT_CHANGED', severity: 'warning' }),
      expect.objectContaining({ code: 'UNKNOWN_COLUMN', column: 'Business days' }),
      expect.objectContaining({ code: 'MISSING_DAYS', column: 'Business days', value: 'Mo,Tu,We,Th,Fr' }),
    ]);
    expect(await s.stored(STORES)).toEqual(before);
    // Declared closed (a wrong declaration, or a seasonal closure): the guards are the second net.
    const closed = ['--closed-days', 'Mo-Fr'];
    const refused = await cron('store-cards', slip, ...closed);
    expect(refused.code).toBe(4);
    const report = refused.json();
    expect(report).toMatchObject({ outcome: 'refused', exitCode: 4, diff: { added: 0, removed: 0, changed: 30 }, error: { code: 'VALUES_EMPTIED' } });
    expect(report.error.message).toContain('Monday hours in 30 of the 30 store cards that had them (allowed: 1), e.g. S-001 09:00–20:00 → closed');
    expect(report.error.message).toContain('opening hours of 30 of 30 store cards');
    expect(report.error.hint).toContain('run again with --max-emptied 30 --max-changes 30');
    expect(guard(report, 'VALUES_EMPTIED')).toMatchObject({ verdict: 'refused', count: 30, limit: 1, field: 'opentToGuestsPeriod.1' });
    expect(
      guard(report, 'VALUES_EMPTIED')
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['1', '2', '3', '4', '5'].map((d) => `opentToGuestsPeriod.${d}`));
    expect(guard(report, 'TOO_MANY_CHANGES')).toMatchObject({
      verdict: 'refused',
      count: 30,
      limit: 7,
      setting: '25%',
      fields: [{ field: 'opentToGuestsPeriod', count: 30 }],
    });
    expect(guard(report, 'TOO_MANY_REMOVALS')).toMatchObject({ verdict: 'passed', count: 0, limit: 3 });
    expect(guard(report, 'EMPTY_UPLOAD')).toMatchObject({ verdict: 'passed', count: 30 });
    expect(await s.stored(STORES)).toEqual(before);

    // A dry run reaches the same verdict; the human summary shows the refusing guards.
    const dry = await runCli(['store-cards', slip, '--dry-run', '--state', state, ...closed], { env: s.env });
    expect(dry.code).toBe(4);
    expect(dry.stderr).toContain('Guards at or near their limit:');
    expect(dry.stderr).toMatch(/changes \(--max-changes 25%\): 30 store cards changed, at most 7 allowed — refused; opening hours 30/);
    expect(dry.stderr).toContain('run again with --max-emptied 30 --max-changes 30');

    // One less is still refused; the exact override sends it.
    expect((await cron('store-cards', slip, ...closed, '--max-emptied', '29', '--max-changes', '30')).code).toBe(4);
    const through = await cron('store-cards', slip, ...closed, '--max-emptied', '30', '--max-changes', '30');
    expect(through.code).toBe(0);
    expect(through.json().guards.map((g: { verdict: string }) => g.verdict)).toEqual(['passed', 'passed', 'passed', 'passed']);
    const sent = (await s.stored(STORES)) as { opentToGuestsPeriod: Record<string, unknown> }[];
    expect(Object.keys(sent[0]!.opentToGuestsPeriod)).toEqual(['6']);

    // Going back is a bulk change too: restore is judged by the same guards.
    const restore = await runCli(['restore', 'store-cards', '--yes', '--json', '--state', state], { env: s.env });
    expect(restore.code).toBe(4);
    expect(restore.json()).toMatchObject({ error: { code: 'TOO_MANY_CHANGES', hint: expect.stringContaining('--max-changes 30') } });
    expect(guard(restore.json(), 'VALUES_EMPTIED')).toMatchObject({ verdict: 'passed', count: 0 });
    const restored = await runCli(['restore', 'store-cards', '--yes', '--json', '--max-changes', '30', '--state', state], { env: s.env });
    expect(restored.code).toBe(0);
    expect(await s.stored(STORES)).toEqual(before);
  });

  it('saves the limits a plan was judged with, and apply judges it again with them', async () => {
    const { s, state, write, cron } = await setup();
    expect((await cron('store-cards', write('stores.csv', storesCsv()), '--no-baseline')).code).toBe(0);
    const slip = write('stores-mofr.csv', moFrCsv());
    const plan = join(s.dir, 'seasonal.plan.json');
    const dry = (...flags: string[]) =>
      runCli(['store-cards', slip, '--dry-run', '--json', '--plan-out', plan, '--state', state, '--closed-days', 'Mo-Fr', ...flags], { env: s.env });
    expect((await dry()).code).toBe(4);
    expect((await dry('--max-emptied', '30', '--max-changes', '30')).code).toBe(0);
    expect(JSON.parse(readFileSync(plan, 'utf8'))).toMatchObject({
      limits: { maxRemovals: '10%', maxChanges: '30', maxEmptied: '30', allowEmpty: false },
    });
    const applied = await runCli(['apply', plan, '--yes', '--json', '--state', state], { env: s.env });
    expect(applied.code).toBe(0);
    expect(applied.json().diff).toMatchObject({ changed: 30, unchanged: 0 });
    expect(guard(applied.json(), 'TOO_MANY_CHANGES')).toMatchObject({ setting: '30', count: 30, limit: 30, verdict: 'passed' });
    expect(guard(applied.json(), 'VALUES_EMPTIED')).toMatchObject({ setting: '30', count: 30, limit: 30, verdict: 'passed' });
    const sent = (await s.stored(STORES)) as { opentToGuestsPeriod: Record<string, unknown> }[];
    expect(Object.keys(sent[0]!.opentToGuestsPeriod)).toEqual(['6']);
  });

  it('says without a baseline that the guards could not apply, and reports no guards before judging', async () => {
    const { write, cron } = await setup();
    const first = await cron('store-cards', write('stores.csv', storesCsv()), '--no-baseline');
    expect(first.code).toBe(0);
    const notApplied = { count: null, limit: null, verdict: 'not-applied', why: 'there is no baseline to compare with' };
    expect(first.json().guards).toEqual([
      { name: 'EMPTY_UPLOAD', flag: '--allow-empty', setting: false, count: 30, limit: null, verdict: 'passed' },
      { name: 'TOO_MANY_REMOVALS', flag: '--max-removals', setting: '10%', ...notApplied },
      { name: 'VALUES_EMPTIED', flag: '--max-emptied', setting: '5%', ...notApplied },
      { name: 'TOO_MANY_CHANGES', flag: '--max-changes', setting: '25%', ...notApplied },
    ]);
    expect(first.stderr).toContain('neither can the change guards (--max-changes, --max-emptied)');
    const bad = await cron('store-cards', write('other.csv', storesCsv()), '--max-changes', 'most');
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({ guards: null, error: { code: 'BAD_FLAG', message: expect.stringContaining('--max-changes') } });
  });

  it('refuses every storeConceptCode sent as null when a Store Format column is ignored', async () => {
    const { s, write, cron } = await setup();
    expect((await cron('store-cards', write('stores.csv', storesCsv()), '--no-baseline')).code).toBe(0);
    const before = await s.stored(STORES);
    const slip = write('stores-konzept.csv', konzeptCsv());
    // The reader stops it first: storeConceptCode has no column while 'Store Format' is not used.
    const unread = await cron('store-cards', slip);
    expect(unread.code).toBe(3);
    expect(unread.json().issues).toEqual([
      expect.objectContaining({ code: 'LAYOUT_CHANGED', message: expect.stringContaining("renamed 'Concept' → 'Store Format'") }),
      expect.objectContaining({ code: 'UNKNOWN_COLUMN', column: 'Store Format' }),
      expect.objectContaining({ code: 'UNUSED_COLUMNS', column: 'Store Format', field: 'storeConceptCode' }),
    ]);
    // Left out on purpose (wrongly): the guards are the second net.
    const ignored = ['--ignore-column', 'Store Format'];
    const refused = await cron('store-cards', slip, ...ignored);
    expect(refused.code).toBe(4);
    expect(refused.json().error.code).toBe('VALUES_EMPTIED');
    expect(refused.json().error.message).toContain('storeConceptCode in 30 of the 30 store cards that had one (allowed: 1), e.g. S-001 2 → null');
    expect(refused.json().error.message).toContain('storeConceptCode of 30 of 30 store cards (S-001, S-002, S-003, …)');
    expect(refused.json().error.hint).toContain('--max-emptied 30 --max-changes 30');
    expect(await s.stored(STORES)).toEqual(before);
    expect((await cron('store-cards', slip, ...ignored, '--max-emptied', '30', '--max-changes', '30')).code).toBe(0);
    expect(((await s.stored(STORES)) as { storeConceptCode: unknown }[]).every((r) => r.storeConceptCode === null)).toBe(true);
  });

  it('refuses renaming every team member to a surname with --map {"name":"Last Name"}', async () => {
    const { s, write, cron } = await setup();
    const staff = write('staff.csv', staffCsv(range(1, 40)));
    expect((await cron('team-members', staff, '--no-baseline', '--map', FULL_NAME)).code).toBe(0);
    const before = await s.stored(TEAM);
    const refused = await cron('team-members', staff, '--map', '{"name":"Last Name"}');
    expect(refused.code).toBe(4);
    const report = refused.json();
    expect(report.error).toMatchObject({ code: 'TOO_MANY_CHANGES', hint: expect.stringContaining('run again with --max-changes 40') });
    expect(report.error.message).toContain(
      'would change 40 of 40 team members (100.0 %), more than --max-changes allows (25% of 40, that is 10): name of 40 of 40 team members (E0001, E0002, E0003, …)',
    );
    expect(guard(report, 'VALUES_EMPTIED')).toMatchObject({ verdict: 'passed', count: 0 });
    expect(await s.stored(TEAM)).toEqual(before);
    expect((await cron('team-members', staff, '--map', '{"name":"Last Name"}', '--max-changes', '39')).code).toBe(4);
    expect((await cron('team-members', staff, '--map', '{"name":"Last Name"}', '--max-changes', '40')).code).toBe(0);
    expect(((await s.stored(TEAM)) as { name: string }[])[0]!.name).toBe('Last1');
  });

  it('lets a routine nightly team sync through without flags: +1 %, −0.5 %, ~5 % of 1,000', async () => {
    const { s, write, cron } = await setup();
    expect((await cron('team-members', write('night-1.csv', staffCsv(range(1, 1000))), '--no-baseline', '--map', FULL_NAME)).code).toBe(0);
    // Five leave, ten join, fifty change: forty-seven renamed, three lose their role.
    const kept = range(6, 1010);
    const night = write('night-2.csv', staffCsv(kept, { renamed: range(100, 146), noRole: [200, 201, 202] }));
    const r = await cron('team-members', night, '--map', FULL_NAME);
    expect(r.code).toBe(0);
    const report = r.json();
    expect(report.diff).toMatchObject({ added: 10, removed: 5, changed: 50 });
    expect(report.guards).toEqual([
      { name: 'EMPTY_UPLOAD', flag: '--allow-empty', setting: false, count: 1005, limit: null, verdict: 'passed' },
      { name: 'TOO_MANY_REMOVALS', flag: '--max-removals', setting: '10%', count: 5, limit: 100, verdict: 'passed' },
      {
        name: 'VALUES_EMPTIED',
        flag: '--max-emptied',
        setting: '5%',
        count: 3,
        limit: 49,
        verdict: 'passed',
        field: 'roleCode',
        fields: [{ field: 'roleCode', count: 3, held: 995, limit: 49 }],
      },
      {
        name: 'TOO_MANY_CHANGES',
        flag: '--max-changes',
        setting: '25%',
        count: 50,
        limit: 250,
        verdict: 'passed',
        fields: [
          { field: 'name', count: 47 },
          { field: 'roleCode', count: 3 },
        ],
      },
    ]);
    expect(await s.stored(TEAM)).toHaveLength(1005);
    // Far from every limit: the human summary does not mention the guards.
    const human = await cron('team-members', night, '--map', FULL_NAME);
    expect(human.stderr).not.toContain('Guards');
  });

  it('lets two stores change their Saturday hours, and says when a run comes close to a limit', async () => {
    const { s, state, write, cron } = await setup();
    expect((await cron('store-cards', write('stores.csv', storesCsv()), '--no-baseline')).code).toBe(0);
    const r = await cron('store-cards', write('saturday.csv', storesCsv({ 4: '10:00-20:00', 17: '09:00-14:00' })));
    expect(r.code).toBe(0);
    expect(r.json().diff).toMatchObject({ changed: 2, unchanged: 28 });
    expect(guard(r.json(), 'TOO_MANY_CHANGES')).toMatchObject({ verdict: 'passed', count: 2, limit: 7 });
    expect(r.stderr).not.toContain('Guards');
    // Six changed stores of a limit of seven: within a fifth of it, so a person is told.
    const six = { 4: '10:00-20:00', 17: '09:00-14:00', ...Object.fromEntries([1, 2, 3, 5, 6, 7].map((n) => [n, '11:00-15:00'])) };
    const near = await runCli(['store-cards', write('six.csv', storesCsv(six)), '--yes', '--state', state], { env: s.env });
    expect(near.code).toBe(0);
    expect(near.stderr).toContain(
      'Guards at or near their limit:\n  changes (--max-changes 25%): 6 store cards changed, at most 7 allowed — close to its limit; opening hours 6',
    );
  });
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const guard = (report: Record<string, any>, name: string) => (report.guards as { name: string }[]).find((g) => g.name === name) as Record<string, any>;

// Held removals on every path, against the real sandbox: a nightly file that leaves five people out,
// planned with --hold-removals on a target that needs approvals, approved by someone else and applied
// (exit 9, the five still on the service, "held back" in the history, the page and the notification);
// then `upload release`, which removes exactly those five through the same plan, approval and apply.
// On PostgreSQL each person is their own role; on a directory store the approver is another operating-
// system account where the machine allows it (./four-eyes-directory.test.ts). A target without
// approvals releases directly, an earlier hold by --generation N, and nothing held is NOTHING_HELD.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../../src/pipeline/saved-plan.js';
import { SCHEMA_SQL } from '../../src/state/postgres.js';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { id, membersCsv, range } from '../helpers/members.js';
import { cliAs, groupFolder, tryAccounts } from '../helpers/os-users.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

type Who = 'planner' | 'approver' | 'cron';

/** The people of a four-eyes target: how each runs the CLI, and the name the state store knows them by. */
interface People {
  readonly dir: string;
  as(who: Who, args: readonly string[]): Promise<CliResult>;
  readonly name: Record<Who, string>;
  /** Whether someone other than the planner can approve here (one account only: nobody can). */
  readonly canApprove: boolean;
}

/** The five people the nightly file leaves out. */
const HELD = range(26, 30).map(id);
const FIRST = membersCsv(range(1, 30));
/** The nightly: the first 25, two renamed, the last five left out. */
const NIGHTLY = membersCsv(range(1, 25), [1, 2]);

interface Member {
  readonly employeeID: string;
  readonly name: string;
}
const keysOf = (sb: TestSandbox) => async () => ((await sb.stored('/integrations/teamMembers')) as Member[]).map((m) => m.employeeID).sort();

/** A webhook that keeps what it is sent. */
async function hook(): Promise<{ url: string; got: Record<string, any>[]; server: Server }> {
  const got: Record<string, any>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push(JSON.parse(body) as Record<string, any>);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, server };
}

const production = ['--target', 'production'];

/** The first set, through plan → approve → apply, so the nightly has something to hold back against. */
async function firstSet(p: People): Promise<void> {
  const plan = await p.as('planner', ['team-members', 'first.csv', '--dry-run', '--no-baseline', '--plan-out', 'first.plan.json', ...production]);
  expect(plan.code, plan.stderr).toBe(0);
  if (!p.canApprove) return;
  const approve = await p.as('approver', ['approve', 'first.plan.json', ...production, '--yes']);
  expect(approve.code, approve.stderr).toBe(0);
  const apply = await p.as('cron', ['apply', 'first.plan.json', ...production, '--yes']);
  expect(apply.code, apply.stderr).toBe(0);
}

/** The nightly with --hold-removals, planned, approved and applied: held back on every step, and still on the service. */
async function heldThroughThePlan(p: People, sb: TestSandbox): Promise<void> {
  const plan = await p.as('planner', [
    'team-members',
    'nightly.csv',
    ...production,
    '--hold-removals',
    '--dry-run',
    '--plan-out',
    'nightly.plan.json',
    '--json',
  ]);
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.json()).toMatchObject({ outcome: 'dry-run', heldRemovals: HELD, diff: { added: 0, removed: 0, changed: 2 } });
  expect(JSON.parse(readFileSync(join(p.dir, 'nightly.plan.json'), 'utf8'))).toMatchObject({ heldRemovals: HELD });
  // The hint of the dry run names the release, for once the plan is applied.
  expect(plan.stderr).toContain('`upload release team-members --target production` removes exactly them');

  const approve = await p.as('approver', ['approve', 'nightly.plan.json', ...production, '--yes', '--json']);
  if (!p.canApprove) {
    expect(approve.code).toBe(4);
    return;
  }
  expect(approve.code, approve.stderr).toBe(0);
  expect(approve.stderr).toContain(`5 removals held back: ${HELD.join(', ')}.`);
  expect(approve.json()).toMatchObject({
    outcome: 'approved',
    exitCode: 0,
    heldRemovals: HELD,
    diff: { added: 0, removed: 0, changed: 2 },
    approval: { approvers: [{ name: p.name.approver }] },
  });

  // The held keys edited out of the approved plan, and the plan re-signed to match: not the plan approved.
  const { heldRemovals: _held, digest: _digest, ...rest } = JSON.parse(readFileSync(join(p.dir, 'nightly.plan.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(p.dir, 'stripped.plan.json'), JSON.stringify({ ...rest, digest: digestOf(rest as Parameters<typeof digestOf>[0]) }));
  const stripped = await p.as('cron', ['apply', 'stripped.plan.json', ...production, '--yes', '--json']);
  expect(stripped.code).toBe(4);
  expect(stripped.json().error.code).toBe('PLAN_CHANGED');
  expect(await keysOf(sb)()).toEqual(range(1, 30).map(id));

  const webhook = await hook();
  const apply = await p.as('cron', [
    'apply',
    'nightly.plan.json',
    ...production,
    '--yes',
    '--json',
    '--report-html',
    'nightly.html',
    '--notify',
    webhook.url,
    '--notify-on',
    'always',
  ]);
  webhook.server.close();
  expect(apply.code, apply.stderr).toBe(9);
  expect(apply.stderr).toContain(`5 removals held back: ${HELD.join(', ')}.`);
  expect(apply.json()).toMatchObject({ outcome: 'uploaded', exitCode: 9, heldRemovals: HELD, released: null, diff: { added: 0, removed: 0, changed: 2 } });
  expect(webhook.got).toHaveLength(1);
  expect(webhook.got[0]).toMatchObject({
    verdict: 'held-removals',
    operation: 'apply',
    exitCode: 9,
    heldRemovals: { count: 5, keys: HELD, withheld: null },
    next: { command: 'upload release team-members --target production --dry-run' },
  });
  expect(webhook.got[0]!.headline).toContain('saved plan applied succeeded, 5 removals held back (exit 9)');
  expect(readFileSync(join(p.dir, 'nightly.html'), 'utf8')).toContain(`Removals held back (5): <span class="mono">${HELD.join(', ')}</span>`);
  // The notification's next command, followed: the release's dry run lists exactly the five, and sends nothing.
  const next = (webhook.got[0]!.next as { command: string }).command.split(' ').slice(1);
  const dry = await p.as('cron', [...next, '--json']);
  expect(dry.code, dry.stderr).toBe(0);
  const upload = apply.json().generation as number;
  expect(dry.json()).toMatchObject({ outcome: 'dry-run', released: { generation: upload, keys: HELD }, diff: { removed: 5, added: 0, changed: 0 } });

  // The five are still on the service, the renames went through.
  expect(await keysOf(sb)()).toEqual(range(1, 30).map(id));
  const stored = (await sb.stored('/integrations/teamMembers')) as Member[];
  expect(stored.find((m) => m.employeeID === 'E0001')?.name).toBe('Renamed 1');

  const history = await p.as('cron', ['history', 'team-members', ...production]);
  expect(history.stdout).toContain(`held back 5 removals: ${HELD.join(', ')}`);
  const page = await p.as('cron', ['history', 'team-members', ...production, '--html', 'history.html']);
  expect(page.code, page.stderr).toBe(0);
  expect(readFileSync(join(p.dir, 'history.html'), 'utf8')).toContain(`Held back 5 removals: kept 5 team members the file left out`);
}

/** `upload release` on the protected target: a plan like any other, then exactly the five are gone. */
async function releasedThroughThePlan(p: People, sb: TestSandbox): Promise<void> {
  const before = ((await sb.stored('/integrations/teamMembers')) as Member[]).filter((m) => !HELD.includes(m.employeeID));
  const direct = await p.as('cron', ['release', 'team-members', ...production, '--yes', '--json']);
  expect(direct.code).toBe(4);
  expect(direct.json().error.code).toBe('PLAN_REQUIRED');
  // Its hint's first step, as written: the release's plan.
  const step = /1\. upload (.+?)\s*$/m.exec(direct.json().error.hint as string)![1]!;
  expect(step).toContain('release team-members --target production --dry-run --plan-out release.plan.json');
  const plan = await p.as('planner', [...step.split(' '), '--json']);
  expect(plan.code, plan.stderr).toBe(0);
  const upload = plan.json().baseline.generation as number;
  expect(plan.json()).toMatchObject({
    source: `5 held removals of upload #${upload}`,
    heldRemovals: [],
    released: { generation: upload, keys: HELD },
    diff: { added: 0, removed: 5, changed: 0, examples: { removed: HELD } },
  });
  expect(JSON.parse(readFileSync(join(p.dir, 'release.plan.json'), 'utf8'))).toMatchObject({ release: { generation: upload, keys: HELD } });

  const approve = await p.as('approver', ['approve', 'release.plan.json', ...production, '--yes']);
  expect(approve.code, approve.stderr).toBe(0);

  expect(approve.stderr).toContain(`The plan releases the 5 removals upload #${upload} held back (${HELD.join(', ')}): it removes exactly them.`);
  expect(approve.stderr).toContain('+0 −5 ~0');

  // What the release says it releases, edited and re-signed: not the plan approved.
  const { digest: _digest, ...doc } = JSON.parse(readFileSync(join(p.dir, 'release.plan.json'), 'utf8')) as Record<string, unknown>;
  const relabelled = { ...doc, release: { generation: upload - 1, keys: HELD.slice(1) } };
  writeFileSync(join(p.dir, 'relabelled.plan.json'), JSON.stringify({ ...relabelled, digest: digestOf(relabelled as Parameters<typeof digestOf>[0]) }));
  const edited = await p.as('cron', ['apply', 'relabelled.plan.json', ...production, '--yes', '--json']);
  expect(edited.code).toBe(4);
  expect(edited.json().error.code).toBe('PLAN_CHANGED');

  const apply = await p.as('cron', ['apply', 'release.plan.json', ...production, '--yes', '--json', '--report-html', 'release.html']);
  expect(apply.code, apply.stderr).toBe(0);
  expect(apply.stderr).toContain(`Released 5 held removals of upload #${upload}: ${HELD.join(', ')} are no longer on the service.`);
  expect(apply.json()).toMatchObject({
    outcome: 'uploaded',
    exitCode: 0,
    heldRemovals: [],
    released: { generation: upload, keys: HELD },
    generation: upload + 1,
    diff: { removed: 5, added: 0, changed: 0 },
  });
  expect(readFileSync(join(p.dir, 'release.html'), 'utf8')).toContain(
    `Releases the 5 removals upload #${upload} held back: <span class="mono">${HELD.join(', ')}</span>`,
  );
  // Exactly the five are gone; everybody else is as they were.
  expect(await sb.stored('/integrations/teamMembers')).toEqual(before);

  const history = await p.as('cron', ['history', 'team-members', ...production, '--json']);
  expect(JSON.parse(history.stdout).generations[0]).toMatchObject({ operation: 'release', source: `5 held removals of upload #${upload}`, removed: 5 });
  const text = await p.as('cron', ['history', 'team-members', ...production]);
  expect(text.stdout).toContain(`released 5 held removals of upload #${upload} (plan release.plan.json)`);

  // Released once: the latest upload (the release) holds nothing, and the five held before are gone.
  const again = await p.as('planner', ['release', 'team-members', ...production, '--dry-run', '--json']);
  expect(again.code).toBe(2);
  expect(again.json().error).toMatchObject({ code: 'NOTHING_HELD', fixes: [] });
  expect(again.json().error.message).toContain(`upload #${upload + 1} of team members`);
  expect(await sb.stored('/integrations/teamMembers')).toEqual(before);
}

describe('held removals on PostgreSQL, each person their own role', () => {
  const tag = randomBytes(3).toString('hex');
  const ROLES = { planner: `alice_${tag}`, approver: `bob_${tag}`, cron: `cron_${tag}`, reader: `upload_reader_${tag}` };
  let sb: TestSandbox;
  let db: string;
  let people: People;

  /** The grants of docs/state.md ("Four eyes"), for this test's roles and database. */
  function documentedGrants(database: string): string {
    const doc = readFileSync(join(ROOT, 'docs/state.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Four eyes: who planned, who approved'));
    const sql = /```sql\n([\s\S]*?)```/.exec(section)![1]!;
    return (
      sql
        // Roles belong to the whole server, which other files share: every group gets this file's tag.
        .replaceAll(/\bupload_(reader|planner|approver|sender)\b/g, `$&_${tag}`)
        .replaceAll(/\balice\b/g, ROLES.planner)
        .replaceAll(/\bbob\b/g, ROLES.approver)
        .replaceAll(/\bcron\b/g, ROLES.cron)
        .replace('ON DATABASE scheduling', `ON DATABASE ${database}`)
    );
  }

  beforeAll(async () => {
    sb = await sandbox();
    db = await freshDatabase();
    await asAdmin(db, SCHEMA_SQL);
    await asAdmin(db, documentedGrants(new URL(db).pathname.slice(1)));
    const t = tempDir();
    const state = new URL(db);
    state.username = '';
    t.write('upload.config.json', JSON.stringify({ targets: { production: { baseUrl: sb.url, state: state.href, approvals: 1 } } }));
    t.write('first.csv', FIRST);
    t.write('nightly.csv', NIGHTLY);
    people = {
      dir: t.dir,
      as: (who, args) => runCli(args, { cwd: t.dir, env: { PGUSER: ROLES[who], UPLOAD_TOKEN: TOKEN } }),
      name: ROLES,
      canApprove: true,
    };
    await firstSet(people);
  }, 120_000);

  afterAll(async () => {
    await sb?.stop();
    for (const role of Object.values(ROLES)) await asAdmin(db, `DROP OWNED BY ${role}; DROP ROLE IF EXISTS ${role}`).catch(() => {});
  });

  it('plan → approve → apply keeps the five on the service and says "held back" at every step', async () => {
    await heldThroughThePlan(people, sb);
  });

  it('release plans, is approved and removes exactly the five; a second release has nothing to release', async () => {
    await releasedThroughThePlan(people, sb);
  });
});

describe('held removals on a directory store, the approver another operating-system account', () => {
  const APPROVER = 'suhr-approver';
  let sb: TestSandbox;
  let people: People;

  beforeAll(async () => {
    sb = await sandbox();
    const t = tempDir();
    chmodSync(t.dir, 0o755);
    const accounts = tryAccounts('suhr-team', [APPROVER], t.dir);
    // The team's folder, shared through the group (2770), with the state store inside.
    const shared = groupFolder(join(t.dir, 'team'), accounts?.gid);
    groupFolder(join(shared, 'state'), accounts?.gid);
    const write = (name: string, text: string) => {
      writeFileSync(join(shared, name), text);
      chmodSync(join(shared, name), 0o644);
    };
    write('upload.config.json', JSON.stringify({ targets: { production: { baseUrl: sb.url, state: join(shared, 'state'), approvals: 1 } } }));
    write('first.csv', FIRST);
    write('nightly.csv', NIGHTLY);
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', UPLOAD_TOKEN: TOKEN };
    people = {
      dir: shared,
      as: (who, args) =>
        who === 'approver' && accounts ? cliAs(APPROVER, accounts.node, args, shared, env) : runCli(args, { cwd: shared, env: { UPLOAD_TOKEN: TOKEN } }),
      name: { planner: 'root', approver: accounts ? APPROVER : 'root', cron: 'root' },
      canApprove: accounts !== undefined,
    };
    await firstSet(people);
  }, 120_000);

  afterAll(async () => {
    await sb?.stop();
  });

  it('plan → approve → apply keeps the five on the service and says "held back" at every step', async () => {
    await heldThroughThePlan(people, sb);
    // With one account nobody else can approve: nothing was ever sent.
    if (!people.canApprove) expect(await keysOf(sb)()).toEqual([]);
  });

  it('release plans, is approved and removes exactly the five; a second release has nothing to release', async () => {
    if (!people.canApprove) {
      const r = await people.as('cron', ['release', 'team-members', ...production, '--dry-run', '--json']);
      expect(r.json().error.code).toBe('NO_HISTORY');
      return;
    }
    await releasedThroughThePlan(people, sb);
  });
});

describe('held removals on a target without approvals', () => {
  let sb: TestSandbox;
  let dir: string;
  const run = (args: readonly string[]) => runCli(args, { cwd: dir, env: { UPLOAD_TOKEN: TOKEN } });
  const staging = ['--target', 'staging'];

  beforeAll(async () => {
    sb = await sandbox();
    const t = tempDir();
    dir = t.dir;
    t.write('upload.config.json', JSON.stringify({ targets: { staging: { baseUrl: sb.url, state: join(dir, 'state') } } }));
    t.write('first.csv', FIRST);
    t.write('nightly.csv', NIGHTLY);
    // The second night E0028 is back, and E0024 and E0025 have left.
    t.write('nightly2.csv', membersCsv([...range(1, 23), 28], [1, 2]));
  });

  afterAll(async () => {
    await sb?.stop();
  });

  it('releases directly with --yes; --generation N releases an earlier hold, without anyone a later file brought back', async () => {
    expect((await run(['team-members', 'first.csv', ...staging, '--yes', '--no-baseline'])).code).toBe(0);
    const one = await run(['team-members', 'nightly.csv', ...staging, '--yes', '--hold-removals', '--json']);
    expect(one.code, one.stderr).toBe(9);
    expect(one.json()).toMatchObject({ generation: 2, heldRemovals: HELD, released: null });
    expect(one.stderr).toContain('`upload release team-members --target staging` removes exactly them');
    // The first upload held nothing: refused, and the fix is the release of the latest upload's holds, as the hint above says.
    const first = await run(['release', 'team-members', ...staging, '--generation', '1', '--yes', '--json']);
    expect(first.code).toBe(2);
    expect(first.json().error).toMatchObject({ code: 'NOTHING_HELD', fixes: [{ kind: 'command', args: ['release', 'team-members', '--target', 'staging'] }] });
    expect(first.json().error.hint).toContain(
      'upload #2 (the latest) held back 5 team members that are still held: upload release team-members --target staging',
    );
    const followedFirst = await run([...(first.json().error.fixes[0].args as string[]), '--dry-run', '--json']);
    expect(followedFirst.code, followedFirst.stderr).toBe(0);
    expect(followedFirst.json()).toMatchObject({ outcome: 'dry-run', released: { generation: 2, keys: HELD }, diff: { removed: 5, added: 0, changed: 0 } });
    expect(await keysOf(sb)()).toEqual(range(1, 30).map(id));
    const two = await run(['team-members', 'nightly2.csv', ...staging, '--yes', '--hold-removals', '--json']);
    expect(two.code, two.stderr).toBe(9);
    const heldTwice = [24, 25, 26, 27, 29, 30].map(id);
    expect(two.json()).toMatchObject({ generation: 3, heldRemovals: heldTwice });
    expect(await keysOf(sb)()).toEqual(range(1, 30).map(id));

    // Upload #2's holds that still stand: E0028 is in the second night's file, so it stays.
    const earlier = [26, 27, 29, 30].map(id);
    const dry = await run(['release', 'team-members', ...staging, '--generation', '2', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toMatchObject({
      outcome: 'dry-run',
      source: '4 held removals of upload #2',
      diff: { removed: 4, added: 0, changed: 0, examples: { removed: earlier } },
    });
    expect(await keysOf(sb)()).toEqual(range(1, 30).map(id));
    const released = await run(['release', 'team-members', ...staging, '--generation', '2', '--yes', '--json']);
    expect(released.code, released.stderr).toBe(0);
    expect(released.stderr).toContain(`Released 4 held removals of upload #2: ${earlier.join(', ')} are no longer on the service.`);
    expect(released.json()).toMatchObject({
      outcome: 'uploaded',
      generation: 4,
      released: { generation: 2, keys: earlier },
      diff: { removed: 4, added: 0, changed: 0 },
    });
    expect(await keysOf(sb)()).toEqual([...range(1, 25), 28].map(id));

    // The latest upload (the release) holds nothing; the second night's holds that still stand are the fix.
    const nothing = await run(['release', 'team-members', ...staging, '--yes', '--json']);
    expect(nothing.code).toBe(2);
    const error = nothing.json().error;
    expect(error).toMatchObject({
      code: 'NOTHING_HELD',
      fixes: [{ kind: 'command', args: ['release', 'team-members', '--target', 'staging', '--generation', '3'] }],
    });
    expect(error.hint).toContain('upload release team-members --target staging --generation 3');
    expect(await keysOf(sb)()).toEqual([...range(1, 25), 28].map(id));
    // Followed: exactly E0024 and E0025, the two the second night held that are still held.
    const followed = await run([...(error.fixes[0].args as string[]), '--yes', '--json']);
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.json()).toMatchObject({ source: '2 held removals of upload #3', diff: { removed: 2, examples: { removed: [id(24), id(25)] } } });
    expect(await keysOf(sb)()).toEqual([...range(1, 23), 28].map(id));

    // Nothing held anywhere now: refused, with no fix to offer.
    const none = await run(['release', 'team-members', ...staging, '--yes', '--json']);
    expect(none.code).toBe(2);
    expect(none.json().error).toMatchObject({ code: 'NOTHING_HELD', fixes: [] });
    const history = await run(['history', 'team-members', ...staging]);
    expect(history.stdout).toContain('released 2 held removals of upload #3');
    expect(history.stdout).toContain('released 4 held removals of upload #2');
    expect(await keysOf(sb)()).toEqual([...range(1, 23), 28].map(id));
  });

  it('refuses a --generation that is not recorded, and a release where nothing was ever uploaded', async () => {
    const unknown = await run(['release', 'team-members', ...staging, '--generation', '99', '--dry-run', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.json().error.code).toBe('BAD_GENERATION');
    const empty = await run(['release', 'store-cards', ...staging, '--dry-run', '--json']);
    expect(empty.code).toBe(2);
    expect(empty.json().error.code).toBe('NO_HISTORY');
  });
});

// Every hint is a command the suite has followed (issue 40): per case of ./hints-followed.cases.ts, the
// real CLI meets the refusal against a real sandbox, each fix it offers as data (`error.fixes`,
// `issues[].fixes`) is applied as a script would (test/helpers/follow-fix.ts), and the run again must
// give what the person means — exactly those records on the service, a dry run that sends nothing —
// or another refusal that sends nothing, whose own fixes are followed in turn. Never exit 0 with a
// value the file does not mean. One sandbox for the file; each attempt starts from its own state.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, runCli, type CliResult } from '../helpers/cli.js';
import { followFix, type Fix } from '../helpers/follow-fix.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { startCli, until } from '../helpers/spawn.js';
import { CASES, type FixCase, type Outcome } from './hints-followed.cases.js';

const PATHS = { 'store-cards': '/integrations/storeCards', 'team-members': '/integrations/teamMembers' } as const;
type Path = (typeof PATHS)[keyof typeof PATHS];

let sb: TestSandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.stop();
});

/** What the service holds of both kinds. */
const holdings = async () => ({ cards: await sb.stored(PATHS['store-cards']), members: await sb.stored(PATHS['team-members']) });

async function empty(path: Path): Promise<void> {
  const res = await fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: '[]',
  });
  expect(res.status).toBe(200);
}

interface Attempt {
  /** The words every run of the attempt ends with: its report, its own state. */
  readonly keep: readonly string[];
  readonly held: Awaited<ReturnType<typeof holdings>>;
}

/** A fresh start: the service emptied, a state store of its own, and the case's `before` uploaded. */
async function start(c: FixCase, dir: string): Promise<Attempt> {
  const state = mkdtempSync(join(dir, 'state-'));
  for (const path of Object.values(PATHS)) await empty(path);
  for (const [k, before] of [c.before ?? []].flat().entries()) {
    const file = join(dir, before.name);
    writeFileSync(file, before.content);
    const r = await runCli([before.kind, file, '--yes', ...(k === 0 ? ['--no-baseline'] : []), '--json', '--state', state], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
  }
  return { keep: ['--json', '--state', state], held: await holdings() };
}

/** The case's files written afresh (a cell fix writes into them); its argv with their paths. */
async function materialise(c: FixCase, dir: string): Promise<{ argv: string[]; file: string | undefined }> {
  let file: string | undefined;
  if (c.file && 'fixture' in c.file) copyFileSync(fixture(c.file.fixture), (file = join(dir, basename(c.file.fixture))));
  else if (c.file) writeFileSync((file = join(dir, c.file.name)), typeof c.file.content === 'string' ? c.file.content : await c.file.content());
  for (const [name, content] of Object.entries(c.beside ?? {})) writeFileSync(join(dir, name), content);
  return { argv: c.argv.map((w) => w.replace('{file}', file ?? '').replace('{dir}', dir)), file };
}

interface Offered {
  readonly code: string;
  /** Offered by the run's error (not by one of its issues). */
  readonly error: boolean;
  readonly fix: Fix;
}

/** The fixes a report offers, by the code that offers them (the error's, then each issue's), each once. */
function offered(r: CliResult, code?: string): Offered[] {
  const report = r.json<{ error: { code: string; fixes: Fix[] } | null; issues: { code: string; fixes?: Fix[] }[] }>();
  const all = [
    ...(report.error?.fixes ?? []).map((fix) => ({ code: report.error!.code, error: true, fix })),
    ...report.issues.flatMap((i) => (i.fixes ?? []).map((fix) => ({ code: i.code, error: false, fix }))),
  ].filter((f) => code === undefined || f.code === code);
  const seen = new Set<string>();
  return all.filter((f) => !seen.has(JSON.stringify(f)) && seen.add(JSON.stringify(f)));
}

/** The codes a run stopped with: its error's and its error issues'. */
function codesOf(r: CliResult): string[] {
  const report = r.json<{ error: { code: string } | null; issues: { code: string; severity: string }[] }>();
  return [...(report.error ? [report.error.code] : []), ...report.issues.filter((i) => i.severity === 'error').map((i) => i.code)];
}

const kindOf = (argv: readonly string[]) => argv.find((w): w is keyof typeof PATHS => w in PATHS)!;

/**
 * Follows one fix from a fresh start and checks what it leads to; a refusal's own fixes in turn.
 * `taken`: the fixes followed on the way here, none of which may be offered again (a fix that did not
 * take, or hints that lead round in a circle).
 */
async function follow(
  c: FixCase,
  dir: string,
  argv: readonly string[],
  file: string | undefined,
  from: Offered,
  outcome: Outcome,
  taken: readonly string[] = [],
): Promise<void> {
  const attempt = await start(c, dir);
  const next = followFix(argv, from.fix, { file });
  const r = await runCli([...next, ...attempt.keep], { env: sb.env });
  const said = `${next.join(' ')}\n${r.stderr}`;
  if ('stored' in outcome) {
    expect(r.code, said).toBe(0);
    expect(await sb.stored(PATHS[kindOf(next)])).toEqual(outcome.stored);
  } else if ('sentNothing' in outcome) {
    expect(r.code, said).toBe(0);
    expect(await holdings()).toEqual(attempt.held);
    if (outcome.wrote) expect(existsSync(join(dir, outcome.wrote))).toBe(true);
  } else if ('exported' in outcome) {
    expect(r.code, said).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, outcome.exported), 'utf8'))).toEqual(await sb.stored(PATHS[kindOf(next)]));
  } else {
    expect(r.code, said).not.toBe(0);
    expect(r.json().error?.code, said).toBe(outcome.refused);
    // The fix was taken: the refusal it answered is not what stops the run now, and no fix followed on
    // the way is offered again.
    if (from.error) expect(r.json().error?.code, said).not.toBe(from.code);
    const now = [...taken, JSON.stringify(from.fix)];
    const fixes = offered(r);
    expect(
      fixes.filter((f) => now.includes(JSON.stringify(f.fix))),
      said,
    ).toEqual([]);
    expect(await holdings()).toEqual(attempt.held);
    if (outcome.then) {
      expect(
        fixes.map((f) => f.fix),
        said,
      ).toHaveLength(outcome.then.length);
      // Each of them alone, from the file as this fix left it.
      const written = file === undefined ? undefined : readFileSync(file);
      for (const [k, then] of outcome.then.entries()) {
        if (file !== undefined) writeFileSync(file, written!);
        await follow(c, dir, next, file, fixes[k]!, then, now);
      }
    }
  }
}

describe('every fix the tool offers, followed', () => {
  it.each(CASES.map((c) => [`${c.code}: ${c.title}`, c] as const))('%s', async (_title, c) => {
    const dir = mkdtempSync(join(sb.dir, 'case-'));
    const attempt = await start(c, dir);
    const { argv } = await materialise(c, dir);
    const first = await runCli([...argv, ...attempt.keep], { env: sb.env });
    expect(codesOf(first).concat(first.json<{ issues: { code: string }[] }>().issues.map((i) => i.code)), first.stderr).toContain(c.code);
    const fixes = offered(first, c.code);
    expect(fixes, first.stderr).toHaveLength(c.followed.length);
    for (const [k, outcome] of c.followed.entries()) {
      const { file } = await materialise(c, dir);
      await follow(c, dir, argv, file, fixes[k]!, outcome);
    }
  });
});

// `upload sandbox` has no --json: its hint is followed as written, in a process of its own (it runs
// until stopped).
describe('the hints of a command without a report, followed as written', () => {
  it('a sandbox on a port in use: --port 0 listens on a free one', async () => {
    const busy = new URL(sb.url).port;
    const refused = await startCli(['sandbox', '--port', busy], { SANDBOX_TOKEN: TOKEN }).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pick another --port, or --port 0 for a free one');
    const running = startCli(['sandbox', '--port', busy, '--port', '0'], { SANDBOX_TOKEN: TOKEN });
    await until(() => running.stderr().includes('Sandbox listening on'));
    const url = /listening on (http:\/\/[^\s,;]+)/.exec(running.stderr())![1]!;
    const res = await fetch(`${url}/integrations/teamMembers`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([res.status, await res.json()]).toEqual([200, []]);
    running.child.kill('SIGTERM');
    expect((await running.done).code).toBe(0);
  });

  it('a sandbox on a host that is not this machine: the hint names --host, not another port', async () => {
    const refused = await startCli(['sandbox', '--host', '192.0.2.1', '--allow-remote', '--port', '0'], { SANDBOX_TOKEN: TOKEN }).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--host 192.0.2.1 is not an address of this machine');
    expect(refused.stderr).not.toContain('--port 0');
  });
});

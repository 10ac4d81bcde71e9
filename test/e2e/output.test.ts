// Output fit for people and for cron: one JSON document on stdout whatever happens, no colour off a
// terminal, plain progress lines unless --quiet, and Ctrl-C ending as `interrupted` with its report.
import { describe, expect, it } from 'vitest';
import { CANARY, expectNoCanary, upload } from '../helpers/canary.js';
import { fixture, runCli } from '../helpers/cli.js';
import { parseReport } from '../helpers/report-schema.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { startCli, until } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

const { serve } = serversForFile();

describe.concurrent('--json writes exactly one document on every outcome', () => {
  const file = fixture('team-members.csv');
  const cases: [string, string[], number, string, string | null][] = [
    ['a bad --retries value', ['team-members', file, '--retries', 'x'], 2, 'usage-error', 'BAD_FLAG'],
    ['a bad --timeout value', ['team-members', file, '--timeout', '0'], 2, 'usage-error', 'BAD_FLAG'],
    ['an unknown option', ['team-members', file, '--frobnicate'], 2, 'usage-error', 'BAD_USAGE'],
    ['a missing argument', ['team-members'], 2, 'usage-error', 'BAD_USAGE'],
    ['a missing file', ['team-members', '/nonexistent/staff.csv', '--dry-run', '--no-baseline'], 3, 'invalid', null],
    ['no confirmation possible', ['team-members', file, '--base-url', 'http://127.0.0.1:9'], 2, 'usage-error', 'NO_CONFIRMATION'],
  ];
  it.each(cases)('%s', async (_name, args, exit, outcome, code) => {
    const run = await runCli([...args, '--json'], { env: { UPLOAD_TOKEN: CANARY } });
    expect(run.code).toBe(exit);
    const report = run.json();
    expect(report).toMatchObject({ outcome, exitCode: exit });
    if (code) expect(report.error.code).toBe(code);
    expect(report.error.message).toEqual(expect.any(String));
    expectNoCanary([run.stdout, run.stderr]);
  });
});

describe.concurrent('human output off a terminal', () => {
  it('no colour even without NO_COLOR, and plain progress lines and retry warnings', async () => {
    const server = await serve({ status: 503 }, { ok: true });
    const state = tempDir().dir;
    const cli = startCli(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--base-url', server.url, '--state', state], {
      UPLOAD_TOKEN: CANARY,
      FORCE_COLOR: '1',
    });
    const run = await cli.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    // eslint-disable-next-line no-control-regex
    expect(run.stderr).not.toMatch(/\x1b\[/);
    expect(run.stderr).toMatch(/^Reading .*team-members.csv/m);
    expect(run.stderr).toMatch(/^warning: attempt 1 of 5: the service answered 503; trying again in \d+ ms \(backing off\)$/m);
    expect(run.stderr).toMatch(/✓ 3 team member\(s\) uploaded/);
    expectNoCanary([run.stdout, run.stderr], [state]);
  });

  it('--quiet keeps only warnings, errors and the outcome', async () => {
    const server = await serve({ status: 503 }, { ok: true });
    const run = await upload(server.url, ['--quiet'], {});
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/Reading|Sending|Changes/);
    expect(run.stderr).toMatch(/warning: attempt 1 of 5/);
    expect(run.stderr).toMatch(/✓ 3 team member\(s\) uploaded/);
  });
});

describe('Ctrl-C', () => {
  const args = (url: string) => ['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--json', '--base-url', url, '--state', tempDir().dir];

  it('after the body was sent: interrupted, exit 130, the report says the outcome is unknown', async () => {
    const server = await serve({ hang: true });
    const cli = startCli(args(server.url), { UPLOAD_TOKEN: CANARY, NO_COLOR: '1' });
    await until(() => server.requests.length === 1);
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(130);
    const report = parseReport(run.stdout);
    expect(report).toMatchObject({ outcome: 'interrupted', exitCode: 130, error: { code: 'INTERRUPTED' } });
    expect(report.error.message).toMatch(/after the body was sent: the outcome is unknown/);
    expectNoCanary([run.stdout, run.stderr]);
  });

  it('while waiting to retry, with nothing applied: interrupted, nothing was changed', async () => {
    // A 503 asking to come back in a minute: the run waits, and Ctrl-C ends the wait at once.
    const server = await serve({ status: 503, headers: { 'retry-after': '60' } });
    const cli = startCli(args(server.url), { UPLOAD_TOKEN: CANARY, NO_COLOR: '1' });
    await until(() => /trying again/.test(cli.stderr()));
    cli.child.kill('SIGINT');
    // At once, not after the 60 s backoff: a run that waited it out would be killed by startCli's
    // hang bound first (no exit code).
    const run = await cli.done;
    expect(run.code).toBe(130);
    expect(parseReport(run.stdout)).toMatchObject({ outcome: 'interrupted', error: { message: expect.stringMatching(/nothing was changed/) } });
  });
});

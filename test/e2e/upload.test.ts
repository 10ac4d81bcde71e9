// The first safe path end to end: the real CLI against the real sandbox.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture, runCli, type CliResult } from '../helpers/cli.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';

const CARDS = '/integrations/storeCards';
const MEMBERS = '/integrations/teamMembers';
const expected = (name: string) => JSON.parse(readFileSync(fixture(name), 'utf8'));

let s: TestSandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(async () => {
  await s.stop();
});

const upload = (args: string[], env: Record<string, string | undefined> = {}) => runCli([...args, '--state', s.stateDir], { env: { ...s.env, ...env } });

/** Nothing the CLI printed may hold the token. */
function noToken(r: CliResult): void {
  expect(r.stdout).not.toContain(TOKEN);
  expect(r.stderr).not.toContain(TOKEN);
}

describe('a successful upload', () => {
  it('sends a store-card CSV in the exact wire shape', async () => {
    const r = await upload(['store-cards', fixture('store-cards.csv'), '--yes', '--no-baseline']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('3 store card(s) uploaded');
    expect(await s.stored(CARDS)).toEqual(expected('store-cards.expected.json'));
    noToken(r);
  });

  it.each(['team-members.csv', 'team-members.json', 'team-members.ndjson'])('sends team members from %s in the exact wire shape', async (file) => {
    const r = await upload(['team-members', fixture(file), '--yes', '--no-baseline', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      kind: 'team-members',
      dryRun: false,
      outcome: 'uploaded',
      exitCode: 0,
      records: 3,
      issues: [],
      response: { status: 200, message: '3 team member(s) uploaded' },
      error: null,
    });
    expect(await s.stored(MEMBERS)).toEqual(expected('team-members.expected.json'));
    noToken(r);
  });

  it('reads a CSV piped to standard input', async () => {
    const r = await runCli(['team-members', '-', '--yes', '--no-baseline', '--state', s.stateDir], {
      env: s.env,
      input: readFileSync(fixture('team-members.csv')),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await s.stored(MEMBERS)).toEqual(expected('team-members.expected.json'));
  });

  it('reads the token from a file', async () => {
    const { tempDir } = await import('../helpers/tmp.js');
    const tokenFile = tempDir().write('token', `${TOKEN}\n`);
    const r = await upload(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--token-file', tokenFile], { UPLOAD_TOKEN: undefined });
    expect(r.code, r.stderr).toBe(0);
    noToken(r);
  });
});

describe('nothing is sent when', () => {
  it('the file has errors: exit 3, every error on its line', async () => {
    const r = await upload(['team-members', fixture('team-members-invalid.csv'), '--yes', '--no-baseline', '--json']);
    expect(r.code).toBe(3);
    const report = r.json();
    expect(report.outcome).toBe('invalid');
    expect(report.exitCode).toBe(3);
    expect(report.records).toBe(4);
    const found = report.issues
      .filter((i: { severity: string }) => i.severity === 'error')
      .map((i: { line: number; code: string; column: string }) => [i.line, i.code, i.column]);
    expect(found).toEqual(
      expect.arrayContaining([
        [3, 'INVALID_EMAIL', 'email'],
        [4, 'REQUIRED', 'employeeID'],
        [5, 'DUPLICATE_KEY', 'employeeID'],
      ]),
    );
    expect(await s.stored(MEMBERS)).toEqual([]);
  });

  it('it is a dry run: exit 0, no token or confirmation needed', async () => {
    const r = await upload(['team-members', fixture('team-members.csv'), '--dry-run', '--no-baseline', '--json'], { UPLOAD_TOKEN: undefined });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ outcome: 'dry-run', dryRun: true, exitCode: 0, records: 3, response: null });
    expect(await s.stored(MEMBERS)).toEqual([]);
  });

  it('a dry run says what a real run would also need, and checks a token that is given', async () => {
    const r = await runCli(['team-members', fixture('team-members.csv'), '--dry-run', '--no-baseline']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /A real run would also need an access token \(UPLOAD_TOKEN or --token-file\); a base URL \(--base-url or UPLOAD_BASE_URL\); --yes/,
    );
    const bad = await upload(['team-members', fixture('team-members.csv'), '--dry-run', '--no-baseline', '--json'], { UPLOAD_TOKEN: 'two\nlines' });
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'BAD_TOKEN', message: expect.stringContaining('more than one line') } });
  });

  it('an --errors-csv that cannot be written is a usage error before the file is read', async () => {
    const r = await upload(['team-members', 'no-such-file.csv', '--dry-run', '--no-baseline', '--json', '--errors-csv', '/no/such/dir/rejected.csv']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ error: { code: 'OUTPUT_UNWRITABLE', message: expect.stringContaining('--errors-csv') } });
    expect(r.json().error.message).toContain('its directory does not exist');
  });

  it('a --baseline file that cannot be read is named with its flag', async () => {
    const r = await upload(['team-members', fixture('team-members.csv'), '--dry-run', '--no-baseline', '--json', '--baseline', 'missing-baseline.csv']);
    expect(r.code).toBe(3);
    expect(r.json().error.message).toMatch(/^--baseline missing-baseline\.csv: cannot read the file/);
  });

  it('a dry run finds errors: exit 3, as the real run would', async () => {
    const r = await upload(['team-members', fixture('team-members-invalid.csv'), '--dry-run', '--no-baseline']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/team-members-invalid\.csv:3 email: email 'bob@' is not an email address/);
  });

  it('there is no terminal to confirm and no --yes: exit 2', async () => {
    const r = await upload(['team-members', fixture('team-members.csv'), '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'NO_CONFIRMATION' } });
    expect(r.stderr).toContain('--yes');
    expect(await s.stored(MEMBERS)).toEqual([]);
  });

  it.each([
    ['no token', { UPLOAD_TOKEN: undefined }, [], 'NO_TOKEN'],
    ['no base URL', { UPLOAD_BASE_URL: undefined }, [], 'NO_BASE_URL'],
    ['plain http to a remote host', {}, ['--base-url', 'http://scheduling.example.com'], 'INSECURE_BASE_URL'],
    ['a bad --retries', {}, ['--retries', 'many'], 'BAD_FLAG'],
  ])('%s: exit 2', async (_, env, flags, code) => {
    const r = await upload(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--json', ...flags], env);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', exitCode: 2, error: { code } });
    expect(await s.stored(MEMBERS)).toEqual([]);
  });

  it('the file holds no records: refused with exit 4 unless --allow-empty', async () => {
    const r = await runCli(['team-members', '-', '--yes', '--no-baseline', '--json', '--state', s.stateDir], {
      env: s.env,
      input: 'employeeID,email,name\r\n',
    });
    expect(r.code).toBe(4);
    expect(r.json()).toMatchObject({ outcome: 'refused', error: { code: 'EMPTY_UPLOAD' } });
  });

  it('the file does not exist: exit 3 naming it', async () => {
    const r = await upload(['team-members', 'no-such-file.csv', '--yes', '--no-baseline', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error.message).toContain('no-such-file.csv');
  });
});

describe('a damaged store-card snapshot', () => {
  it('costs team members only the parentKey check, with a warning; the upload goes on', async () => {
    const { latestSnapshot } = await import('../helpers/state.js');
    expect((await upload(['store-cards', fixture('store-cards.csv'), '--yes', '--no-baseline'])).code).toBe(0);
    const snapshot = latestSnapshot(s.stateDir, s.url, 'store-cards')!;
    writeFileSync(snapshot, '[{"nodeKey": "S1", "email": ');
    const r = await upload(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/last store-card upload to .* cannot be read \(.*damaged.*\), so parentKeys are not checked against it/);
    expect(await s.stored(MEMBERS)).toEqual(expected('team-members.expected.json'));
  });
});

describe('the service says no', () => {
  it('a wrong token: exit 5, naming where the token came from but never the token', async () => {
    const r = await upload(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--json'], { UPLOAD_TOKEN: 'wrong-token-123' });
    expect(r.code).toBe(5);
    const report = r.json();
    expect(report).toMatchObject({ outcome: 'rejected', exitCode: 5, response: { status: 401 }, error: { code: 'UNAUTHORIZED' } });
    expect(report.error.message).toContain('UPLOAD_TOKEN');
    expect(r.stdout + r.stderr).not.toContain('wrong-token-123');
    expect(await s.stored(MEMBERS)).toEqual([]);
  });
});

describe('the command line', () => {
  it('no command at all is a usage error (exit 2), with the help on stderr', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: upload');
  });

  it('--help works straight after npm ci and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('team-members');
  });

  it('an unknown option is a usage error, and --json still prints one report', async () => {
    const r = await runCli(['team-members', 'x.csv', '--bogus', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', exitCode: 2, kind: 'team-members' });
  });

  it('prints a template for each kind', async () => {
    for (const kind of ['store-cards', 'team-members']) {
      const r = await runCli(['template', kind]);
      expect(r.code).toBe(0);
      expect(r.stdout.split('\r\n').filter(Boolean)).toHaveLength(2);
    }
    expect((await runCli(['template', 'stores'])).code).toBe(2);
  });
});

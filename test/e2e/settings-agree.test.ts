// `upload config` prints the record the runner resolves (src/config/settings.ts). This proves that the
// record is what a real run then uses, for each place a value can come from — a flag, the chosen
// target, an environment variable, the default: the same flags and environment are given to
// `upload config --json` and to a real upload against the sandbox, and the run's own evidence (the
// guard limits in its report, the store it recorded in, the service that received the records, the
// webhook that received the notification and in which format) is compared with the record.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { serversForFile, type ScriptedServer } from '../helpers/scripted-server.js';

const servers = serversForFile();
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

interface Setting {
  value: unknown;
  from: string;
}

const GUARDS = { maxRemovals: '--max-removals', maxChanges: '--max-changes', maxEmptied: '--max-emptied' } as const;
const hookPath = '/services/T0/B0/settingsSecretPath';

/** A mapping file whose `name` joins two columns, so that a run's report shows which one it read. */
function writeMap(path: string, columns: readonly string[]): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ name: columns }));
  return path;
}

/** A config file with a target for the sandbox whose every setting differs from the defaults. */
function writeConfig(dir: string, url: string, webhook: ScriptedServer): string {
  const path = join(dir, 'upload.config.json');
  writeMap(join(dir, 'maps', 'members.json'), ['name', 'roleCode']);
  const target = {
    baseUrl: url,
    state: 'target-state',
    tokenEnv: 'STAGING_TOKEN',
    map: { 'team-members': 'maps/members.json' },
    guards: { maxRemovals: 50, maxChanges: '60%', maxEmptied: '7' },
    notify: [`${webhook.url}${hookPath}`],
    notifyOn: 'always',
    notifyFormat: 'json',
  };
  writeFileSync(path, JSON.stringify({ targets: { staging: target } }), { mode: 0o600 });
  return path;
}

/**
 * `upload config --json` with the given flags and environment, then a real upload with the same ones;
 * checks that every value the run shows it used is the one the record names, and returns the record.
 */
async function agree(flags: readonly string[], env: Record<string, string>, webhook: ScriptedServer): Promise<Record<string, Setting>> {
  const shown = await runCli(['config', '--json', '--kind', 'team-members', ...flags], { env });
  expect(shown.code, shown.stderr).toBe(0);
  const settings = shown.json().settings as Record<string, Setting>;

  const file = writeMembers(sb!.dir, `members-${Math.random().toString(36).slice(2)}.csv`, range(1, 12));
  const hooked = webhook.requests.length;
  const run = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', ...flags], { env });
  expect(run.code, run.stderr).toBe(0);
  const report = run.json();
  expect(report.outcome).toBe('uploaded');

  // The guards: each limit the run was judged by is the record's, and so is --allow-empty.
  for (const [key, flag] of Object.entries(GUARDS)) {
    expect(report.guards.find((g: { flag: string }) => g.flag === flag)?.setting, key).toBe(settings[key]!.value);
  }
  expect(report.guards.find((g: { flag: string }) => g.flag === '--allow-empty')?.setting).toBe(settings.allowEmpty!.value);

  // The mapping: the file the record names is the one the run read (or none: each field its own column).
  const map = settings.map!.value;
  const nameColumns = map === null ? ['name'] : (JSON.parse(readFileSync(map as string, 'utf8')) as { name: string[] }).name;
  expect(report.mapping.find((m: { field: string }) => m.field === 'name')?.columns).toEqual(nameColumns);

  // The service: the records went to the address the record names (the sandbox holds them).
  expect(settings.baseUrl!.value).toBe(sb!.url);
  expect(await sb!.stored('/integrations/teamMembers')).toHaveLength(12);

  // The state store: the upload is recorded in the store the record names, and the generation is the run's.
  const history = await runCli(['history', 'team-members', '--json', '--state', String(settings.state!.value), '--base-url', sb!.url], { env: {} });
  expect(history.code, history.stderr).toBe(0);
  expect(history.json().generations[0].generation).toBe(report.generation);

  // The notification: sent where and as the record says, or not at all when it names no webhook.
  const posted = webhook.requests.slice(hooked);
  if ((settings.notify!.value as string[]).length === 0) expect(posted).toHaveLength(0);
  else {
    expect(settings.notify!.value).toEqual([`${new URL(webhook.url).origin}/***`]);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.url).toBe(hookPath);
    const body = JSON.parse(posted[0]!.body.toString('utf8')) as Record<string, unknown>;
    // slack: text and blocks; json: the summary itself.
    expect(settings.notifyFormat!.value === 'slack' ? 'blocks' in body : body.kind === 'team-members').toBe(true);
  }
  expect(shown.stdout + run.stdout + run.stderr).not.toContain('settingsSecretPath');
  expect(shown.stdout).not.toContain(TOKEN);
  return settings;
}

describe('upload config and a real run agree on every setting', () => {
  it('the defaults: every guard, the state folder of this system, no notification; the address from UPLOAD_BASE_URL', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 200, body: 'ok' });
    const xdg = join(sb.dir, 'xdg-state');
    const s = await agree([], { ...sb.env, XDG_STATE_HOME: xdg }, webhook);
    expect(s).toMatchObject({
      baseUrl: { from: 'UPLOAD_BASE_URL' },
      state: { value: join(xdg, 'scheduling-upload'), from: 'default' },
      tokenEnv: { value: 'UPLOAD_TOKEN', from: 'default' },
      map: { value: null, from: 'default' },
      token: { value: '$UPLOAD_TOKEN (set)', from: 'default' },
      maxRemovals: { value: '10%', from: 'default' },
      maxChanges: { value: '25%', from: 'default' },
      maxEmptied: { value: '5%', from: 'default' },
      allowEmpty: { value: false, from: 'default' },
      retries: { value: '4', from: 'default' },
      timeout: { value: '300', from: 'default' },
      notify: { value: [], from: 'default' },
      notifyOn: { value: 'failure', from: 'default' },
      notifyFormat: { value: 'json', from: 'default' },
    });
  });

  it('the environment: UPLOAD_STATE and the UPLOAD_NOTIFY variables', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 200, body: 'ok' });
    const env = {
      ...sb.env,
      UPLOAD_STATE: join(sb.dir, 'env-state'),
      UPLOAD_NOTIFY: `${webhook.url}${hookPath}`,
      UPLOAD_NOTIFY_ON: 'always',
      UPLOAD_NOTIFY_FORMAT: 'slack',
    };
    const s = await agree([], env, webhook);
    expect(s).toMatchObject({
      state: { value: join(sb.dir, 'env-state'), from: 'UPLOAD_STATE' },
      notify: { from: 'UPLOAD_NOTIFY' },
      notifyOn: { value: 'always', from: 'UPLOAD_NOTIFY_ON' },
      notifyFormat: { value: 'slack', from: 'UPLOAD_NOTIFY_FORMAT' },
    });
  });

  it('the chosen target, over the environment: its address, state (beside the config file), token variable, guards and notification', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 200, body: 'ok' });
    const folder = join(sb.dir, 'etc');
    mkdirSync(folder);
    const config = writeConfig(folder, sb.url, webhook);
    // The variables the target beats are set to something else; the token is only in the target's variable.
    const env = { STAGING_TOKEN: TOKEN, UPLOAD_STATE: join(sb.dir, 'env-state'), UPLOAD_NOTIFY_FORMAT: 'slack', UPLOAD_NOTIFY_ON: 'failure' };
    const s = await agree(['--config', config, '--target', 'staging'], env, webhook);
    const by = 'target staging';
    expect(s).toMatchObject({
      baseUrl: { value: sb.url, from: by },
      state: { value: join(folder, 'target-state'), from: by },
      map: { value: join(folder, 'maps', 'members.json'), from: by },
      tokenEnv: { value: 'STAGING_TOKEN', from: by },
      token: { value: '$STAGING_TOKEN (set)', from: by },
      maxRemovals: { value: '50', from: by },
      maxChanges: { value: '60%', from: by },
      maxEmptied: { value: '7', from: by },
      allowEmpty: { value: false, from: 'default' },
      notify: { from: by },
      notifyOn: { value: 'always', from: by },
      notifyFormat: { value: 'json', from: by },
    });
  });

  it('flags on the command line, over the target: --state, every guard, --allow-empty, the token, the notification', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 200, body: 'ok' });
    const config = writeConfig(sb.dir, sb.url, webhook);
    const env = { STAGING_TOKEN: 'not-the-token-at-all', FLAG_TOKEN: TOKEN };
    const map = writeMap(join(sb.dir, 'flag-map.json'), ['name', 'parentKey']);
    const flags = [
      '--config',
      config,
      '--target',
      'staging',
      '--base-url',
      sb.url,
      '--state',
      join(sb.dir, 'flag-state'),
      '--token-env',
      'FLAG_TOKEN',
      '--map',
      map,
    ];
    const guards = ['--max-removals', '3', '--max-changes', '40%', '--max-emptied', '0', '--allow-empty'];
    const notify = ['--notify', `${webhook.url}${hookPath}`, '--notify-on', 'change', '--notify-format', 'slack'];
    const s = await agree([...flags, ...guards, ...notify, '--retries', '1', '--timeout', '30'], env, webhook);
    expect(s).toMatchObject({
      baseUrl: { value: sb.url, from: '--base-url' },
      state: { value: join(sb.dir, 'flag-state'), from: '--state' },
      map: { value: map, from: '--map' },
      tokenEnv: { value: 'FLAG_TOKEN', from: '--token-env' },
      token: { value: '$FLAG_TOKEN (set)', from: '--token-env' },
      maxRemovals: { value: '3', from: '--max-removals' },
      maxChanges: { value: '40%', from: '--max-changes' },
      maxEmptied: { value: '0', from: '--max-emptied' },
      allowEmpty: { value: true, from: '--allow-empty' },
      retries: { value: '1', from: '--retries' },
      timeout: { value: '30', from: '--timeout' },
      notify: { from: '--notify' },
      notifyOn: { value: 'change', from: '--notify-on' },
      notifyFormat: { value: 'slack', from: '--notify-format' },
    });
  });

  it('--state-dir (the older name) is a flag like --state; both naming two stores is refused', async () => {
    sb = await sandbox();
    const older = await runCli(['config', '--json', '--state-dir', 'here'], { env: {} });
    expect(older.json().settings.state).toEqual({ value: join(process.cwd(), 'here'), from: '--state-dir' });
    const two = await runCli(['config', '--json', '--state', 'a', '--state-dir', 'b'], { env: {} });
    expect(two.code).toBe(2);
    expect(two.json().error.code).toBe('BAD_FLAG');
  });

  it("a protected target's own store is not replaced by --state or --state-dir: PROTECTED_TARGET, nothing written there", async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 200, body: 'ok' });
    const config = writeConfig(sb.dir, sb.url, webhook);
    const text = JSON.parse(readFileSync(config, 'utf8')) as { targets: Record<string, Record<string, unknown>> };
    text.targets.staging!.protected = true;
    writeFileSync(config, JSON.stringify(text), { mode: 0o600 });
    const file = writeMembers(sb.dir, 'a.csv', range(1, 3));
    const env = { STAGING_TOKEN: TOKEN };
    for (const flag of ['--state', '--state-dir']) {
      const elsewhere = join(sb.dir, `elsewhere${flag}`);
      const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--config', config, '--target', 'staging', flag, elsewhere], {
        env,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.json().error).toMatchObject({ code: 'PROTECTED_TARGET', hint: `drop ${flag}: a run at ${sb.url} uses the target's store` });
      expect(r.json().error.message).toContain(`(${flag} ${elsewhere})`);
      expect(existsSync(elsewhere)).toBe(false);
    }
    // Naming the target's own store (relative to the config file) is naming it: the run goes ahead.
    const own = await runCli(
      ['team-members', file, '--dry-run', '--no-baseline', '--json', '--config', config, '--target', 'staging', '--state', join(sb.dir, 'target-state')],
      { env },
    );
    expect(own.code, own.stderr).toBe(0);
  });

  it.each([
    ['a bad guard limit on the command line', ['--max-removals', 'lots'], {}, '--max-removals'],
    ['a bad count', ['--retries', '-1'], {}, '--retries'],
    ['a bad timeout', ['--timeout', '0'], {}, '--timeout'],
    ['a bad variable', [], { UPLOAD_NOTIFY_ON: 'sometimes' }, 'UPLOAD_NOTIFY_ON'],
  ] as const)('what a run refuses, upload config refuses with the same error: %s', async (_title, flags, extra, named) => {
    sb = await sandbox();
    const env = { ...sb.env, ...extra };
    const shown = await runCli(['config', '--json', ...flags], { env });
    const run = await runCli(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 3)), '--dry-run', '--no-baseline', '--json', ...flags], { env });
    expect(shown.code).toBe(2);
    expect(run.code).toBe(2);
    // The same refusal; a fix that is a whole command is each command's own, with the value joined.
    const { fixes: shownFixes, ...shownError } = shown.json().error as { fixes: { kind: string; args: string[] }[] };
    const { fixes: runFixes, ...runError } = run.json().error as { fixes: { kind: string; args: string[] }[] };
    expect(shownError).toEqual(runError);
    expect(shownFixes.map((f) => f.args.slice(-2))).toEqual(runFixes.map((f) => f.args.slice(-2)));
    expect(shown.json().error.message).toContain(named);
  });
});

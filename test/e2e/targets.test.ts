// Named targets from a config file: a target supplies the service, state, token source, mapping,
// limits and notifications; flags override it; a protected target is never chosen implicitly; a saved
// plan keeps its target; `upload config` shows the effective settings with the secrets redacted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { terminalUi } from '../../src/cli/terminal.js';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

/**
 * A config in the per-user place ($XDG_CONFIG_HOME), with a staging and a protected production target
 * at two addresses (a run at production's address is production, whatever it names: docs/targets.md).
 * Production is the sandbox unless the test sends to staging there instead.
 */
function writeConfig(
  s: TestSandbox,
  extra: Record<string, unknown> = {},
  defaultTarget?: string,
  at: { staging: string; production: string } = { staging: 'http://127.0.0.1:9', production: s.url },
): { env: Record<string, string>; path: string } {
  const home = join(s.dir, 'xdg');
  mkdirSync(join(home, 'scheduling-upload'), { recursive: true });
  const path = join(home, 'scheduling-upload', 'config.json');
  const config = {
    ...(defaultTarget ? { defaultTarget } : {}),
    targets: {
      staging: { baseUrl: at.staging, state: join(s.dir, 'state-staging'), tokenEnv: 'STAGING_TOKEN', guards: { maxRemovals: '50%' }, ...extra },
      production: {
        baseUrl: at.production,
        state: join(s.dir, 'state-prod'),
        tokenEnv: 'PROD_TOKEN',
        protected: true,
        notify: ['https://hooks.example.com/services/T1/B2/secretHookPath99'],
      },
    },
  };
  writeFileSync(path, JSON.stringify(config, null, 2));
  // No UPLOAD_BASE_URL and no UPLOAD_TOKEN: everything comes from the target.
  return { env: { XDG_CONFIG_HOME: home, STAGING_TOKEN: TOKEN, PROD_TOKEN: TOKEN }, path };
}

describe('a named target', () => {
  it('supplies the service, the state, the token variable and the limits; flags override it', async () => {
    sb = await sandbox();
    const { env } = writeConfig(sb, {}, undefined, { staging: sb.url, production: 'http://127.0.0.1:9' });
    const first = writeMembers(sb.dir, 'a.csv', range(1, 10));
    const r = await runCli(['team-members', first, '--yes', '--json', '--no-baseline', '--target', 'staging'], { env });
    expect(r.code).toBe(0);
    expect(r.json().generation).toBe(1);
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(10);
    // The target allows 50 % removals: 4 of 10 pass; --max-removals on the command line wins over it.
    const cut = writeMembers(sb.dir, 'b.csv', range(1, 6));
    const refused = await runCli(['team-members', cut, '--yes', '--json', '--target', 'staging', '--max-removals', '3'], { env });
    expect(refused.json().error.code).toBe('TOO_MANY_REMOVALS');
    expect((await runCli(['team-members', cut, '--yes', '--json', '--target', 'staging'], { env })).code).toBe(0);
  });

  it('UPLOAD_TARGET chooses it too; UPLOAD_BASE_URL naming another service is a question, not a precedence', async () => {
    sb = await sandbox();
    const { env } = writeConfig(sb, {}, undefined, { staging: sb.url, production: 'http://127.0.0.1:9' });
    const file = writeMembers(sb.dir, 'a.csv', range(1, 3));
    const elsewhere = await runCli(['team-members', file, '--yes', '--json', '--no-baseline'], {
      env: { ...env, UPLOAD_TARGET: 'staging', UPLOAD_BASE_URL: 'https://elsewhere.example.com' },
    });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.json().error).toMatchObject({
      code: 'CONFLICTING_ADDRESS',
      message: expect.stringContaining(`${sb.url} from the target 'staging' (chosen by UPLOAD_TARGET) and https://elsewhere.example.com from UPLOAD_BASE_URL`),
    });
    const r = await runCli(['team-members', file, '--yes', '--no-baseline'], { env: { ...env, UPLOAD_TARGET: 'staging', UPLOAD_BASE_URL: sb.url } });
    expect(r.code).toBe(0);
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(3);
  });

  it('names an unknown target and the config file', async () => {
    sb = await sandbox();
    const { env, path } = writeConfig(sb);
    const r = await runCli(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 3)), '--dry-run', '--json', '--target', 'prod'], { env });
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'UNKNOWN_TARGET' });
    expect(r.json().error.message).toContain(path);
    expect(r.json().error.message).toContain('staging, production');
  });
});

describe('a protected target', () => {
  it('is refused when chosen by UPLOAD_TARGET or defaultTarget, and nothing is sent', async () => {
    sb = await sandbox();
    const { env } = writeConfig(sb, {}, 'production');
    const file = writeMembers(sb.dir, 'a.csv', range(1, 3));
    for (const extra of [{}, { UPLOAD_TARGET: 'production' }]) {
      const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json'], { env: { ...env, ...extra } });
      expect(r.code).toBe(2);
      expect(r.json().error).toMatchObject({ code: 'PROTECTED_TARGET', hint: 'name it on the command line: --target production' });
    }
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    const named = await runCli(['team-members', file, '--yes', '--no-baseline', '--target', 'production'], { env });
    expect(named.code).toBe(0);
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(3);
  });

  it('is confirmed on a terminal by typing its name, not y', async () => {
    const ask = async (answer: string) => {
      const stdin = new PassThrough();
      const stderr = new PassThrough();
      let said = '';
      stderr.on('data', (b: Buffer) => (said += b.toString()));
      const ui = await terminalUi({ color: false, quiet: false, stdin: stdin as never, stderr: stderr as never, env: {}, redact: (t) => t });
      const pending = ui.confirm('Replace all team members?', 'production');
      stdin.write(`${answer}\n`);
      return { yes: await pending, said };
    };
    const typed = await ask('production');
    expect(typed.yes).toBe(true);
    expect(typed.said).toContain("This is the protected target 'production'. Type its name to go ahead:");
    expect((await ask('y')).yes).toBe(false);
    expect((await ask('Production')).yes).toBe(false);
  });

  it('keeps its name in a saved plan: apply refuses another target, and needs --target for a protected one', async () => {
    sb = await sandbox();
    const { env } = writeConfig(sb, { state: join(sb.dir, 'state-prod') });
    const plan = join(sb.dir, 'reviewed.plan.json');
    const file = writeMembers(sb.dir, 'a.csv', range(1, 3));
    const dry = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--plan-out', plan, '--target', 'production'], { env });
    expect(dry.code).toBe(0);
    const other = await runCli(['apply', plan, '--yes', '--json', '--target', 'staging'], { env });
    expect(other.json().error).toMatchObject({ code: 'PLAN_BASE_URL', message: expect.stringContaining("target 'production'") });
    // Its fix is the command for the plan's own target, as written.
    expect(other.json().error.fixes).toEqual([{ kind: 'command', args: ['apply', plan, '--target', 'production', '--yes'] }]);
    const implicit = await runCli(['apply', plan, '--yes', '--json', '--state', join(sb.dir, 'state-prod')], { env: { ...env, UPLOAD_TOKEN: TOKEN } });
    expect(implicit.json().error.code).toBe('PROTECTED_TARGET');
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    // Followed as given (the fix's own arguments, with --json to read the report): sent.
    const named = await runCli([...(other.json().error.fixes[0].args as string[]), '--json'], { env });
    expect(named.code, named.stderr).toBe(0);
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(3);
  });
});

describe('the config file', () => {
  it('is checked: an error names the file, the key and the fix', async () => {
    sb = await sandbox();
    const path = join(sb.dir, 'upload.config.json');
    writeFileSync(path, JSON.stringify({ targets: { prod: { baseURL: 'https://x.example.com' } } }));
    const r = await runCli(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 3)), '--dry-run', '--json', '--config', path], { env: {} });
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'BAD_CONFIG' });
    expect(r.json().error.message).toContain(`${path}: targets.prod`);
    expect(r.json().error.message).toContain("unknown key 'baseURL' (did you mean 'baseUrl'?)");
    writeFileSync(path, '{"targets": {');
    const broken = await runCli(['config', '--json', '--config', path], { env: {} });
    expect(broken.json().error.code).toBe('BAD_CONFIG');
    expect(broken.json().error.message).toContain('not valid JSON');
    // A bound for sending without a second person, on a target that asks for no second person.
    writeFileSync(path, JSON.stringify({ targets: { prod: { baseUrl: sb.url, autoApply: { maxAdded: 5, maxChanged: 2, maxRemoved: 0 } } } }));
    const lone = await runCli(['config', '--json', '--config', path, '--target', 'prod'], { env: {} });
    expect(lone.json().error).toMatchObject({ code: 'BAD_CONFIG', message: expect.stringContaining('targets.prod.autoApply') });
    expect(lone.json().error.message).toContain('"autoApply" goes with "approvals"');
  });

  it('upload config shows the effective settings and where each comes from, secrets redacted', async () => {
    sb = await sandbox();
    const { env } = writeConfig(sb);
    const r = await runCli(['config', '--json', '--target', 'production'], { env });
    expect(r.code).toBe(0);
    const c = r.json();
    expect(c).toMatchObject({ target: 'production', chosenBy: '--target', protected: true });
    expect(c.settings.baseUrl).toEqual({ value: sb.url, from: 'target production' });
    expect(c.settings.token).toEqual({ value: '$PROD_TOKEN (set)', from: 'target production' });
    expect(c.settings.notify).toEqual({ value: ['https://hooks.example.com/***'], from: 'target production' });
    expect(r.stdout).not.toContain('secretHookPath99');
    expect(r.stdout).not.toContain(TOKEN);
    const human = await runCli(['config', '--target', 'staging'], { env });
    expect(human.stdout).toContain('Target: staging (chosen by --target)');
    expect(human.stdout).toMatch(/baseUrl\s+http:\/\/127\.0\.0\.1:\d+\s+← target staging/);
    // What a run would refuse, upload config refuses too.
    const conflicting = await runCli(['config', '--json', '--target', 'production'], { env: { ...env, UPLOAD_BASE_URL: 'https://elsewhere.example.com' } });
    expect(conflicting.json().error.code).toBe('CONFLICTING_ADDRESS');
  });
});

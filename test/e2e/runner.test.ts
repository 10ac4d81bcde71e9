// The one runner (src/cli/runner.ts): every command is a file of src/commands/, and every command that
// touches a store or the service takes --config, --target, --state and --json the same way. Run through
// the real CLI against the real sandbox.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/cli/table.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const STORES = ['nodeKey,email,storeConceptCode,Mo-Su', 'S1,s1@example.com,12,09:00-18:00', 'S2,s2@example.com,13,09:00-18:00'].join('\n');

/** A config beside the files with one target: the sandbox and a state directory of its own. */
function configWith(dir: string, url: string, state: string): string {
  const path = join(dir, 'targets.json');
  writeFileSync(path, JSON.stringify({ targets: { staging: { baseUrl: url, state, tokenEnv: 'STAGING_TOKEN' } } }));
  return path;
}

describe('the commands', () => {
  it('are the files of src/commands/, each with its own --help', async () => {
    const files = readdirSync(join(ROOT, 'src', 'commands'))
      .filter((f) => f.endsWith('.ts')) // commands/shared/ is what they share, not a command
      .map((f) => f.replace(/\.ts$/, ''));
    const commands = await loadCommands();
    expect(commands.map(([name]) => name).sort()).toEqual(files.sort());
    for (const [name, spec] of commands) {
      expect(spec.usage.split(' ')[0]).toBe(name);
      const r = await runCli([name, '--help']);
      expect(r.code, name).toBe(0);
      expect(r.stdout).toContain(`Usage: upload ${name}`);
    }
  });
});

describe('every command that touches a store takes --config, --target and --json', () => {
  it('export, history, state and state resolve find the store and the service through the target', async () => {
    sb = await sandbox();
    const state = join(sb.dir, 'staging-state');
    const config = configWith(sb.dir, sb.url, state);
    const env = { STAGING_TOKEN: TOKEN };
    const stores = join(sb.dir, 'stores.csv');
    writeFileSync(stores, `${STORES}\n`);
    const up = await runCli(['store-cards', stores, '--yes', '--no-baseline', '--json', '--config', config, '--target', 'staging'], { env });
    expect(up.code, up.stderr).toBe(0);

    const out = join(sb.dir, 'out.csv');
    const exported = await runCli(['export', 'store-cards', out, '--config', config, '--target', 'staging', '--json'], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.json()).toMatchObject({ kind: 'store-cards', generation: 1, records: 2, format: 'csv', output: out, mode: '0600' });

    const history = await runCli(['history', 'store-cards', '--config', config, '--target', 'staging', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.json()).toMatchObject({ kind: 'store-cards', generations: [{ generation: 1 }] });

    const copy = join(sb.dir, 'copy');
    const copied = await runCli(['state', '--to', copy, '--config', config, '--target', 'staging', '--json'], { env });
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.json()).toMatchObject({ keys: 1, generations: 1 });
    const fromCopy = await runCli(['export', 'store-cards', '--state', copy, '--base-url', sb.url, '--json', '--output', join(sb.dir, 'copy.csv')], { env });
    expect(fromCopy.json()).toMatchObject({ generation: 1, records: 2 });

    // Nothing is pending: resolve says so, as a report with the code.
    const resolve = await runCli(['state', 'resolve', 'store-cards', '--sent', '--config', config, '--target', 'staging', '--json'], { env });
    expect(resolve.code).not.toBe(0);
    expect(resolve.json()).toMatchObject({ outcome: expect.any(String), error: { code: expect.any(String) } });
  });

  it('a failing command prints one JSON report with its error code, whichever command it is', async () => {
    sb = await sandbox();
    for (const args of [
      ['export', 'team-members', '--json', '--output', join(sb.dir, 'x.csv')],
      ['history', 'team-members', '--json', '--target', 'nowhere'],
      ['state', '--json'],
      ['config', '--json', '--target', 'nowhere'],
    ]) {
      const r = await runCli([...args, '--state', sb.stateDir], { env: sb.env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.json(), args.join(' ')).toMatchObject({ outcome: 'usage-error', error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it('export --json refuses to share standard output with the records', async () => {
    sb = await sandbox();
    const r = await runCli(['export', 'team-members', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ error: { code: 'BAD_FLAG' } });
  });
});

describe('upload config', () => {
  it("shows every guard's limit with where it comes from, the defaults included", async () => {
    const r = await runCli(['config', '--json'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().settings).toMatchObject({
      maxRemovals: { value: '10%', from: 'default' },
      maxChanges: { value: '25%', from: 'default' },
      maxEmptied: { value: '5%', from: 'default' },
      allowEmpty: { value: false, from: 'default' },
    });
    const human = await runCli(['config'], { env: {} });
    expect(human.stdout).toMatch(/maxChanges +25% +← default/);
    expect(human.stdout).toMatch(/maxEmptied +5% +← default/);
    // Where each value comes from, in one column a person reads down.
    const arrows = human.stdout.split('\n').filter((l) => l.includes('← '));
    expect(arrows.length).toBeGreaterThan(10);
    expect(new Set(arrows.map((l) => l.indexOf('← '))).size).toBe(1);
  });
});

// An address is its target however it is written (docs/targets.md, "What is matched"): a protected
// target written `localhost` is the run at 127.0.0.1, localhost., [::ffff:127.0.0.1] or in capitals on
// its port — refused until it is named, then sent, its history under the target's one address — and
// another port is another service, sent to as such. Each is checked against what the sandboxes hold.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';

let production: TestSandbox;
let other: TestSandbox;
let env: Record<string, string>;

type Report = { error: { code: string; fixes: { kind: string; args: string[] }[] }; generations: unknown[] };

beforeAll(async () => {
  [production, other] = await Promise.all([sandbox(), sandbox()]);
  const home = join(production.dir, 'xdg');
  mkdirSync(join(home, 'scheduling-upload'), { recursive: true });
  const port = new URL(production.url).port;
  const config = { targets: { production: { baseUrl: `http://localhost:${port}`, state: join(production.dir, 'state'), protected: true } } };
  writeFileSync(join(home, 'scheduling-upload', 'config.json'), JSON.stringify(config));
  env = { XDG_CONFIG_HOME: home, UPLOAD_TOKEN: TOKEN };
});

afterAll(async () => {
  await Promise.all([production?.stop(), other?.stop()]);
});

describe('a protected target written localhost', () => {
  it('is the run at each spelling of its address: refused unnamed, sent once named, one history', async () => {
    const port = new URL(production.url).port;
    const spellings = [`http://127.0.0.1:${port}`, `http://localhost.:${port}`, `http://[::ffff:127.0.0.1]:${port}`, `HTTP://LOCALHOST:${port}/`];
    for (const [i, address] of spellings.entries()) {
      const file = writeMembers(production.dir, `s${i}.csv`, range(1, 10 + i));
      const before = await production.stored('/integrations/teamMembers');
      const unnamed = await runCli(['team-members', file, '--base-url', address, '--no-baseline', '--yes', '--json'], { env });
      expect(unnamed.code, `${address}: ${unnamed.stderr}`).toBe(2);
      const { error } = unnamed.json<Report>();
      expect(error.code).toBe('PROTECTED_TARGET');
      expect(await production.stored('/integrations/teamMembers')).toEqual(before);
      // Its fix, as data: name the target. Then it is sent, with no question of two addresses.
      expect(error.fixes).toEqual([{ kind: 'flags', args: ['--target', 'production'] }]);
      const named = await runCli(['team-members', file, '--base-url', address, '--no-baseline', '--yes', '--json', ...error.fixes[0]!.args], { env });
      expect(named.code, `${address}: ${named.stderr}`).toBe(0);
      expect(await production.stored('/integrations/teamMembers')).toHaveLength(10 + i);
    }
    // Every upload is in the target's one history, whichever spelling sent it.
    const history = await runCli(['history', 'team-members', '--target', 'production', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.json<Report>().generations).toHaveLength(spellings.length);
  });

  it('is not the service on another port of the same host: that one is sent to as itself', async () => {
    const file = writeMembers(other.dir, 'other.csv', range(1, 7));
    const before = await production.stored('/integrations/teamMembers');
    const r = await runCli(['team-members', file, '--base-url', other.url, '--state', join(other.dir, 'state'), '--no-baseline', '--yes', '--json'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await other.stored('/integrations/teamMembers')).toHaveLength(7);
    expect(await production.stored('/integrations/teamMembers')).toEqual(before);
  });

  it('applies a plan given its address in another spelling, and refuses another port (PLAN_BASE_URL)', async () => {
    const state = ['--state', join(other.dir, 'state')];
    const file = writeMembers(other.dir, 'more.csv', range(1, 9));
    const port = new URL(other.url).port;
    const planned = await runCli(['team-members', file, '--base-url', other.url, ...state, '--dry-run', '--plan-out', join(other.dir, 'more.plan.json')], {
      env,
    });
    expect(planned.code, planned.stderr).toBe(0);
    const elsewhere = await runCli(['apply', join(other.dir, 'more.plan.json'), '--base-url', production.url, ...state, '--yes', '--json'], { env });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.json<Report>().error.code).toBe('PLAN_BASE_URL');
    expect(await other.stored('/integrations/teamMembers')).toHaveLength(7);
    const applied = await runCli(['apply', join(other.dir, 'more.plan.json'), '--base-url', `http://[::ffff:127.0.0.1]:${port}/`, ...state, '--yes'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await other.stored('/integrations/teamMembers')).toHaveLength(9);
  });
});

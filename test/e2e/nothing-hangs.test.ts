// A plan file or a plan's body that is a FIFO, a device or a directory is refused at once (NOT_A_FILE,
// exit 2), like a config or token file: nothing waits for a writer that never comes. And a run given
// SIGTERM while it waits ends within a bounded time.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.stop();
});

/** A plan made by a dry run, in a folder of its own. */
async function makePlan(): Promise<{ dir: string; plan: string; body: string }> {
  const dir = tempDir().dir;
  const file = writeMembers(dir, 'staff.csv', range(1, 5));
  const plan = join(dir, 'nightly.plan.json');
  const made = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--plan-out', plan, '--state', join(dir, 'state')], { env: sb.env });
  expect(made.code, made.stderr).toBe(0);
  const body = readdirSync(dir).find((f) => f.endsWith('.body.json'))!;
  return { dir, plan, body: join(dir, body) };
}

describe('plan files are opened like config files', () => {
  for (const command of ['apply', 'approve'] as const) {
    it(`${command}: a plan that is a FIFO is NOT_A_FILE at once`, async () => {
      const { dir } = await makePlan();
      const fifo = join(dir, 'pipe.plan.json');
      execFileSync('mkfifo', [fifo]);
      const run = await runCli([command, fifo, '--yes', '--json', '--state', join(dir, 'state')], { env: sb.env });
      expect(run.code).toBe(2);
      expect(run.json().error).toMatchObject({ code: 'NOT_A_FILE' });
      expect(run.json().error.message).toContain(fifo);
    });

    it(`${command}: a plan whose body is a FIFO or a directory is NOT_A_FILE at once`, async () => {
      for (const make of [(path: string) => execFileSync('mkfifo', [path]), (path: string) => mkdirSync(path)]) {
        const { dir, plan, body } = await makePlan();
        renameSync(body, `${body}.moved`);
        make(body);
        const run = await runCli([command, plan, '--yes', '--json', '--state', join(dir, 'state')], { env: sb.env });
        expect(run.code).toBe(2);
        expect(run.json().error).toMatchObject({ code: 'NOT_A_FILE' });
        expect(run.json().error.message).toContain(body);
      }
    });
  }

  it('a plan given as a directory or a device is NOT_A_FILE', async () => {
    const { dir } = await makePlan();
    for (const path of [dir, '/dev/zero']) {
      const run = await runCli(['apply', path, '--yes', '--json', '--state', join(dir, 'state')], { env: sb.env });
      expect(run.code).toBe(2);
      expect(run.json().error).toMatchObject({ code: 'NOT_A_FILE' });
    }
  });
});

// "Nothing recorded yet" is one answer on every command that builds on the recorded uploads: restore,
// export, remove, a merge and apply all end NO_HISTORY, exit 2, with nothing sent and nothing written.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const MEMBERS = ['employeeID,email,name,roleCode,parentKey', 'E1,e1@example.com,Ann,3,S1', 'E2,e2@example.com,Bo,3,S1'].join('\n');

describe('nothing recorded yet', () => {
  it('is NO_HISTORY, exit 2, on restore, export, remove, merge and apply', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'staff.csv');
    writeFileSync(file, `${MEMBERS}\n`);
    // A plan made against upload #1 of one store, applied with another store where nothing is recorded.
    const made = join(sb.dir, 'made');
    expect((await runCli(['team-members', file, '--yes', '--no-baseline', '--state', made], { env: sb.env })).code).toBe(0);
    const plan = join(sb.dir, 'reviewed.plan.json');
    expect((await runCli(['team-members', file, '--dry-run', '--plan-out', plan, '--state', made], { env: sb.env })).code).toBe(0);

    const empty = join(sb.dir, 'empty');
    for (const args of [
      ['restore', 'team-members', '--yes'],
      ['export', 'team-members', '--output', join(sb.dir, 'out.csv')],
      ['remove', 'team-members', 'E1', '--yes'],
      ['team-members', file, '--merge', '--yes'],
      ['apply', plan, '--yes'],
    ]) {
      const r = await runCli([...args, '--json', '--state', empty], { env: sb.env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.json().error, args.join(' ')).toMatchObject({
        code: 'NO_HISTORY',
        message: expect.stringMatching(/^no upload of team members to .* is recorded in .*, so there is nothing /),
        hint: expect.stringContaining('upload history team-members'),
      });
    }
    expect(existsSync(join(sb.dir, 'out.csv'))).toBe(false);
    // Nothing was sent: the service still holds the first upload.
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(2);
  });
});

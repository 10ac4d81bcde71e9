// A file re-saved by a spreadsheet turned `000100` into `100`: against the last upload that reads as 40
// removals and 40 additions. It is refused as LEADING_ZEROS_LOST, naming pairs and how to keep IDs as
// text — never with advice to raise --max-removals, and not held back by --hold-removals either.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range } from '../helpers/members.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const members = (ids: string[]) => ['employeeID,email,name', ...ids.map((k, i) => `${k},p${i}@example.com,Person ${i}`)].join('\n') + '\n';
const padded = (n: number) => String(n).padStart(6, '0');

async function start(keys: string[]) {
  sb = await sandbox();
  const run = (args: string[]) => runCli([...args, '--state', sb!.stateDir], { env: sb!.env });
  const first = join(sb.dir, 'export.csv');
  writeFileSync(first, members(keys));
  expect((await run(['team-members', first, '--yes', '--no-baseline'])).code).toBe(0);
  return { s: sb, run };
}

describe('keys that lost their leading zeros', () => {
  it('are refused as LEADING_ZEROS_LOST, with pairs and the way to keep IDs as text', async () => {
    const { s, run } = await start(range(100, 139).map(padded));
    const resaved = join(s.dir, 'resaved.csv');
    writeFileSync(resaved, members(range(100, 139).map(String)));
    for (const extra of [[], ['--hold-removals']]) {
      const r = await run(['team-members', resaved, '--yes', '--json', ...extra]);
      expect(r.code, r.stderr).toBe(4);
      const { error } = r.json();
      expect(error.code).toBe('LEADING_ZEROS_LOST');
      expect(error.message).toContain('40 employeeIDs of upload #1 reappear in the file without their leading zeros');
      expect(error.message).toContain("'000100' → '100', '000101' → '101'");
      expect(error.hint).toMatch(/Text/);
      expect(error.hint).toMatch(/LibreOffice/);
      expect(error.hint).toMatch(/--format/);
      // Never the advice to allow the removals.
      expect(r.stdout + r.stderr).not.toMatch(/--max-removals 40|with --max-removals/);
    }
    expect(await s.stored('/integrations/teamMembers')).toHaveLength(40);
  });

  it('are refused also when the removals are few, and when the file pads keys that had no zeros', async () => {
    const { s, run } = await start(['100', '200', ...range(1, 30).map((n) => `E${n}`)]);
    const file = join(s.dir, 'padded.csv');
    writeFileSync(file, members(['000100', '200', ...range(1, 30).map((n) => `E${n}`)]));
    const r = await run(['team-members', file, '--dry-run', '--json', '--max-removals', '5']);
    expect(r.code).toBe(4);
    expect(r.json().error.message).toContain("'100' → '000100'");
  });

  it('leave a file alone that keeps both forms as different records', async () => {
    const { s, run } = await start(['100', '000100']);
    const file = join(s.dir, 'both.csv');
    writeFileSync(file, members(['100', '000100', '0200']));
    const r = await run(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(0);
  });
});

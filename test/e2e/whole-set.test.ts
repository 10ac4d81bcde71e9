// A merge, a removal and held removals send a set made of the file and the recorded upload: it is
// checked whole for a key or an email held twice before anything is sent, the dry run included. A
// mistyped key in `upload remove` is named with the recorded keys it may have meant.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { id, range, writeMembers } from '../helpers/members.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

async function start() {
  sb = await sandbox();
  const run = (args: string[]) => runCli([...args, '--state', sb!.stateDir], { env: sb!.env });
  expect((await run(['team-members', writeMembers(sb.dir, 'all.csv', range(1, 5)), '--yes', '--no-baseline'])).code).toBe(0);
  return { s: sb, run };
}

describe('the whole set that will be sent is unique', () => {
  it('--merge: a new hire given the email of someone kept is an error in the dry run, naming both', async () => {
    const { s, run } = await start();
    const file = join(s.dir, 'new.csv');
    writeFileSync(file, `employeeID,email,name\n${id(99)},M3@example.com,New Hire\n`);
    const dry = await run(['team-members', file, '--merge', '--dry-run', '--json']);
    expect(dry.code).toBe(3);
    const { error } = dry.json();
    expect(error.code).toBe('DUPLICATE_IN_SET');
    expect(error.message).toContain(`email 'M3@example.com' on employeeID '${id(3)}' (kept from upload #1) and on '${id(99)}' (${file} line 2)`);
    const real = await run(['team-members', file, '--merge', '--yes', '--json']);
    expect(real.code).toBe(3);
    expect(await s.stored('/integrations/teamMembers')).toHaveLength(5);
  });

  it('--hold-removals: a record held back clashes with a new one of the same email', async () => {
    const { s, run } = await start();
    const file = join(s.dir, 'nightly.csv');
    writeFileSync(
      file,
      `employeeID,email,name\n${id(1)},m1@example.com,A\n${id(2)},m2@example.com,B\n${id(3)},m3@example.com,C\n${id(50)},m5@example.com,Rehired\n`,
    );
    const r = await run(['team-members', file, '--hold-removals', '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error.message).toContain(`email 'm5@example.com' on employeeID '${id(50)}' (${file} line 5) and on '${id(5)}' (kept from upload #1)`);
  });

  it('upload remove: a mistyped key is named with the keys it may have meant', async () => {
    const { run } = await start();
    const r = await run(['remove', 'team-members', 'e0003', 'E003', 'X9', '--dry-run', '--json']);
    expect(r.code).toBe(3);
    const { error } = r.json();
    expect(error.code).toBe('UNKNOWN_KEY');
    expect(error.message).toContain(`'e0003': did you mean '${id(3)}'?`);
    expect(error.message).toContain(`'E003': did you mean '${id(3)}'?`);
    expect(error.message).not.toContain("'X9': did you mean");
  });
});

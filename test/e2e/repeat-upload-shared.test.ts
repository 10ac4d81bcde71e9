// A repeat upload keeps the records the last upload holds as views of the snapshot's bytes
// (Bodies.shareWith; test/unit/shared-bodies.test.ts checks the bytes piece by piece). Here the real
// CLI sends a file of several chunks, changed in every way a nightly export changes, against its last
// upload: the body it writes and the set the sandbox holds must be exactly those of the same file
// planned with nothing to compare with.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { membersCsv, range, writeMembers } from '../helpers/members.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

describe('a repeat upload sends the file’s own bytes, whatever it shares with the last upload', () => {
  it('changed, new, removed and moved members over several chunks', async () => {
    sb = await sandbox();
    const s = sb;
    const run = (args: string[], state = s.stateDir) => runCli([...args, '--state', state], { env: s.env });
    // About 80 bytes a member: three full chunks of 256 KiB.
    const first = range(1, 10_000);
    expect((await run(['team-members', writeMembers(s.dir, 'first.csv', first), '--yes', '--no-baseline'])).code).toBe(0);

    const next = first.filter((n) => n % 2_500 !== 7); // four leave
    next.splice(5_000, 0, 20_001, 20_002); // two join mid-file
    next.push(...next.splice(100, 40)); // forty move to the end
    const file = writeMembers(s.dir, 'next.csv', next, [3, 4_000, 9_999]); // three renamed

    const sharing = join(s.dir, 'sharing.json');
    const dry = await run(['team-members', file, '--dry-run', '--json', '--max-removals', '10', '--payload-out', sharing]);
    expect(dry.code).toBe(0);
    expect(dry.json().diff).toMatchObject({ added: 2, removed: 4, changed: 3, unchanged: next.length - 5 });
    // The same file, with no upload to compare with: nothing shared.
    const alone = join(s.dir, 'alone.json');
    expect((await run(['team-members', file, '--dry-run', '--json', '--no-baseline', '--payload-out', alone], join(s.dir, 'empty-state'))).code).toBe(0);
    expect(readFileSync(sharing).equals(readFileSync(alone))).toBe(true);

    const real = await run(['team-members', file, '--yes', '--json', '--max-removals', '10']);
    expect(real.code).toBe(0);
    expect(await s.stored('/integrations/teamMembers')).toEqual(JSON.parse(readFileSync(alone, 'utf8')));
  });

  it('a first member whose record is larger than a chunk of the body (a 50,000-character name)', async () => {
    sb = await sandbox();
    const s = sb;
    const run = (args: string[], state = s.stateDir) => runCli([...args, '--state', state], { env: s.env });
    const rows = [
      'employeeID,email,name,roleCode,parentKey',
      `E0,m0@example.com,${'X'.repeat(50_000)},3,STORE-001`,
      ...membersCsv(range(1, 4_000)).split('\n').slice(1, -1),
    ];
    const first = join(s.dir, 'first.csv');
    writeFileSync(first, `${rows.join('\n')}\n`);
    expect((await run(['team-members', first, '--yes', '--no-baseline'])).code).toBe(0);
    rows[1_501] = rows[1_501]!.replace('Member', 'Renamed');
    const file = join(s.dir, 'next.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);

    const dry = await run(['team-members', file, '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json().diff).toMatchObject({ added: 0, removed: 0, changed: 1, unchanged: 4_000 });
    const real = await run(['team-members', file, '--yes', '--json']);
    expect(real.code).toBe(0);
    const alone = join(s.dir, 'alone.json');
    expect((await run(['team-members', file, '--dry-run', '--json', '--no-baseline', '--payload-out', alone], join(s.dir, 'empty-state'))).code).toBe(0);
    expect(await s.stored('/integrations/teamMembers')).toEqual(JSON.parse(readFileSync(alone, 'utf8')));
  });
});

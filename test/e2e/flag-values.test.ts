// A flag that takes a value never takes the next option as its value (src/cli/argv.ts): a forgotten
// file name after --report-html used to turn `--dry-run --yes` into a real upload and a file named
// `--dry-run`. Real runs of a valid file, which a real upload would send, to a real sandbox that must
// hold nothing afterwards, in a folder of their own that must stay empty.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

/** `upload team-members FILE` with these words, a first upload to a fresh sandbox, run in an empty folder. */
async function run(file: string, words: readonly string[]) {
  sb = await sandbox();
  const cwd = tempDir().dir;
  const r = await runCli(['team-members', file, ...words, '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env, cwd });
  return { r, cwd, stored: await sb.stored('/integrations/teamMembers') };
}

describe('a value flag before --dry-run is a usage error, and nothing is sent or written', () => {
  it.each([['--report-html'], ['--payload-out'], ['--diff-out'], ['--errors-csv'], ['--ignore-column']])('%s --dry-run --yes', async (flag) => {
    const { r, cwd, stored } = await run(fixture('team-members.csv'), [flag, '--dry-run', '--yes']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({
      outcome: 'usage-error',
      error: { code: 'BAD_USAGE', message: expect.stringContaining(`${flag} needs a value`), fixes: [] },
    });
    expect(r.json().error.message).toContain("followed by '--dry-run', which is an option, not a value");
    expect(stored).toEqual([]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('the same file and words with the value given is the dry run that was meant: nothing sent, the page written', async () => {
    const { r, cwd, stored } = await run(fixture('team-members.csv'), ['--report-html', 'review.html', '--dry-run', '--yes']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ outcome: 'dry-run' });
    expect(stored).toEqual([]);
    expect(readdirSync(cwd)).toEqual(['review.html']);
  });
});

describe('a value that starts with a dash is written joined, as the fix says', () => {
  it('--errors-csv -rejected.csv is refused with the joined form as its fix; following it writes -rejected.csv', async () => {
    const words = ['--errors-csv', '-rejected.csv', '--dry-run', '--yes'];
    const first = await run(fixture('team-members-invalid.csv'), words);
    expect(first.r.code).toBe(2);
    const { error } = first.r.json();
    expect(error).toMatchObject({
      code: 'BAD_USAGE',
      hint: "if '-rejected.csv' is the value, write it joined: --errors-csv=-rejected.csv; if not, give --errors-csv its <file> first",
    });
    expect(readdirSync(first.cwd)).toEqual([]);

    // The fix is the whole command again (the arguments after `upload`): run as given, in the same folder.
    expect(error.fixes).toEqual([
      {
        kind: 'command',
        args: [
          'team-members',
          fixture('team-members-invalid.csv'),
          '--errors-csv=-rejected.csv',
          '--dry-run',
          '--yes',
          '--no-baseline',
          '--json',
          '--state',
          sb!.stateDir,
        ],
      },
    ]);
    const again = await runCli(error.fixes[0].args, { env: sb!.env, cwd: first.cwd });
    expect(again.code).toBe(3);
    expect(again.json()).toMatchObject({ outcome: 'invalid', error: { code: 'INVALID_RECORDS' } });
    expect(readdirSync(first.cwd)).toEqual(['-rejected.csv']);
    expect(readFileSync(join(first.cwd, '-rejected.csv'), 'utf8')).toContain('E1002');
    expect(await sb!.stored('/integrations/teamMembers')).toEqual([]);
  });
});

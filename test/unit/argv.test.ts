// The command line read against the table of flags (src/cli/argv.ts), with the real command files: the
// forms people and scripts type, and a usage error naming the word for each mistake.
import { describe, expect, it } from 'vitest';
import { parseLine } from '../../src/cli/argv.js';
import { FLAGS } from '../../src/cli/flags.js';
import { count } from '../../src/commands/shared/parse.js';
import { loadCommand, loadCommands } from '../../src/cli/table.js';
import { defaultOf } from '../../src/config/settings.js';
import { flagArgs, UsageError } from '../../src/errors.js';

const line = async (name: string, words: string[]) => parseLine(name, await loadCommand(name), words);

async function refused(name: string, words: string[], code = 'BAD_USAGE'): Promise<UsageError> {
  const failure = await line(name, words).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(failure).toBeInstanceOf(UsageError);
  expect((failure as UsageError).code).toBe(code);
  return failure as UsageError;
}

describe('reading a command line', () => {
  it('takes flags before, between and after the arguments, in both value forms', async () => {
    const { args, flags, given } = await line('team-members', ['--sheet', 'Staff', 'staff.xlsx', '--max-removals=5', '--dry-run']);
    expect(args).toEqual(['staff.xlsx']);
    expect(flags).toMatchObject({ sheet: 'Staff', maxRemovals: '5', dryRun: true });
    expect(given('sheet')).toBe(true);
    expect(given('json')).toBe(false);
  });

  it('fills in the defaults of the table, and says they were not given', async () => {
    const { flags, given } = await line('team-members', ['staff.csv']);
    expect(flags.tokenEnv).toBe('UPLOAD_TOKEN');
    expect(flags.retries).toBe(defaultOf('retries'));
    expect(given('tokenEnv')).toBe(false);
    expect(given('retries')).toBe(false);
  });

  it('reads short flags alone and together, and a short flag with its value attached or next', async () => {
    expect((await line('team-members', ['-nyq', 'staff.csv'])).flags).toMatchObject({ dryRun: true, yes: true, quiet: true });
    expect((await line('export', ['team-members', '-oout.csv'])).flags.output).toBe('out.csv');
    expect((await line('export', ['team-members', '-q', '-o', 'out.csv'])).flags).toMatchObject({ output: 'out.csv', quiet: true });
  });

  it('gives a value flag - (standard input) as its next word, and a value that starts with a dash when joined by =', async () => {
    expect((await line('team-members', ['staff.csv', '--token-file', '-'])).flags.tokenFile).toBe('-');
    expect((await line('team-members', ['staff.csv', '--active=-x-'])).flags.active).toBe('-x-');
    expect((await line('export', ['team-members', '-o-x.csv'])).flags.output).toBe('-x.csv');
    expect((await line('team-members', ['staff.csv', '--delimiter', ';'])).flags.delimiter).toBe(';');
    expect((await line('team-members', ['-', '--dry-run'])).args).toEqual(['-']);
  });

  it('collects a repeatable flag in order, and keeps --no-baseline apart from --baseline', async () => {
    const { flags, given } = await line('team-members', ['a.csv', '--ignore-column', 'Notes', '--ignore-column=Bemerkung', '--no-baseline']);
    expect(flags.ignoreColumn).toEqual(['Notes', 'Bemerkung']);
    expect(flags.noBaseline).toBe(true);
    expect(flags.baseline).toBeUndefined();
    expect(given('baseline')).toBe(false);
  });

  it('takes the words after -- as arguments, even when they start with a dash', async () => {
    expect((await line('team-members', ['--dry-run', '--', '--staff.csv'])).args).toEqual(['--staff.csv']);
    expect((await line('remove', ['team-members', '--', '-E1', 'E2'])).args).toEqual(['team-members', ['-E1', 'E2']]);
  });

  it('accepts a hidden older name (--state-dir)', async () => {
    expect((await line('history', ['team-members', '--state-dir', '/tmp/s'])).flags.stateDir).toBe('/tmp/s');
  });

  it('gives every key to a variadic argument, and an empty list when there are none', async () => {
    expect((await line('remove', ['team-members', 'E1', 'E2', '--dry-run'])).args).toEqual(['team-members', ['E1', 'E2']]);
    expect((await line('remove', ['team-members', '--keys-file', 'k.txt'])).args).toEqual(['team-members', []]);
  });
});

describe('a mistake on the command line is a usage error that names it', () => {
  it('an option the command does not have, with the nearest one it has', async () => {
    const typo = await refused('team-members', ['staff.csv', '--dry-rn']);
    expect(typo.message).toBe('--dry-rn is not an option of team-members');
    expect(typo.hint).toContain('did you mean --dry-run?');
    const far = await refused('team-members', ['staff.csv', '--frobnicate']);
    expect(far.hint).toBe('run: upload team-members --help');
    expect((await refused('history', ['team-members', '-z'])).message).toBe('-z is not an option of history');
  });

  it('an option of another command is not one of this command', async () => {
    expect((await refused('history', ['team-members', '--yes'])).message).toBe('--yes is not an option of history');
  });

  it('a value flag with no value, and a plain flag given one', async () => {
    expect((await refused('team-members', ['staff.csv', '--sheet'])).message).toBe('--sheet needs a value: --sheet <name|n>');
    expect((await refused('team-members', ['staff.csv', '--json=yes'])).message).toBe("--json takes no value, and was given 'yes'");
  });

  it('a value that is not one of the choices, naming them (BAD_FLAG, as any bad value of a flag)', async () => {
    const bad = await refused('team-members', ['staff.csv', '--format', 'xls'], 'BAD_FLAG');
    expect(bad.message).toBe("--format 'xls' is not one of: csv, json, ndjson, xlsx");
  });

  it('a missing argument, with the usage', async () => {
    expect((await refused('team-members', ['--dry-run'])).message).toBe('team-members needs <file>: upload team-members <file>');
  });

  it('a word too many, quoted, with the advice to quote a value that has spaces', async () => {
    const extra = await refused('history', ['team-members', 'Nord', 'Ost']);
    expect(extra.message).toBe("history takes at most 1 argument (upload history <kind>), and was also given 'Nord' 'Ost'");
    expect(extra.hint).toContain('quote a value that has spaces');
    expect((await refused('config', ['x'])).message).toContain('config takes no arguments');
  });
});

// Every flag of every command that takes a value, by its long name and its short one: the words a
// person writes after it by habit.
const valueFlags = async () =>
  (await loadCommands()).flatMap(([name, spec]) =>
    spec.flags
      .filter((key) => FLAGS[key].flags.includes('<'))
      .flatMap((key) => {
        const syntax: string = FLAGS[key].flags;
        const long = /--[a-z][a-z-]*/.exec(syntax)![0];
        const short = /^(-[a-zA-Z]),/.exec(syntax)?.[1];
        return [long, ...(short ? [short] : [])].map((flag) => ({ name, key, flag, long }));
      }),
  );

describe('a flag that takes a value never takes the next option as its value (parseArgs, strict)', () => {
  it('--report-html --dry-run --yes is a usage error naming both words, with no fix: only the person knows the file', async () => {
    const err = await refused('team-members', ['x.csv', '--report-html', '--dry-run', '--yes']);
    expect(err.message).toBe("--report-html needs a value (--report-html <file>), and was followed by '--dry-run', which is an option, not a value");
    expect(err.hint).toBe("give --report-html its <file> before '--dry-run'; a <file> that starts with '-' is written joined, --report-html=-x");
    expect(err.fixes).toEqual([]);
  });

  it('holds for every value flag of every command, long and short, before a long option, a short one or a group', async () => {
    const flags = await valueFlags();
    expect(flags.length).toBeGreaterThan(60);
    for (const { name, flag } of flags) {
      for (const next of ['--dry-run', '--json', '-n', '-nq', '--']) {
        const err = await refused(name, [flag, next, 'x']);
        expect(err.message, `${name} ${flag} ${next}`).toContain(`${flag} needs a value`);
        expect(err.message).toContain(`followed by '${next}'`);
        expect(err.fixes).toEqual([]);
      }
    }
  });

  it('takes every value flag joined to a value that starts with a dash, and - alone as a value', async () => {
    for (const { name, key, long } of await valueFlags()) {
      const choices: readonly string[] | undefined = (FLAGS[key] as { choices?: readonly string[] }).choices;
      // A flag with choices takes only them: joined, a dash-word reaches its check (BAD_FLAG), not the next option's.
      if (choices) {
        expect((await refused(name, [`${long}=-x`], 'BAD_FLAG')).message).toContain(`${long} '-x' is not one of`);
        continue;
      }
      const joined = await line(name, [`${long}=-x`, 'a', 'b']).catch((err: unknown) => err);
      // Only the arguments may be wrong here (too few, too many), never the flag's value.
      if (joined instanceof UsageError) expect(joined.message, `${name} ${long}`).not.toContain(long);
      else {
        const value = (joined as Awaited<ReturnType<typeof line>>).flags[key];
        expect(value, `${name} ${long}`).toEqual('repeat' in FLAGS[key] ? ['-x'] : '-x');
      }
    }
  });

  it('offers a word that cannot be an option as the value, joined by =, and the fix read again gives exactly it', async () => {
    const err = await refused('team-members', ['staff.csv', '--active', '-x-', '--status-column', 'Status']);
    expect(err.message).toBe("--active needs a value (--active <statuses>), and was followed by '-x-', which starts with a dash");
    expect(err.hint).toBe("if '-x-' is the value, write it joined: --active=-x-; if not, give --active its <statuses> first");
    expect(err.fixes).toEqual([{ kind: 'command', args: ['team-members', 'staff.csv', '--active=-x-', '--status-column', 'Status'] }]);
    const [name, ...rest] = (err.fixes[0] as { args: readonly string[] }).args;
    expect((await line(name!, rest)).flags).toMatchObject({ active: '-x-', statusColumn: 'Status' });
  });

  it('the fix of a short flag in a group keeps the group: -qo -x.csv is -q --output=-x.csv', async () => {
    const err = await refused('export', ['team-members', '-qo', '-x.csv']);
    expect(err.fixes).toEqual([{ kind: 'command', args: ['export', 'team-members', '-q', '--output=-x.csv'] }]);
    const [name, ...rest] = (err.fixes[0] as { args: readonly string[] }).args;
    expect((await line(name!, rest)).flags).toMatchObject({ quiet: true, output: '-x.csv' });
  });

  it("a negative number is a dash-word too: its fix reaches the flag's own check, another refusal", async () => {
    const err = await refused('team-members', ['staff.csv', '--retries', '-1']);
    expect(err.fixes).toEqual([{ kind: 'command', args: ['team-members', 'staff.csv', '--retries=-1'] }]);
    const { flags } = await line('team-members', ['staff.csv', '--retries=-1']);
    expect(() => count('--retries', flags.retries, 0)).toThrow("--retries '-1' must be a whole number of at least 0");
  });

  it('a fix that adds a flag and its value (flagArgs) is read back as exactly that value, whatever it starts with', async () => {
    for (const value of ['Notes', '-Notes', '--dry-run', '-', '-1', ';', 'a=b']) {
      const words = flagArgs('--ignore-column', value);
      expect((await line('team-members', ['staff.csv', ...words, '--dry-run'])).flags, value).toMatchObject({ ignoreColumn: [value], dryRun: true });
    }
  });
});

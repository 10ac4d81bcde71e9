// `upload --help` lists the commands from the table of commands (src/cli/table.ts), so that the help
// loads none of them; the bundled program runs each command from its row's import.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/cli/table.js';
import { ROOT } from '../helpers/cli.js';

const upload = (...args: string[]) => execFileSync(process.execPath, [join(ROOT, 'bin', 'upload.js'), ...args], { encoding: 'utf8' });

/** Help wraps its lines: compared with the words in one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe("the program's --help and the table of commands, bundled", () => {
  it('lists every command file, in its place, with its usage and summary as the file says', async () => {
    const help = upload('--help');
    const listed = help
      .split('\n')
      .map((line) => /^ {2}([a-z][a-z-]*) /.exec(line)?.[1])
      .filter((name) => name !== undefined);
    const files = await loadCommands();
    expect(listed).toEqual(files.map(([name]) => name));
    expect(
      readdirSync(join(ROOT, 'src', 'commands'))
        .filter((f) => f.endsWith('.ts')) // commands/shared/ is what they share, not a command
        .map((f) => f.replace(/\.ts$/, ''))
        .sort(),
    ).toEqual(files.map(([name]) => name).sort());
    for (const [, spec] of files) expect(help).toContain(`  ${spec.usage} `);
    for (const [, spec] of files) expect(oneLine(help)).toContain(oneLine(spec.summary));
  });

  it('runs each command from the bundle: its own --help names it', async () => {
    for (const [name] of await loadCommands()) expect(upload(name, '--help')).toMatch(new RegExp(`^Usage: upload ${name} `));
  });
});

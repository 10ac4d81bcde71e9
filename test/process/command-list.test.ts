// `upload --help` lists the commands from dist/commands/list.json, which the build writes from the
// command files (scripts/command-list.mjs), so that the help loads none of them; a list older than a
// command file, or naming other commands, is not trusted: the files themselves are read instead.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/cli/table.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** A copy of the built package whose list says something the command files do not. */
function copyWithList(edit: (list: { name: string; summary: string }[]) => void): { root: string; list: string } {
  const root = tempDir().dir;
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(root, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const list = join(root, 'dist', 'commands', 'list.json');
  const entries = JSON.parse(readFileSync(list, 'utf8')) as { name: string; summary: string }[];
  edit(entries);
  writeFileSync(list, JSON.stringify(entries));
  return { root, list };
}

const help = (root: string) => execFileSync(process.execPath, [join(root, 'bin', 'upload.js'), '--help'], { encoding: 'utf8' });

describe("the program's --help and the built list of commands", () => {
  it('the build writes every command with its usage, summary and place, as the files say', async () => {
    const built = JSON.parse(readFileSync(join(ROOT, 'dist', 'commands', 'list.json'), 'utf8')) as unknown[];
    const files = (await loadCommands()).map(([name, s]) => ({ name, usage: s.usage, summary: s.summary, order: s.order }));
    expect([...built].sort((a, b) => (a as { order: number }).order - (b as { order: number }).order)).toEqual(files);
  });

  it('is read from the list while the list is as new as every command file', () => {
    const { root } = copyWithList((entries) => (entries.find((e) => e.name === 'history')!.summary = 'SAID BY THE LIST'));
    expect(help(root)).toContain('SAID BY THE LIST');
  });

  it('is read from the command files when a file is newer than the list', () => {
    const { root, list } = copyWithList((entries) => (entries.find((e) => e.name === 'history')!.summary = 'SAID BY THE LIST'));
    const past = new Date(Date.now() - 60_000);
    utimesSync(list, past, past);
    const out = help(root);
    expect(out).not.toContain('SAID BY THE LIST');
    expect(out).toContain('list the recorded uploads');
  });

  it('is read from the command files when the list names other commands', () => {
    const { root } = copyWithList((entries) =>
      entries.splice(
        entries.findIndex((e) => e.name === 'sandbox'),
        1,
      ),
    );
    expect(help(root)).toMatch(/\n {2}sandbox +run the reference service/);
  });
});

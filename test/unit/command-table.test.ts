// The table of commands (src/cli/table.ts) and the folder of commands (src/commands/) agree: every
// file has its row, every row its file, and each row imports its own file by a literal path (what a
// bundler and the architecture test follow), so `upload --help`, which reads only the table, lists
// exactly the commands there are.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandNames, listCommands, loadCommand } from '../../src/cli/table.js';
import { ROOT } from '../helpers/cli.js';

const files = readdirSync(join(ROOT, 'src', 'commands'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));

describe('the table of commands', () => {
  it('has a row for every file of src/commands/ and a file for every row', () => {
    expect([...commandNames()].sort()).toEqual(files.sort());
  });

  it("imports each command's own file by a literal path, no name built at run time", () => {
    const source = readFileSync(join(ROOT, 'src', 'cli', 'table.ts'), 'utf8');
    expect(source).not.toMatch(/import\(\s*`/);
    const imported = [...source.matchAll(/import\('\.\.\/commands\/([a-z-]+)\.js'\)/g)].map((m) => m[1]);
    expect(imported).toEqual([...commandNames()]);
  });

  it("gives each command its row's usage and summary, the usage starting with the command's name", async () => {
    for (const listing of listCommands()) {
      expect(listing.usage.split(' ')[0]).toBe(listing.name);
      const spec = await loadCommand(listing.name);
      expect(spec).toMatchObject({ usage: listing.usage, summary: listing.summary });
      expect(typeof spec.run).toBe('function');
    }
  });
});

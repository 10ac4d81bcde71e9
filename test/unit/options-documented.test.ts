// Every option any --help shows is documented in README.md or docs/, and comes from the one table of
// options (src/cli/flags.ts), composed by each command's file (src/commands/): help, parsing, defaults and the docs cannot drift apart.
// Each setting's default is declared once, in the settings table (src/config/settings.ts): --help and
// README show that value.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FLAGS } from '../../src/cli/flags.js';
import { loadCommands } from '../../src/cli/table.js';
import { main, type ProcessIo } from '../../src/cli/main.js';
import { defaultOf, SETTINGS } from '../../src/config/settings.js';
import { ROOT } from '../helpers/cli.js';

async function help(argv: string[]): Promise<string> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const io = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: {} } as unknown as ProcessIo;
  expect(await main(argv, io)).toBe(0);
  return Buffer.concat(chunks).toString('utf8');
}

/** The long options a help text lists, under "Options:" and every heading after it, before the examples. */
function listed(text: string): string[] {
  const options = text.split(/^Options:$/m)[1]?.split(/^Examples:$/m)[0] ?? '';
  return [...options.matchAll(/^ {2}(?:-\w, | {4})?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!);
}

const docs = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).map((f) => join(ROOT, 'docs', f))]
  .filter((f) => f.endsWith('.md'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const documented = (flag: string) => new RegExp(`${flag}(?![a-z-])`).test(docs);
const commands = await loadCommands();

describe('the options in --help', () => {
  it.each(commands)('upload %s --help lists exactly its options from its file, each documented', async (command, spec) => {
    const shown = listed(await help([command, '--help-all']));
    const visible = spec.flags.filter((name) => !('hidden' in FLAGS[name]));
    const declared = visible.map((name) => /--[a-z-]+/.exec(FLAGS[name].flags)![0]);
    expect([...shown].sort()).toEqual([...declared, '--help'].sort());
    expect(shown.filter((flag) => !documented(flag))).toEqual([]);
  });

  it.each(commands)('upload %s --help fits in 80 lines, and names every option it does not explain', async (command, spec) => {
    const text = await help([command, '--help']);
    expect(text.split('\n').length - 1).toBeLessThanOrEqual(80);
    for (const name of spec.flags.filter((n) => !('hidden' in FLAGS[n]))) expect(text).toContain(/--[a-z-]+/.exec(FLAGS[name].flags)![0]);
    expect(text).not.toContain('--state-dir');
  });

  it('the program --help lists only documented options', async () => {
    const shown = listed(await help(['--help']));
    expect(shown).toContain('--version');
    expect(shown.filter((flag) => !documented(flag))).toEqual([]);
  });
});

/** The settings whose default is one value (a name, a limit, a number, a choice), and that value. */
const DEFAULTED = SETTINGS.flatMap((row) => {
  if (row.key === 'state') return [];
  const value = defaultOf(row.key);
  return ['null', 'false', ''].includes(value) ? [] : [[row.key, row.flag, value] as const];
});

/** A flag's entry in a help text: its line and the lines that continue it, as one line. */
function entry(text: string, flag: string): string | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^ {2}(?:-\\w, | {4})?${flag}(?![a-z-])`).test(l));
  if (at === -1) return undefined;
  const rest = lines.slice(at + 1);
  const end = rest.findIndex((l) => !/^ {6,}\S/.test(l) || /^ {2}(?:-\w, | {4})--/.test(l));
  return [lines[at]!, ...rest.slice(0, end === -1 ? rest.length : end)].map((l) => l.trim()).join(' ');
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\%$]/g, '\\$&');

describe("each setting's default, from the settings table", () => {
  it('covers the settings that have one', () => {
    expect(DEFAULTED.map(([key]) => key)).toEqual([
      'tokenEnv',
      'maxRemovals',
      'maxChanges',
      'maxEmptied',
      'retries',
      'timeout',
      'keep',
      'notifyOn',
      'notifyFormat',
    ]);
  });

  it.each(DEFAULTED)('%s: every --help that lists %s shows %s as its default', async (key, flag, value) => {
    const showing = commands.filter(([, spec]) => (spec.flags as readonly string[]).includes(key));
    expect(showing.length).toBeGreaterThan(0);
    for (const [command] of showing) {
      const shown = entry(await help([command, '--help-all']), flag);
      expect(shown, `upload ${command} --help-all lists ${flag}`).toBeDefined();
      expect(shown).toMatch(new RegExp(`\\(default: (?:[^)]*\\W)?${escaped(value)}(?![\\w%])`));
    }
  });

  // docs/targets.md's table of what wins is the settings table in words: a row per setting, its flag, variable and default.
  const targets = readFileSync(join(ROOT, 'docs', 'targets.md'), 'utf8')
    .split('| setting | flag | target key | variable | default |')[1]!
    .split('\n\n')[0]!
    .split('\n');
  it.each(SETTINGS.map((row) => [row.key, row] as const))('%s: docs/targets.md has its row, with its flag, variable and default', (key, row) => {
    const cells = targets
      .find((l) => l.startsWith(`| \`${key}\` |`))
      ?.split(' | ')
      .map((c) => c.replace(/^\| |\s*\|$/g, ''));
    expect(cells, `docs/targets.md has a row for ${key}`).toBeDefined();
    expect(cells![1]).toContain(`\`${row.flag}\``);
    expect(cells![3]).toEqual(row.env === undefined ? '—' : expect.stringContaining(`\`${row.env}\``));
    const fixed = DEFAULTED.find(([k]) => k === key);
    if (fixed) expect(cells![4]).toMatch(new RegExp(`^\`${escaped(fixed[2])}\``));
  });

  it.each(DEFAULTED)("%s: README's row for %s names %s as its default", (_key, flag, value) => {
    const row = readFileSync(join(ROOT, 'README.md'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`| \`${flag} `) || l.startsWith(`| \`${flag}\``));
    expect(row, `README.md has a row for ${flag}`).toBeDefined();
    expect(row).toMatch(/default/);
    expect(row).toMatch(new RegExp(`(?<![\\w%])\`?${escaped(value)}\`?(?![\\w%])`));
  });
});

// The commands are the files of src/commands/: `ls src/commands` is the list, and adding a command is
// adding a file there (plus its docs). Only the command that runs is loaded; --help loads them all.
import { readdirSync } from 'node:fs';
import type { CommandSpec } from './command.js';

/**
 * Bundled, there is no folder of commands to read: the bundler writes in their names (the single
 * executable, scripts/bundle.mjs) or their listing (the installed program, scripts/bundle-program.mjs,
 * which makes it from the command files).
 */
declare const __UPLOAD_COMMANDS__: readonly string[] | undefined;
declare const __UPLOAD_LISTING__: readonly Listing[] | undefined;

let names: readonly string[] | undefined;

export function commandNames(): readonly string[] {
  if (typeof __UPLOAD_LISTING__ !== 'undefined') return __UPLOAD_LISTING__.map((l) => l.name);
  if (typeof __UPLOAD_COMMANDS__ !== 'undefined') return __UPLOAD_COMMANDS__;
  // Built, the folder holds .js files (and their .d.ts and maps); under the tests, the .ts sources.
  names ??= readdirSync(new URL('../commands/', import.meta.url))
    .filter((f) => /^[a-z][a-z-]*\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.(js|ts)$/, ''))
    .sort();
  return names;
}

export const isCommand = (name: string | undefined): name is string => name !== undefined && commandNames().includes(name);

export async function loadCommand(name: string): Promise<CommandSpec> {
  // Template literals, so a bundler carries every file of the folder: esbuild (the single executable)
  // bundles the sources, .ts; scripts/bundle-program.mjs puts an import of each command in place of the .js one.
  const module = (
    typeof __UPLOAD_COMMANDS__ !== 'undefined' ? await import(`../commands/${name}.ts`) : await import(/* @vite-ignore */ `../commands/${name}.js`)
  ) as { default: CommandSpec };
  return module.default;
}

/** What the program's --help shows of a command. */
export interface Listing {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  readonly order: number;
}

/**
 * Every command's listing, in the order the program's --help shows them: written in by the bundler
 * (so that --help loads no command), else read from the command files themselves.
 */
export async function listCommands(): Promise<Listing[]> {
  const listed =
    typeof __UPLOAD_LISTING__ !== 'undefined'
      ? [...__UPLOAD_LISTING__]
      : (await loadCommands()).map(([name, s]) => ({ name, usage: s.usage, summary: s.summary, order: s.order }));
  return listed.sort((a, b) => a.order - b.order);
}

/** Every command, in the order the program's --help lists them. */
export async function loadCommands(): Promise<[string, CommandSpec][]> {
  const all = await Promise.all(commandNames().map(async (name) => [name, await loadCommand(name)] as [string, CommandSpec]));
  return all.sort(([, a], [, b]) => a.order - b.order);
}

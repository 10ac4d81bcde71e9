// The commands are the files of src/commands/: `ls src/commands` is the list, and adding a command is
// adding a file there (plus its docs). Only the command that runs is loaded; --help loads them all.
import { readdirSync } from 'node:fs';
import type { CommandSpec } from './command.js';

/** The single executable has no files: its bundler writes the list in (scripts/bundle.mjs). */
declare const __UPLOAD_COMMANDS__: readonly string[] | undefined;

let names: readonly string[] | undefined;

export function commandNames(): readonly string[] {
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
  // Template literals, so the bundler carries every file of the folder (as sources; built, they are .js).
  const module = (
    typeof __UPLOAD_COMMANDS__ !== 'undefined' ? await import(`../commands/${name}.ts`) : await import(/* @vite-ignore */ `../commands/${name}.js`)
  ) as { default: CommandSpec };
  return module.default;
}

/** Every command, in the order the program's --help lists them. */
export async function loadCommands(): Promise<[string, CommandSpec][]> {
  const all = await Promise.all(commandNames().map(async (name) => [name, await loadCommand(name)] as [string, CommandSpec]));
  return all.sort(([, a], [, b]) => a.order - b.order);
}

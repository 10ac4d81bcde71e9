// The commands are the files of src/commands/: `ls src/commands` is the list, and adding a command is
// adding a file there (plus its docs). Only the command that runs is loaded; --help loads them all.
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

/** What the program's --help shows of a command. */
export interface Listing {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  readonly order: number;
}

/**
 * Every command's listing, in the order the program's --help shows them. Built, it is read from
 * commands/list.json (written from the command files by scripts/command-list.mjs, the build's last
 * step) while that list is as new as every command file and names them all; else (the sources under
 * the tests, or a list older than a file) from the command files themselves.
 */
export async function listCommands(): Promise<Listing[]> {
  const listed = builtList() ?? (await loadCommands()).map(([name, s]) => ({ name, usage: s.usage, summary: s.summary, order: s.order }));
  return listed.sort((a, b) => a.order - b.order);
}

function builtList(): Listing[] | undefined {
  if (typeof __UPLOAD_COMMANDS__ !== 'undefined') return undefined;
  const folder = new URL('../commands/', import.meta.url);
  try {
    const list = new URL('list.json', folder);
    const made = statSync(list).mtimeMs;
    const names = commandNames();
    if (names.some((name) => statSync(new URL(`${name}.js`, folder)).mtimeMs > made)) return undefined;
    const listed = JSON.parse(readFileSync(list, 'utf8')) as Listing[];
    return listed.map((l) => l.name).join() === names.join() ? listed : undefined;
  } catch {
    return undefined;
  }
}

/** Every command, in the order the program's --help lists them. */
export async function loadCommands(): Promise<[string, CommandSpec][]> {
  const all = await Promise.all(commandNames().map(async (name) => [name, await loadCommand(name)] as [string, CommandSpec]));
  return all.sort(([, a], [, b]) => a.order - b.order);
}

// The command line of one command, read against the table of flags (./flags.ts) and the command's
// usage (`remove <kind> [keys...]`). The table already said everything a parser needs — syntax,
// choices, defaults, repetition — and --help is written from it (./help.ts). The words are split by
// Node's own `util.parseArgs` (built in: no parser library is loaded for a run, docs/performance.md);
// what is left here is the table's checks, each a usage error (exit 2) that names the flag or argument
// and what to do, in the tool's words rather than Node's.
//
// What it accepts is what people type and what scripts already pass: `--name value` and
// `--name=value`, short flags alone or together (`-nq`, `-o FILE`, `-oFILE`), options before, between
// or after the arguments, and `--` before arguments that start with a dash. A flag that takes a value
// never takes a next word that starts with a dash (parseArgs' strict rule): `--report-html --dry-run
// --yes` would otherwise write a file named `--dry-run` and upload for real. `-` alone is a value
// (`--token-file -`, standard input), and a value that does start with a dash is written joined,
// `--active=-x-` (docs: README, "Options").
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import type { Args, CommandSpec } from './command.js';
import { FLAGS, type FlagName, type Flags, type Spec } from './flags.js';

export interface ParsedLine {
  readonly args: Args;
  readonly flags: Flags;
  /** Whether a flag (by its key) was given on the command line, not defaulted. */
  readonly given: (key: string) => boolean;
}

interface Declared {
  readonly key: FlagName;
  readonly spec: Spec;
  readonly long: string;
  readonly short: string | undefined;
  /** `<value>` in the syntax: the flag takes one. */
  readonly value: boolean;
}

/** A flag's syntax from the table: `-n, --dry-run`, `--sheet <name|n>`. */
function declare(key: FlagName): Declared {
  const spec: Spec = FLAGS[key];
  const long = /--[a-z][a-z-]*/.exec(spec.flags)![0];
  const short = /(?:^|\s)(-[a-zA-Z]),/.exec(spec.flags)?.[1];
  return { key, spec, long, short, value: spec.flags.includes('<') };
}

/** The arguments of a usage line: `<kind>` required, `[file]` optional, `[keys...]` the rest. */
function positionals(usage: string): { name: string; required: boolean; rest: boolean }[] {
  return [...usage.matchAll(/([<[])([a-z-]+)(\.\.\.)?[>\]]/g)].map((m) => ({ name: m[2]!, required: m[1] === '<', rest: m[3] !== undefined }));
}

export async function parseLine(name: string, spec: CommandSpec, argv: readonly string[]): Promise<ParsedLine> {
  const declared = spec.flags.map(declare);
  const byName = new Map<string, Declared>();
  for (const d of declared) {
    byName.set(d.long, d);
    if (d.short) byName.set(d.short, d);
  }
  const help = `run: upload ${name} --help`;
  const values: Record<string, unknown> = {};
  const words: string[] = [];

  const set = (d: Declared, value: string | undefined) => {
    if (d.value && value === undefined) {
      throw new UsageError('BAD_USAGE', `${d.long} needs a value: ${d.spec.flags.replace(/^-[a-zA-Z], /, '')}`, `give it one, or leave the flag out (${help})`);
    }
    if (!d.value && value !== undefined) throw new UsageError('BAD_USAGE', `${d.long} takes no value, and was given '${value}'`, `write ${d.long} alone`);
    // A value outside the choices is a bad flag value like any other (BAD_FLAG, docs/report.md).
    if (value !== undefined && d.spec.choices && !d.spec.choices.includes(value)) {
      throw new UsageError(
        'BAD_FLAG',
        `${d.long} '${value}' is not one of: ${d.spec.choices.join(', ')}`,
        `use one of them, e.g. ${d.long} ${d.spec.choices[0]}`,
      );
    }
    values[d.key] = d.spec.repeat ? [...((values[d.key] as string[] | undefined) ?? []), value] : (value ?? true);
  };

  for (const token of tokenise(declared, argv)) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      words.push(token.value);
      continue;
    }
    const d = byName.get(token.rawName) ?? (await unknown(token.rawName, declared, name));
    if (d.value && !token.inlineValue && token.value !== undefined && optionLike(token.value)) {
      throw swallowed(d, token.rawName, token.value, { name, argv, index: token.index });
    }
    set(d, token.value);
  }

  const wanted = positionals(spec.usage);
  const args: Args = wanted.map((p, n) => (p.rest ? words.slice(n) : words[n]));
  const missing = wanted.find((p, n) => p.required && words[n] === undefined);
  if (missing) throw new UsageError('BAD_USAGE', `${name} needs <${missing.name}>: upload ${spec.usage}`, help);
  if (!wanted.some((p) => p.rest) && words.length > wanted.length) {
    const extra = words.slice(wanted.length).map((w) => `'${w}'`);
    throw new UsageError(
      'BAD_USAGE',
      `${name} takes ${wanted.length === 0 ? 'no arguments' : `at most ${wanted.length} argument${wanted.length === 1 ? '' : 's'}`} (upload ${spec.usage}), and was also given ${extra.join(' ')}`,
      `leave ${extra.length === 1 ? 'it' : 'them'} out, or quote a value that has spaces (${help})`,
    );
  }
  const flags: Record<string, unknown> = { ...values };
  for (const d of declared) if (flags[d.key] === undefined && d.spec.default !== undefined) flags[d.key] = d.spec.default;
  return { args, flags: flags, given: (key) => Object.hasOwn(values, key) };
}

type Token = ReturnType<typeof parseArgs<{ tokens: true; strict: false; allowPositionals: true }>>['tokens'][number];

/**
 * The words as Node splits them: parseArgs, told which flags take a value, in its lenient mode — the
 * checks its strict mode makes (an unknown option, a value where none goes, a dash-word as a value)
 * are made by the caller, with the tool's codes and words.
 */
function tokenise(declared: readonly Declared[], argv: readonly string[]): Token[] {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const d of declared) options[d.long.slice(2)] = { type: d.value ? 'string' : 'boolean', ...(d.short ? { short: d.short.slice(1) } : {}) };
  return parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** parseArgs' own test of a value that looks like an option: a dash and more (`-` alone is standard input). */
function optionLike(word: string): boolean {
  return word.length > 1 && word.startsWith('-');
}

/**
 * A value flag followed by a word that starts with a dash. When the word could be flags (`--dry-run`,
 * `-n`, `-xyz`) the value was forgotten, and only the person knows it: no fix. Otherwise (`-x-`, `-1`,
 * `-old.csv`) the word may be the value, and the fix is the same command with the two joined by `=`.
 */
function swallowed(d: Declared, rawName: string, word: string, line: { name: string; argv: readonly string[]; index: number }): UsageError {
  const syntax = d.spec.flags.replace(/^-[a-zA-Z], /, '');
  const placeholder = /<[^>]*>/.exec(syntax)![0];
  const joined = `${d.long}=${word}`;
  if (word.startsWith('--') || /^-[a-zA-Z]+$/.test(word)) {
    return new UsageError(
      'BAD_USAGE',
      `${rawName} needs a value (${syntax}), and was followed by '${word}', which is an option, not a value`,
      `give ${rawName} its ${placeholder} before '${word}'; a ${placeholder} that starts with '-' is written joined, ${d.long}=-x`,
    );
  }
  // The command again, the flag and its value joined: `-qo -x` becomes `-q --output=-x`.
  const at = line.argv[line.index]!;
  const flagWord = at === rawName ? [joined] : [at.slice(0, -1), joined];
  const args = [line.name, ...line.argv.slice(0, line.index), ...flagWord, ...line.argv.slice(line.index + 2)];
  return new UsageError(
    'BAD_USAGE',
    `${rawName} needs a value (${syntax}), and was followed by '${word}', which starts with a dash`,
    `if '${word}' is the value, write it joined: ${joined}; if not, give ${rawName} its ${placeholder} first`,
  ).withFixes({ kind: 'command', args });
}

/** An option the command does not have: the error, with the nearest one it does have. */
async function unknown(flag: string, declared: readonly Declared[], name: string): Promise<never> {
  const nearest = flag.startsWith('--')
    ? await closest(
        flag,
        declared.map((d) => d.long),
      )
    : undefined;
  throw new UsageError(
    'BAD_USAGE',
    `${flag} is not an option of ${name}`,
    nearest ? `did you mean ${nearest}? (run: upload ${name} --help)` : `run: upload ${name} --help`,
  );
}

/** The nearest of `known` to a mistyped word, when it is near enough to be a slip. */
export async function closest(word: string, known: readonly string[]): Promise<string | undefined> {
  // Loaded on a mistake only: the edit distance the column names use.
  const { distance } = await import('../map/columns.js');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(word, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

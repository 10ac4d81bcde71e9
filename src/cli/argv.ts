// The command line of one command, read against the table of flags (./flags.ts) and the command's
// usage (`remove <kind> [keys...]`). The table already said everything a parser needs — syntax,
// choices, defaults, repetition — and --help is written from it (./help.ts), so this is the small
// tokenising that is left: no parser library is loaded for a run (the start-up, docs/performance.md).
//
// What it accepts is what people type and what scripts already pass: `--name value` and
// `--name=value`, short flags alone or together (`-nq`, `-o FILE`, `-oFILE`), options before, between
// or after the arguments, and `--` before arguments that start with a dash. A flag that takes a value
// takes the next word whatever it is (`--token-file -`, `--delimiter ';'`), as commander did. Every
// mistake is a usage error (BAD_USAGE, exit 2) that names the flag or argument and what to do.
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

  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const flag = eq === -1 ? word : word.slice(0, eq);
      const d = byName.get(flag) ?? (await unknown(flag, declared, name));
      set(d, eq !== -1 ? word.slice(eq + 1) : d.value ? argv[++i] : undefined);
    } else if (word.length > 1 && word.startsWith('-')) {
      // -nq: short flags together; a short flag that takes a value takes the rest of the word, or the next.
      for (let j = 1; j < word.length; j++) {
        const d = byName.get(`-${word[j]}`) ?? (await unknown(`-${word[j]}`, declared, name));
        if (d.value) {
          set(d, j + 1 < word.length ? word.slice(j + 1) : argv[++i]);
          break;
        }
        set(d, undefined);
      }
    } else {
      words.push(word);
    }
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

// The layout's rules, checked on every run: arrows point down the pipeline and nothing imports in a
// circle (type-only imports count). A rule the tests enforce needs no reviewer. The checker reads every
// import a tool can follow: static, type-only and `import('…')`; an import of a template literal
// (`import(`../commands/${name}.js`)`) is an import of every file its pattern matches, and any other
// import() of something not written out fails here, so no arrow hides from it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** A specifier as the path of a source relative to src/ (`.js` names the `.ts` it is compiled from). */
const sourceOf = (file: string, specifier: string) => relative(SRC, resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));

/**
 * What each import() of a file asks for: a written-out specifier, a pattern (a template literal, each
 * `${…}` standing for one name of a folder, no slash), or something a reader cannot see (`unseen`).
 * An `import(` followed at once by `)` is prose in a comment ("with import():"), not an import.
 */
function dynamicImports(text: string): { written: string[]; patterns: string[]; unseen: string[] } {
  const found = { written: [] as string[], patterns: [] as string[], unseen: [] as string[] };
  for (const m of text.matchAll(/\bimport\(\s*(?:\/\*[\s\S]*?\*\/\s*)?/g)) {
    const at = m.index + m[0].length;
    const quote = text[at];
    if (quote === ')') continue;
    const end = quote === "'" || quote === '"' || quote === '`' ? text.indexOf(quote, at + 1) : -1;
    const argument = end < 0 ? undefined : text.slice(at + 1, end);
    const closed =
      argument !== undefined &&
      text
        .slice(end + 1)
        .trimStart()
        .startsWith(')');
    if (!closed) found.unseen.push(text.slice(at, text.indexOf(')', at)));
    else if (!argument.includes('${') || quote !== '`') found.written.push(argument);
    else if (argument.startsWith('.')) found.patterns.push(argument);
    else found.unseen.push(`\`${argument}\``);
  }
  return found;
}

/** The files of src/ a template literal's pattern names, relative to src/. */
function matching(file: string, pattern: string, all: readonly string[]): string[] {
  const HOLE = '\u0000';
  const path = sourceOf(file, pattern.replace(/\$\{[^}]*\}/g, HOLE));
  const escaped = path.replace(/[.*+?^()|[\]\\{}$]/g, '\\$&').replaceAll(HOLE, '[^/]+');
  return all.filter((f) => new RegExp(`^${escaped}$`).test(f));
}

/** Each file's imports of other files of src/ (static, dynamic and type-only), as paths relative to src/. */
function imports(): { graph: Map<string, string[]>; unseen: string[] } {
  const files = sources();
  const all = files.map((f) => relative(SRC, f));
  const graph = new Map<string, string[]>();
  const unseen: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const statics = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
    const dynamic = dynamicImports(text);
    unseen.push(...dynamic.unseen.map((u) => `${relative(SRC, file)}: import(${u})`));
    graph.set(relative(SRC, file), [
      ...[...statics, ...dynamic.written.filter((s) => s.startsWith('.'))].map((s) => sourceOf(file, s)),
      ...dynamic.patterns.flatMap((p) => matching(file, p, all)),
    ]);
  }
  return { graph, unseen };
}

function cycles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (node: string, stack: string[]) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next, stack);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, []);
  return found;
}

/** Static imports only (what loads with a file, not on use): the start-up of a command depends on these. */
function staticImports(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  return [...text.matchAll(/^import\s(?!type\b)[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) => sourceOf(join(SRC, file), m[1]!));
}

/** The room a file of src/ is in: its folder under src/, or commands/shared/ (beside the commands, not one). */
const roomOf = (file: string) => (file.startsWith('commands/shared/') ? 'commands/shared' : file.includes('/') ? file.split('/')[0]! : '');

/** The shared vocabulary every layer uses; everything else at src/ is a folder. */
const SHARED = ['errors.ts', 'issues.ts', 'numbers.ts', 'version.ts'];
/** The stages: data in, data out. With files/ at the bottom, they import none of the rooms below this list. */
const STAGES = ['read', 'map', 'validate', 'diff', 'guard', 'send', 'state', 'contract', 'sets', 'files'];
/**
 * Every room above the stages, and the rooms above the stages it may import (the stages it may always).
 * Read down: the report (what --json prints) stands on the stages alone; the pipeline makes it; plans
 * (apply, approve, the policy) and the operations built on history run the pipeline; render/ puts the
 * report, the events and the history into words and pages; the commands use all of them, with what they
 * share beside them in commands/shared/; cli/ is the framework and the start-up, and reaches a command
 * through the command table alone. config (the settings table, which declares every default, and the
 * named targets) stands on the stages alone, under the pipeline that reads its defaults; export, notify
 * and the sandbox sit beside the pipeline.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  report: [],
  pipeline: ['report', 'config'],
  config: [],
  export: ['pipeline'],
  notify: ['report'],
  sandbox: [],
  plans: ['pipeline', 'report', 'config'],
  operations: ['pipeline', 'report'],
  render: ['report', 'pipeline', 'operations'],
  'commands/shared': ['cli', 'render', 'report', 'pipeline', 'plans', 'operations', 'config'],
  commands: ['commands/shared', 'cli', 'render', 'report', 'pipeline', 'plans', 'operations', 'config', 'export', 'notify', 'sandbox'],
  cli: ['render', 'report', 'pipeline', 'plans', 'config', 'notify', 'sandbox'],
};
/** The one arrow from the framework to the commands: the table of commands, which loads each on use. */
const COMMAND_TABLE = 'cli/table.ts';
/** What state/ shows the rest of src/: the store, its types and its vocabulary; never a backend or its files. */
const STATE_SURFACE = ['index', 'types', 'paths', 'operation', 'whoami', 'pause', 'refusals', 'settle'].map((name) => `state/${name}.ts`);

describe('the layout of src/', () => {
  const { graph, unseen } = imports();

  it('sees every import: an import() names its file, or a pattern of the files of one folder', () => {
    expect(unseen).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has a place in the layering for every room of src/', () => {
    const rooms = new Set([...graph.keys()].map(roomOf).filter((r) => r !== ''));
    expect([...rooms].filter((r) => !STAGES.includes(r) && !(r in MAY_IMPORT))).toEqual([]);
  });

  it('keeps stages from importing any room above them: the report, the pipeline, the CLI or the presentation', () => {
    const wrong = [...graph].flatMap(([file, deps]) =>
      STAGES.includes(roomOf(file)) ? deps.filter((d) => roomOf(d) in MAY_IMPORT).map((d) => `${file} → ${d}`) : [],
    );
    expect(wrong).toEqual([]);
  });

  it('keeps each room above the stages to the rooms it may import, so arrows point down', () => {
    const wrong = [...graph].flatMap(([file, deps]) => {
      const room = roomOf(file);
      const allowed = MAY_IMPORT[room];
      if (!allowed) return [];
      return deps
        .filter((d) => roomOf(d) !== room && roomOf(d) in MAY_IMPORT && !allowed.includes(roomOf(d)))
        .filter((d) => !(file === COMMAND_TABLE && roomOf(d) === 'commands'))
        .map((d) => `${file} → ${d}`);
    });
    expect(wrong).toEqual([]);
  });

  it('has rules that point one way: no two rooms may import each other, through any others', () => {
    const rooms = new Map(Object.entries(MAY_IMPORT).map(([room, below]) => [room, [...below]]));
    expect(cycles(rooms)).toEqual([]);
  });

  it("keeps render/ for the CLI and the commands: the notification, export and config read the run's report, not its words", () => {
    const wrong = [...graph].flatMap(([file, deps]) =>
      /^(cli|commands|render)\//.test(file) ? [] : deps.filter((d) => d.startsWith('render/')).map((d) => `${file} → ${d}`),
    );
    expect(wrong).toEqual([]);
  });

  it('keeps files/ at the bottom: node built-ins and the shared vocabulary only', () => {
    const files = [...graph.keys()].filter((f) => f.startsWith('files/'));
    expect(files.length).toBeGreaterThan(0);
    const wrong = files.flatMap((file) =>
      graph
        .get(file)!
        .filter((d) => !d.startsWith('files/') && !SHARED.includes(d))
        .map((d) => `${file} → ${d}`),
    );
    expect(wrong).toEqual([]);
    // Packages too: a file utility needs nothing from npm.
    const packages = files.flatMap((file) =>
      [...readFileSync(join(SRC, file), 'utf8').matchAll(/(?:from\s+|import\(\s*)'([^'.][^']*)'/g)]
        .filter((m) => !m[1]!.startsWith('node:'))
        .map((m) => `${file} → ${m[1]}`),
    );
    expect(packages).toEqual([]);
  });

  it('keeps what starts the program standalone: the Node check imports nothing of ours, and no package', () => {
    // The bundle makes it a file of its own (scripts/bundle-program.mjs); bin/upload.js runs it before the rest.
    for (const file of ['cli/supported-node.ts']) {
      expect(graph.get(file)).toEqual([]);
      const packages = [...readFileSync(join(SRC, file), 'utf8').matchAll(/(?:from\s+|import\(\s*)'([^'.][^']*)'/g)].filter((m) => !m[1]!.startsWith('node:'));
      expect(packages).toEqual([]);
    }
  });

  it("keeps the store's insides in state/: outside it, only its surface is imported (file utilities live in files/)", () => {
    const wrong = [...graph].flatMap(([file, deps]) =>
      file.startsWith('state/') ? [] : deps.filter((d) => d.startsWith('state/') && !STATE_SURFACE.includes(d)).map((d) => `${file} → ${d}`),
    );
    expect(wrong).toEqual([]);
  });

  it('has no loose files at src/ but the shared vocabulary: `ls src` shows the rooms', () => {
    const loose = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isFile());
    expect(loose.sort()).toEqual(SHARED);
  });

  it('keeps each command one file on the runner: commands/ is imported by the command table alone, and loads light', () => {
    const commands = [...graph.keys()].filter((f) => roomOf(f) === 'commands');
    expect(commands.length).toBeGreaterThan(0);
    const importers = [...graph].filter(([file, deps]) => roomOf(file) !== 'commands' && deps.some((d) => roomOf(d) === 'commands')).map(([f]) => f);
    expect(importers).toEqual([COMMAND_TABLE]);
    // What the commands share is theirs alone.
    const shared = [...graph].filter(([file, deps]) => !file.startsWith('commands/') && deps.some((d) => d.startsWith('commands/shared/'))).map(([f]) => f);
    expect(shared).toEqual([]);
    // What a command runs is imported inside run(): loading one command for --help loads no reader,
    // pipeline, store, service or renderer (the tables of flags and defaults are light and allowed).
    const LIGHT = new Set(['pipeline/options.ts', 'read/types.ts']);
    // The settings table, which declares every default the flags show, and the two small files it reads.
    for (const file of ['config/settings.ts', 'state/paths.ts', 'files/app-dirs.ts']) LIGHT.add(file);
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      for (const d of staticImports(file)) if (!seen.has(d)) closure(d, seen.add(d));
      return seen;
    };
    const HEAVY = /^(pipeline|plans|operations|report|render|read|state|send|map|validate|diff|guard|config|notify|export|sets|sandbox|contract|files)\//;
    const heavy = commands.flatMap((file) => [...closure(file)].filter((d) => HEAVY.test(d) && !LIGHT.has(d)).map((d) => `${file} → ${d}`));
    expect(heavy).toEqual([]);
  });

  it('keeps tests that start processes out of test/unit: those run in-process only', () => {
    const unit = import.meta.dirname;
    const CHILD_PROCESS = new RegExp(`from '${'node:child'}_process'`); // spelt apart so this file does not match
    const spawning = readdirSync(unit).filter((name) => CHILD_PROCESS.test(readFileSync(join(unit, name), 'utf8')));
    expect(spawning).toEqual([]);
  });

  it('sees every file (the checker itself works)', () => {
    expect(graph.get('cli/main.ts')).toContain('cli/io.ts');
    // A template literal is every file of its folder it matches, and no file of a folder inside it.
    expect(graph.get(COMMAND_TABLE)).toContain('commands/store-cards.ts');
    expect(graph.get(COMMAND_TABLE)!.filter((d) => d.startsWith('commands/shared/'))).toEqual([]);
    expect(matching(join(SRC, 'cli/x.ts'), '../commands/${name}.js', ['commands/apply.ts', 'commands/shared/parse.ts', 'cli/io.ts'])).toEqual([
      'commands/apply.ts',
    ]);
    // What no reader can follow is reported, not skipped; prose about import() is not an import.
    expect(dynamicImports("import(name); import(`${dir}/x.js`); import('./a.js'); // with import():").unseen).toEqual(['name', '`${dir}/x.js`']);
    expect(dynamicImports("import(/* @vite-ignore */ `./b/${n}.js`); import('./a.js')")).toEqual({
      written: ['./a.js'],
      patterns: ['./b/${n}.js'],
      unseen: [],
    });
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['a.ts']],
        ]),
      ),
    ).toEqual(['a.ts → b.ts → a.ts']);
  });
});

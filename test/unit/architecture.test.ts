// The layout's rules, checked on every run: arrows point down the pipeline and nothing imports in a
// circle (type-only imports count). A rule the tests enforce needs no reviewer.
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

/** Each file's imports of other files of src/ (static, dynamic and type-only), as paths relative to src/. */
function imports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources()) {
    const text = readFileSync(file, 'utf8');
    const found = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)];
    graph.set(
      relative(SRC, file),
      found.map((m) => relative(SRC, resolve(dirname(file), (m[1] ?? m[2])!.replace(/\.js$/, '.ts')))),
    );
  }
  return graph;
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
  return [...text.matchAll(/^import\s(?!type\b)[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) =>
    relative(SRC, resolve(dirname(join(SRC, file)), m[1]!.replace(/\.js$/, '.ts'))),
  );
}

const STAGES = ['read', 'map', 'validate', 'diff', 'guard', 'send', 'state', 'contract'];
/** What sits above the stages: the engine, the CLI and the presentation. */
const ABOVE = /^(engine|cli|report)\//;
/** What state/ shows the rest of src/: the store, its types and its vocabulary; never a backend or its files. */
const STATE_SURFACE = ['index', 'types', 'paths', 'operation', 'whoami', 'pause', 'refusals', 'settle'].map((name) => `state/${name}.ts`);
/** The vocabulary every layer shares; everything else at src/ is a folder. */
const SHARED = ['errors.ts', 'issues.ts', 'numbers.ts', 'version.ts'];

describe('the layout of src/', () => {
  const graph = imports();

  it('has no import cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps stages from importing the orchestrator, the CLI or the presentation', () => {
    const wrong = [...graph].flatMap(([file, deps]) =>
      STAGES.includes(file.split('/')[0]!) ? deps.filter((d) => ABOVE.test(d)).map((d) => `${file} → ${d}`) : [],
    );
    expect(wrong).toEqual([]);
  });

  it('keeps the engine out of the CLI and report/: it owns the report and the events, report/ renders them', () => {
    const wrong = [...graph].flatMap(([file, deps]) =>
      file.startsWith('engine/') ? deps.filter((d) => /^(cli|commands|report)\//.test(d)).map((d) => `${file} → ${d}`) : [],
    );
    expect(wrong).toEqual([]);
  });

  it("keeps report/ for the CLI and the commands alone: the notification, export and config read the engine's report, not its words", () => {
    const wrong = [...graph].flatMap(([file, deps]) =>
      /^(cli|commands|report)\//.test(file) ? [] : deps.filter((d) => d.startsWith('report/')).map((d) => `${file} → ${d}`),
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

  it('has no loose files at src/ but the shared vocabulary: `ls src` shows the stages, the engine and the CLI', () => {
    const loose = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isFile());
    expect(loose.sort()).toEqual(SHARED);
  });

  it('keeps each command one file on the runner: commands/ is imported by the command table alone, and loads light', () => {
    const commands = [...graph.keys()].filter((f) => f.startsWith('commands/'));
    expect(commands.length).toBeGreaterThan(0);
    const importers = [...graph].filter(([file, deps]) => !file.startsWith('commands/') && deps.some((d) => d.startsWith('commands/'))).map(([f]) => f);
    expect(importers).toEqual(['cli/table.ts']);
    // What a command runs is imported inside run(): loading one command for --help loads no reader,
    // engine, store, service or report (the tables of flags and defaults are light and allowed).
    const LIGHT = new Set(['engine/options.ts', 'read/types.ts']);
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      for (const d of staticImports(file)) if (!seen.has(d)) closure(d, seen.add(d));
      return seen;
    };
    const HEAVY = /^(engine|read|state|send|map|validate|diff|guard|report|config|notify|export|sets|sandbox|contract|files)\//;
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

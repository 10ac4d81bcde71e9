// The last step of `npm run build` (scripts/build.mjs): the program that bin/upload.js runs, bundled
// from the compiled files of dist/ into a few CommonJS files in dist/program/. Start-up is most of a
// small run's time, and a hundred small modules cost more to load than their code does
// (docs/performance.md, "One program in a few files"): bundled, a dry run of a CSV file loads a few of
// our files instead of a hundred, `upload --help` two.
//
// The files, by what loads them:
//   main.cjs, leave.cjs     the entries bin/upload.js loads (supported-node.cjs and load-program.cjs
//                           stand alone: the first runs before the rest, on any Node; the second
//                           loads the rest with the code cache of what its last run compiled)
//   start-*.cjs             what every run loads: reading the command line, help, errors, exit
//   upload-*.cjs            every module a run reaches that no package or heavy built-in hangs off (no
//                           zod, pg, undici, signal-exit or SheetJS below it): the commands, reading,
//                           mapping, validating, diffing, guards, the report; loaded on the first command
//   more-*.cjs              the same for the features a dry run never runs (LATER_FEATURES below): the
//                           other commands, exports, history, plans, sending, the state store
//   the rest                what only some runs need, each loaded on use, as the sources say: the
//                           state store, sending, workbooks (xlsx-worker.js is the reader's thread),
//                           the schemas
// The packages stay packages (installed beside the program by npm), never copied in. The commands
// are the rows of src/cli/table.ts, each a literal import() the bundler follows like any other.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { SHIPPED_HOOKS, TEST_HOOK_MODULE } from './test-hooks.mjs';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
// --with-test-hooks: the suite's own program, in dist/hooks/ laid out as the package is (bin/ beside
// dist/program/), so the one bin shim runs it; what ships never holds the hooks (scripts/test-hooks.mjs).
const withHooks = args.includes('--with-test-hooks');
// Another built copy's dist/ may be named (bench/ab.js bundles its patched variants so).
const named = args.find((a) => !a.startsWith('--'));
const dist = named ? resolve(named) : join(root, 'dist');
const out = withHooks ? join(dist, 'hooks', 'dist', 'program') : join(dist, 'program');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** What ships: the tests' hooks replaced by modules that do nothing. */
const withoutTestHooks = {
  name: 'without-test-hooks',
  load(id) {
    return TEST_HOOK_MODULE.test(id) ? SHIPPED_HOOKS : null;
  },
};

/**
 * Node's built-ins that a run of a CSV file loads anyway; a module that needs any other (zlib, crypto,
 * worker_threads, http…) is loaded on use, with it.
 */
const LIGHT_BUILTINS = new Set(['node:fs', 'node:fs/promises', 'node:path', 'node:os', 'node:stream', 'node:url', 'node:events', 'node:buffer']);
/**
 * Entries that import nothing of the rest: the Node check (it runs first, on any Node), the loader of
 * the rest (src/cli/load-program.ts), and the workbook reader's thread (an ES module, started from its file).
 */
const standalone = new Set([join(dist, 'cli', 'supported-node.js'), join(dist, 'cli', 'load-program.js'), join(dist, 'read', 'xlsx-worker.js')]);
/** The commands' names, for the loader to keep each command's cache apart (it cannot import the table: the table imports them). */
const { commandNames } = await import(pathToFileURL(join(dist, 'cli', 'table.js')).href);

/**
 * Features a dry run never runs, each reached through an import(): the other commands, exports, the
 * review page, the history and its operations, saved plans, the sandbox, sending, the
 * state store (a dry run without a baseline opens none), the review step. Their modules go to a file of
 * their own (`more`), so the `upload` file a dry run reads and deserialises the cache of is a fifth
 * smaller (docs/performance.md, start-up). Only a grouping: a module of these that a dry run does import
 * statically stays in `upload`.
 */
const LATER_FEATURES = ['export/', 'operations/', 'plans/', 'render/html/', 'sandbox/', 'send/', 'state/', 'pipeline/execute.js', 'pipeline/review.js'];
const UPLOAD_COMMANDS = ['commands/team-members.js', 'commands/store-cards.js'];
const later = (id) => {
  const path = relative(dist, id).split(sep).join('/');
  return LATER_FEATURES.some((f) => (f.endsWith('/') ? path.startsWith(f) : path === f)) || (/^commands\/[^/]+$/.test(path) && !UPLOAD_COMMANDS.includes(path));
};

/** The modules of start.js (what every run loads) and of upload.js (reached from a command, with no package below). */
let everyRun;
let shared;
/** Of `shared`, what a dry run can reach (the `upload` file); the rest goes to `more`. */
let dryRun;
const grouping = {
  name: 'grouping',
  buildEnd() {
    const info = (id) => this.getModuleInfo(id);
    const ours = (id) => id.startsWith(dist);
    const staticClosure = (starts) => {
      const seen = new Set();
      const visit = (id) => {
        if (seen.has(id) || !ours(id)) return;
        seen.add(id);
        for (const next of info(id).importedIds) visit(next);
      };
      starts.forEach(visit);
      return seen;
    };
    // …and the program's --help, which lists the commands without loading any.
    everyRun = staticClosure([join(dist, 'cli', 'main.js'), join(dist, 'cli', 'leave.js'), join(dist, 'cli', 'program-help.js')]);
    // A module with a package or a heavy built-in below it (through static imports) would load it with the file.
    const packageBelow = new Map();
    const hasPackageBelow = (id, path = new Set()) => {
      if (!ours(id)) return !LIGHT_BUILTINS.has(id);
      if (packageBelow.has(id)) return packageBelow.get(id);
      if (path.has(id)) return false;
      path.add(id);
      const below = info(id).importedIds.some((next) => hasPackageBelow(next, path));
      path.delete(id);
      packageBelow.set(id, below);
      return below;
    };
    shared = new Set([...this.getModuleIds()].filter((id) => ours(id) && !everyRun.has(id) && !hasPackageBelow(id) && !standalone.has(id)));
    // Of those, what a dry run of a file can reach: the upload commands' modules, through static
    // imports and every import() but one into a feature it never runs (LATER_FEATURES).
    dryRun = new Set();
    const reached = new Set();
    const reach = (id) => {
      if (reached.has(id) || !ours(id)) return;
      reached.add(id);
      if (shared.has(id)) dryRun.add(id);
      info(id).importedIds.forEach(reach);
      for (const next of info(id).dynamicallyImportedIds) if (!later(next)) reach(next);
    };
    [...everyRun]
      .flatMap((id) => [...info(id).importedIds, ...info(id).dynamicallyImportedIds])
      .filter((id) => !later(id))
      .forEach(reach);
  },
};

/**
 * Node's built-ins required on first use, not when a file loads: the `upload` file names fs/promises
 * (one rename), node:stream (one addAbortSignal) and the like for code most runs never call, and
 * loading them is milliseconds of every start-up (fs/promises brings readline with it). Each
 * `let node_x = require("node:x")` a chunk opens with becomes an object of getters for the names the
 * chunk uses; the first one called puts the module itself in the binding, so later uses (the
 * 1M-row loops too) cost nothing more. A binding the chunk uses otherwise than `node_x.name` stays as it was.
 */
const lazyBuiltins = {
  name: 'lazy-built-ins',
  renderChunk(code) {
    const changed = code.replace(/^let (\w+) = require\("(node:[\w/]+)"\);$/gm, (line, name, id) => {
      const names = new Set();
      for (const [, dotted] of code.matchAll(new RegExp(`(?<![\\w$.])${name}(?![\\w$])(\\.[\\w$]+)?`, 'g')).drop(1)) {
        if (!dotted) return line;
        names.add(dotted.slice(1));
      }
      const getters = [...names].map((n) => `get ${n}() { return (${name} = require(${JSON.stringify(id)})).${n}; }`);
      return `let ${name} = { ${getters.join(', ')} };`;
    });
    return changed === code ? null : { code: changed };
  },
};

/**
 * A package's import() the bundler writes as a require() (`dynamicImportInCjs: false`, below) comes
 * wrapped for a CommonJS package: its `module.exports` as the namespace's `default`. An ES module
 * package (ora) require()d is its namespace already, as import() gives it: the wrapping would make
 * `default` the namespace itself, so for such a package it goes.
 */
const esmPackagesAsThemselves = {
  name: 'esm-packages-as-themselves',
  renderChunk(code) {
    const changed = code.replace(/\b\w+\.__toESM\(require\("([^".][^"]*)"\), 1\)/g, (call, id) => (isEsmPackage(id) ? `require(${JSON.stringify(id)})` : call));
    return changed === code ? null : { code: changed };
  },
};

function isEsmPackage(id) {
  if (id.startsWith('node:')) return false;
  const name = id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0];
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).type === 'module';
  } catch {
    return false;
  }
}

rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: {
    main: join(dist, 'cli', 'main.js'),
    leave: join(dist, 'cli', 'leave.js'),
    'supported-node': join(dist, 'cli', 'supported-node.js'),
    'load-program': join(dist, 'cli', 'load-program.js'),
  },
  platform: 'node',
  // Node's built-ins and the packages: anything not a path.
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  // The version, written in: src/version.ts reads package.json from beside dist/, and the program is a
  // folder deeper (the single executable, which has no files at all, has it written in too).
  transform: { define: { __UPLOAD_VERSION__: JSON.stringify(version), __UPLOAD_COMMANDS__: JSON.stringify(commandNames()) } },
  plugins: [grouping, lazyBuiltins, esmPackagesAsThemselves, ...(withHooks ? [] : [withoutTestHooks])],
  logLevel: 'warn',
  onLog(level, log, handler) {
    // config/load.js is imported lazily in one place and at once in another: the bundle keeps both meanings.
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    handler(level, log);
  },
});
await bundle.write({
  dir: out,
  // CommonJS: bin/upload.js require()s it, with no ES module loader to start, and Node's compile cache
  // (module.enableCompileCache) keeps what V8 compiled of each file for the next run.
  format: 'cjs',
  entryFileNames: '[name].cjs',
  // A chunk's name carries a hash of its contents: an update never meets a stale file.
  chunkFileNames: '[name]-[hash].cjs',
  // Node decodes a module's file to text and V8 reads it: plain ASCII, without the comments, is the
  // quicker of both (the sources keep them; a stack names the function and the bundle's line).
  comments: false,
  charset: 'ascii',
  // A package's import() (ora, undici, SheetJS) as a require(): no file holds an import(), so the loader
  // (src/cli/load-program.ts) compiles them in vm.Script with no dynamic-import callback, which Node
  // would warn of as experimental. Node ≥ 22.19 (the floor) require()s an ES module package (ora) too.
  dynamicImportInCjs: false,
  codeSplitting: {
    groups: [
      // The first group takes its modules first; each group takes the modules its modules import.
      { name: 'start', test: (id) => everyRun.has(id) },
      { name: 'upload', test: (id) => dryRun.has(id) },
      // What only the other commands and features load (LATER_FEATURES): read on their first use.
      { name: 'more', test: (id) => shared.has(id) },
    ],
  },
});
await bundle.close();
// The workbook reader's thread is started from its file, beside the chunk that starts it; it imports
// nothing but SheetJS and Node, so it goes as compiled (an ES module, as the package's type says).
copyFileSync(join(dist, 'read', 'xlsx-worker.js'), join(out, 'xlsx-worker.js'));
if (withHooks) {
  const bin = join(dist, 'hooks', 'bin');
  mkdirSync(bin, { recursive: true });
  for (const f of ['upload.js', 'package.json']) copyFileSync(join(root, 'bin', f), join(bin, f));
}

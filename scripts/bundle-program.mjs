// The last step of `npm run build` (scripts/build.mjs): the program that bin/upload.js runs, bundled
// from the compiled files of dist/ into a few CommonJS files in dist/program/. Start-up is most of a
// small run's time, and a hundred small ES modules cost more to load than their code does
// (docs/performance.md, "One program in a few files"): bundled, a dry run of a CSV file loads four of
// our files instead of 108, `upload --help` three.
//
// The files, by what loads them:
//   main.cjs, leave.cjs     the entries bin/upload.js loads (supported-node.cjs and load-program.cjs
//                           stand alone: they run before the rest)
//   start-*.cjs             what every run loads: reading the command line, help, errors, exit
//   upload-*.cjs            every module a run reaches that no package or heavy built-in hangs off (no
//                           zod, pg, undici, signal-exit or SheetJS below it): the commands, reading,
//                           mapping, validating, diffing, guards, the report; loaded on the first command
//   the rest                what only some runs need, each loaded on use, as the sources say: the
//                           state store, sending, workbooks (xlsx-worker.js is the reader's thread),
//                           the schemas
// The packages stay packages (installed beside the program by npm), never copied in.
//
// A bundle has no folder of commands to read: the commands' list (name, usage, summary, place) and an
// import of each are written in from the files of dist/commands/, so adding a command is still adding
// its file.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
const commandsDir = join(dist, 'commands');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const names = readdirSync(commandsDir)
  .filter((f) => /^[a-z][a-z-]*\.js$/.test(f))
  .map((f) => f.slice(0, -3))
  .sort();
const listing = [];
for (const name of names) {
  const { default: spec } = await import(pathToFileURL(join(commandsDir, `${name}.js`)).href);
  listing.push({ name, usage: spec.usage, summary: spec.summary, order: spec.order });
}

/** src/cli/table.ts imports a command by a name known when it runs; bundled, the import is one of the list. */
const COMMAND_IMPORT = /import\(\s*(?:\/\*[^*]*\*\/\s*)?`\.\.\/commands\/\$\{name\}\.js`\s*\)/g;
const commandsWrittenIn = {
  name: 'commands-written-in',
  transform(code, id) {
    if (id !== join(dist, 'cli', 'table.js')) return null;
    const found = code.match(COMMAND_IMPORT)?.length ?? 0;
    if (found !== 1) throw new Error(`dist/cli/table.js: expected one import(\`../commands/\${name}.js\`), found ${found}`);
    const cases = names.map((n) => `case ${JSON.stringify(n)}: return import('../commands/${n}.js');`).join(' ');
    return code.replace(COMMAND_IMPORT, `((name) => { switch (name) { ${cases} default: throw new Error(\`no command \${name}\`); } })(name)`);
  },
};

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

/** The modules of start.js (what every run loads) and of upload.js (reached from a command, with no package below). */
let everyRun;
let shared;
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
  },
};

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
  transform: {
    define: {
      // The single executable's list of the sources' commands: not this bundle's (its branch drops out).
      __UPLOAD_COMMANDS__: 'undefined',
      __UPLOAD_LISTING__: JSON.stringify(listing),
      __UPLOAD_VERSION__: JSON.stringify(version),
    },
  },
  plugins: [commandsWrittenIn, grouping, ...(withHooks ? [] : [withoutTestHooks])],
  logLevel: 'warn',
  onLog(level, log, handler) {
    // config/load.js is imported lazily in one place and at once in another: the bundle keeps both meanings.
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    handler(level, log);
  },
});
await bundle.write({
  dir: out,
  // CommonJS, so that src/cli/load-program.ts can compile each file with the code cache its last run
  // left (V8 takes a cache for a script, not for an ES module, without Node's experimental flags).
  format: 'cjs',
  entryFileNames: '[name].cjs',
  // A chunk's name carries a hash of its contents, and so does the name of its cache.
  chunkFileNames: '[name]-[hash].cjs',
  // Node decodes a module's file to text and V8 reads it: plain ASCII, without the comments, is the
  // quicker of both (the sources keep them; a stack names the function and the bundle's line).
  comments: false,
  charset: 'ascii',
  codeSplitting: {
    groups: [
      // The first group takes its modules first; each group takes the modules its modules import.
      { name: 'start', test: (id) => everyRun.has(id) },
      { name: 'upload', test: (id) => shared.has(id) },
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

// Loads the bundled program (dist/program/, CommonJS files, scripts/bundle-program.mjs) with V8's code
// cache of what the last run compiled. Start-up is most of a small run's time, and a quarter of a
// 10-row dry run's instructions were V8 compiling functions on their first call: Node's own compile
// cache (module.enableCompileCache) keeps only what V8 compiles before a module runs (its top level),
// so every run compiled the same functions again. Here a file's cache is made when the run that loaded
// it ends, with every function that run compiled (the way browsers keep code caches), and the next run
// starts from it (docs/performance.md, "Round 6, fourth session"). Only a short run that succeeded
// makes one (worthKeeping).
//
// No Node warning: the bundle holds no `import()` (the bundler writes a package's as a `require()`,
// scripts/bundle-program.mjs), so the scripts need no dynamic-import callback, the experimental
// `vm.USE_MAIN_CONTEXT_DEFAULT_LOADER` that made round 5's loader warn.
//
// Whose: each command's runs keep their own (`team-members.upload-….cjs`), and its help apart. A cache
// holds only what the run that made it compiled, and is not remade while it fits, so one cache for all
// would be as thin as the first run: after an `upload --help` first, every dry run would compile a
// third of its code again.
//
// Where: a folder of its own inside Node's compile cache folder (NODE_COMPILE_CACHE, else the system's
// temp folder), per Node version and installed copy, used only if it is yours and nobody else can write
// to it (a cache is code this process runs). NODE_DISABLE_COMPILE_CACHE=1 turns both caches off. A
// chunk's file name carries a hash of its contents, and so does its cache's: a changed program never
// meets an old cache (V8 itself checks only its version, its flags and the source's length). The cache
// is an optimisation: anything wrong with it (missing, rejected, unwritable) just means compiling as before.
//
// Imports nothing of the program's (it is what loads the program).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, getCompileCacheDir, wrap } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

interface Loaded {
  exports: unknown;
}

/** A chunk's name as the bundler writes it: `upload-B4xq1a2Z.cjs` is the chunk `upload`, hashed. */
const HASHED = /^(.+)-[A-Za-z0-9_-]{8}\.cjs$/;

/** The command names (src/cli/table.ts), written in by the bundler (scripts/bundle-program.mjs); unknown from source. */
declare const __UPLOAD_COMMANDS__: readonly string[] | undefined;

const HELP = new Set(['--help', '-h', '--help-all', '--version', '-V']);

/**
 * Which runs share a cache: those of one command (the first of its words that names one), and that
 * command's help and version apart, which compile little of it. Only a cache's worth rides on it.
 */
export function runKind(argv: readonly string[], commands: readonly string[] = typeof __UPLOAD_COMMANDS__ === 'undefined' ? [] : __UPLOAD_COMMANDS__): string {
  const command = argv.find((a) => commands.includes(a)) ?? 'upload';
  return argv.length === 0 || argv.some((a) => HELP.has(a)) ? `${command}-help` : command;
}

/**
 * Returns a `require` for the files of `folder`: the program's, compiled with the caches of runs of
 * `kind` (runKind); the rest by Node.
 */
export function programLoader(folder: string, kind: string, cacheRoot: string | undefined = getCompileCacheDir?.()): (file: string) => unknown {
  // One folder per installed copy: two copies of the tool on one machine (a global one, a project's)
  // would otherwise drop each other's caches as older builds on every run.
  const cache = cacheRoot === undefined ? undefined : ownFolder(join(cacheRoot, `scheduling-upload-${process.version}-${process.arch}`, pathHash(folder)));
  const loaded = new Map<string, Loaded>();
  const uncached: { script: Script; cacheFile: string }[] = [];

  const load = (file: string): unknown => {
    const known = loaded.get(file);
    if (known) return known.exports;
    const module: Loaded = { exports: {} };
    // Before it runs, as Node does: a file that two others import, each importing the other, sees one module.
    loaded.set(file, module);
    const cacheFile = cache !== undefined && HASHED.test(basename(file)) ? join(cache, `${kind}.${basename(file)}`) : undefined;
    const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
    const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
    if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) uncached.push({ script, cacheFile });
    const outside = createRequire(file);
    const require = (id: string): unknown => (id.startsWith('./') ? load(join(dirname(file), id)) : outside(id));
    (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, require, module, file, dirname(file));
    return module.exports;
  };

  if (cache !== undefined)
    process.once('exit', (code) => {
      if (worthKeeping(code, performance.now())) uncached.forEach(({ script, cacheFile }) => keep(script, cacheFile));
    });
  return (file) => load(join(folder, file));
}

/** A run longer than this may have let V8 drop the code of functions it ran only at its start. */
const SHORT_RUN_MS = 1000;

/** Exit codes of runs that succeeded: 0; 8, changes found under --detailed-exitcode; 9, removals held back. */
const SUCCEEDED = new Set([0, 8, 9]);

/**
 * Whether a run's cache is one for every later run of its kind to start from, as it is never made
 * again while it fits: a run that succeeded (one that stopped at a mistake compiled only what led to
 * it) and was short. V8 drops the bytecode of functions that have not run for a few full collections,
 * so the cache of a 10⁶-record dry run held half of a 10-row run's (296 against 566 KB), and a 10-row
 * run started from it took 105 ms where it takes 69 (docs/performance.md, "Round 6, fifth session").
 */
export function worthKeeping(exitCode: number, ranMs: number): boolean {
  return SUCCEEDED.has(exitCode) && ranMs < SHORT_RUN_MS;
}

/** `path`, made if missing, if it and the two folders it is in are this user's, and no one else can write to them. */
function ownFolder(path: string): string | undefined {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    return [path, dirname(path), dirname(dirname(path))].every(onlyMine) ? path : undefined;
  } catch {
    return undefined;
  }
}

function onlyMine(path: string): boolean {
  const s = statSync(path);
  // On Windows modes and owners say nothing of who may write (a folder's access list does): a folder it is.
  if (process.platform === 'win32') return s.isDirectory();
  return s.isDirectory() && (s.mode & 0o022) === 0 && s.uid === process.getuid?.();
}

/** A short name for a folder's path (FNV-1a, 32 bits): only to tell installed copies apart. */
function pathHash(path: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** A cache's file name is the kind of run, a dot, and the chunk's: `team-members.upload-B4xq1a2Z.cjs`. */
const chunkOf = (cacheName: string) => cacheName.slice(cacheName.indexOf('.') + 1);

/** Writes the script's cache (what this run compiled) whole or not at all, and drops every kind's caches of the chunk's older builds. */
function keep(script: Script, cacheFile: string): void {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, cacheFile);
    const chunk = chunkOf(basename(cacheFile));
    const name = HASHED.exec(chunk)?.[1];
    const folder = dirname(cacheFile);
    for (const other of readdirSync(folder)) {
      const of = chunkOf(other);
      if (of !== chunk && HASHED.exec(of)?.[1] === name) rmSync(join(folder, other), { force: true });
    }
  } catch {
    rmSync(temp, { force: true });
  }
}

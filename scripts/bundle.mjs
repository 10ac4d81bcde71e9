// The tool as one CommonJS file (step 1 of scripts/build-exe.mjs), kept apart so a test can bundle it
// and run it under plain node in seconds, without making a 130 MB executable. The same bundler as the
// build's (rolldown), from the sources.
import { readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { rolldown } from 'rolldown';
import { SHIPPED_HOOKS, TEST_HOOK_MODULE } from './test-hooks.mjs';

const root = join(import.meta.dirname, '..');

/** The executable ships without the tests' hooks (scripts/test-hooks.mjs): their module does nothing. */
const withoutTestHooks = {
  name: 'without-test-hooks',
  load(id) {
    return TEST_HOOK_MODULE.test(id) ? SHIPPED_HOOKS : null;
  },
};

/** One CommonJS file of `entry` and everything it imports, packages included; returns the bundled inputs. */
async function bundleOne(entry, define, outfile) {
  const bundle = await rolldown({
    input: entry,
    platform: 'node',
    // The sources import each other as .js (what they compile to); here they are read as they are, .ts.
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    // pg's optional native binding, never used (pg's pure-JS client is).
    external: ['pg-native'],
    transform: { define },
    plugins: [withoutTestHooks],
    logLevel: 'warn',
    onLog(level, log, handler) {
      // Packages' own quirks (eval in SheetJS, `this` at the top of old CommonJS): theirs, not ours.
      if (log.code === 'EVAL' || log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' || log.code === 'MISSING_EXPORT') return;
      handler(level, log);
    },
  });
  const { output } = await bundle.write({
    file: outfile,
    // An executable's main script can require() only Node's built-ins and has no import(): every
    // import() of ours or a package's becomes a lazily run module inside the one file, so what loads on
    // use still does, and one of a built-in a require() on use.
    format: 'cjs',
    codeSplitting: false,
    dynamicImportInCjs: false,
    comments: false,
  });
  await bundle.close();
  return output[0].moduleIds;
}

/** Bundles src/cli/exe.ts into `outfile`; returns the bundled inputs (for the licences). */
export async function bundleTool(outfile, version) {
  // The workbook reader's worker thread (src/read/xlsx-worker.ts) is started from a file when
  // installed; an executable has no files, so the worker is bundled on its own and carried as source.
  const workerFile = `${outfile}.xlsx-worker.cjs`;
  const workerInputs = await bundleOne(join(root, 'src', 'read', 'xlsx-worker.ts'), {}, workerFile);
  const worker = readFileSync(workerFile, 'utf8');
  rmSync(workerFile);
  const inputs = await bundleOne(
    join(root, 'src', 'cli', 'exe.ts'),
    {
      // What the program would read from files beside it (src/version.ts, src/read/xlsx-session.ts).
      __UPLOAD_VERSION__: JSON.stringify(version),
      __XLSX_WORKER__: JSON.stringify(worker),
    },
    outfile,
  );
  return { inputs: Object.fromEntries([...inputs, ...workerInputs].map((id) => [relative(root, id), true])) };
}

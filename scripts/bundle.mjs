// The tool as one CommonJS file (step 1 of scripts/build-exe.mjs), kept apart so a test can bundle it
// and run it under plain node in seconds, without making a 130 MB executable.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { SHIPPED_HOOKS, TEST_HOOK_MODULE } from './test-hooks.mjs';

/** The executable ships without the tests' hooks (scripts/test-hooks.mjs): their module does nothing. */
const withoutTestHooks = {
  name: 'without-test-hooks',
  setup(b) {
    b.onLoad({ filter: TEST_HOOK_MODULE }, () => ({ contents: SHIPPED_HOOKS, loader: 'js' }));
  },
};

const root = join(import.meta.dirname, '..');

/** Bundles src/cli/exe.ts into `outfile`; returns the bundled inputs (for the licences). */
export async function bundleTool(outfile, version) {
  // The workbook reader's worker thread (src/read/xlsx-worker.ts) is started from a file when
  // installed; an executable has no files, so the worker is bundled on its own and carried as source.
  const worker = await build({
    entryPoints: [join(root, 'src', 'read', 'xlsx-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const { metafile } = await build({
    entryPoints: [join(root, 'src', 'cli', 'exe.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // An executable's main script can require() only Node's built-ins and has no import(): every
    // import() becomes a lazily run module inside the bundle, so what loads on use still does.
    supported: { 'dynamic-import': false },
    // pg's optional native binding, never used (pg's pure-JS client is).
    external: ['pg-native'],
    // src/commands/ is the list of commands (src/cli/table.ts); an executable has no folder to list.
    define: {
      __UPLOAD_VERSION__: JSON.stringify(version),
      __XLSX_WORKER__: JSON.stringify(worker.outputFiles[0].text),
      __UPLOAD_COMMANDS__: JSON.stringify(commandFiles()),
    },
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [withoutTestHooks],
    // src/cli/table.ts imports the commands as .js when built, as .ts when bundled: one glob is always empty.
    logOverride: { 'empty-glob': 'silent' },
  });
  return { inputs: { ...metafile.inputs, ...worker.metafile.inputs } };
}

/** The commands: the files of src/commands/, by name. */
function commandFiles() {
  return readdirSync(join(root, 'src', 'commands'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

// `npm run build`: the sources compiled into dist/, one file per source (what the tests' child
// processes, the benchmarks and `npm run demo` import), then the program bin/upload.js runs bundled from
// those files into dist/program/ (scripts/bundle-program.mjs). Compiling strips the types and nothing
// else, with rolldown's transform (vitest's and the single executable's bundler do the same to the same
// sources), in a fifth of a second where tsc's emit took four; the types are tsc's to check:
// `npm run typecheck`, which CI and `npm pack` run first.
import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { rolldown } from 'rolldown';

const root = join(import.meta.dirname, '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(src, f));
const compile = await rolldown({
  input: Object.fromEntries(sources.map((f) => [relative(src, f).replace(/\.ts$/, ''), f])),
  platform: 'node',
  // Node's built-ins and the packages: anything not a path.
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  logLevel: 'warn',
});
await compile.write({ dir: dist, format: 'esm', preserveModules: true, preserveModulesRoot: src, entryFileNames: '[name].js' });
await compile.close();

await import('./bundle-program.mjs');

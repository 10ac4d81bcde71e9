// The tests that spawn the real CLI (`node bin/upload.js`) or a child importing dist/ run the built
// code; every other test imports the TypeScript sources. So that `npx vitest` never tests stale code,
// dist/ is rebuilt first when any source is newer than it (`npm test` has just built it: then this
// only looks at the clock).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)),
  );
}

const builtAt = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

export default function setup(): void {
  const sources = newest(join(ROOT, 'src'));
  // `npm run build`: the sources compiled into dist/, and the program bundled from them.
  if (sources > builtAt(join(ROOT, 'dist', 'program', 'main.cjs'))) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  // The suite's own program, with its hooks (scripts/test-hooks.mjs): what ships has none.
  if (sources > builtAt(join(ROOT, 'dist', 'hooks', 'dist', 'program', 'main.cjs'))) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-program.mjs'), '--with-test-hooks'], { stdio: 'inherit' });
  }
}

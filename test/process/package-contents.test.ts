// What `npm pack` ships: the built program (bundled: dist/program/, scripts/bundle-program.mjs), the docs
// the README and --help point at, the contract and the report's schema; no tests, no sources, no source
// maps pointing at sources it lacks, and not tsc's one file per source that the bundle is made from.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
// @ts-expect-error: a plain JavaScript build script, without types
import { HOOK_WORDS as WORDS } from '../../scripts/test-hooks.mjs';

const HOOK_WORDS = WORDS as readonly string[];

interface PackedFile {
  readonly path: string;
}

/** The tarball's file list, as npm computes it (no scripts: `npm test` has built dist/ already). */
function packedFiles(): string[] {
  const args = ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'];
  // Under `npm test` npm names its own entry point: no shell needed to find npm(.cmd) on Windows.
  const npmCli = process.env.npm_execpath;
  const out = npmCli?.endsWith('.js')
    ? execFileSync(process.execPath, [npmCli, ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    : execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
  const [pack] = JSON.parse(out) as [{ files: PackedFile[] }];
  return pack.files.map((f) => f.path).sort();
}

describe('the package', () => {
  const files = packedFiles();

  it('holds only the program, its docs and the package files', () => {
    const allowed =
      /^(?:package\.json|README\.md|CHANGELOG\.md|bin\/upload\.js|bin\/package\.json|dist\/program\/[a-z-]+(?:-[\w-]{8})?\.cjs|dist\/program\/xlsx-worker\.js|docs\/[^/]+\.(?:md|json|png))$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
  });

  it('ships no tests, no sources and no source maps', () => {
    expect(files.filter((f) => /\.map$|\.test\.|^src\/|^test\/|^fixtures\/|^bench\/|^scripts\/|^dist\/cli\/demo\.js$/.test(f))).toEqual([]);
  });

  it('carries the entry point, the contract, the report schema and the changelog', () => {
    for (const f of [
      'bin/upload.js',
      'bin/package.json',
      'dist/program/main.cjs',
      'dist/program/supported-node.cjs',
      'docs/service-interface.md',
      'docs/report.schema.json',
      'CHANGELOG.md',
    ]) {
      expect(files).toContain(f);
    }
  });

  it('carries every page of docs/, and every file the README links to', () => {
    for (const page of readdirSync(join(ROOT, 'docs'))) expect(files).toContain(`docs/${page}`);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?:docs\/|CHANGELOG)[^)#\s]*)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(files).toContain(link);
  });

  it('ships the bundle as the build wrote it: every file of dist/program/ and nothing from an earlier build', () => {
    const built = readdirSync(join(ROOT, 'dist', 'program')).map((f) => `dist/program/${f}`);
    expect(files.filter((f) => f.startsWith('dist/'))).toEqual(built.sort());
  });

  it('holds no test hook: not in the program, nor in its entry point', () => {
    for (const f of files.filter((path) => /^(?:bin|dist)\//.test(path))) {
      const text = readFileSync(join(ROOT, f), 'latin1');
      for (const word of HOOK_WORDS) expect(text, `${f} holds ${word}`).not.toContain(word);
    }
    // The suite's own build, from the same sources, does hold it: the check above would see it.
    expect(
      readdirSync(join(ROOT, 'dist', 'hooks', 'dist', 'program')).some((f) =>
        readFileSync(join(ROOT, 'dist', 'hooks', 'dist', 'program', f), 'latin1').includes(HOOK_WORDS[0]!),
      ),
    ).toBe(true);
  });
});

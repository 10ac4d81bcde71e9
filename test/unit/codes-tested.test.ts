// Every error and issue code a script may key on is named in a test (issue 43): one that produces it in
// a run and asserts it. The lists that only classify codes (their docs, their fixes) do not count.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { ISSUE_CODES } from '../../src/issues.js';
import { ROOT } from '../helpers/cli.js';

/** Files that name every code by construction: they prove nothing about a code being produced. */
const LISTS = ['test/unit/codes-tested.test.ts', 'test/unit/codes-documented.test.ts', 'test/unit/fixes-covered.test.ts'];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
const tests = files(join(ROOT, 'test'))
  .filter((file) => !LISTS.includes(relative(ROOT, file)))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

describe('every code is named in a test', () => {
  it.each([...Object.values(ERROR_CODES).flat(), ...ISSUE_CODES])('%s', (code) => {
    expect(new RegExp(`\\b${code}\\b`).test(tests), `no test under test/ names ${code}: add one that produces it`).toBe(true);
  });
});

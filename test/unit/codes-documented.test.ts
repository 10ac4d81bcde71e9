// Every error and issue code a script may key on is listed in docs/report.md, with its exit code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, EXIT } from '../../src/errors.js';
import { ISSUE_CODES } from '../../src/issues.js';
import { ROOT } from '../helpers/cli.js';

const doc = readFileSync(`${ROOT}/docs/report.md`, 'utf8');
const row = (code: string) => doc.split('\n').find((l) => l.startsWith(`| \`${code}\` |`));

describe('docs/report.md', () => {
  const exitOf = {
    usage: EXIT.usage,
    invalid: EXIT.invalid,
    refused: EXIT.refused,
    rejected: EXIT.rejected,
    unreachable: EXIT.unreachable,
    unverified: EXIT.unverified,
    interrupted: EXIT.interrupted,
    internal: EXIT.internal,
  };
  it.each(Object.entries(ERROR_CODES).flatMap(([kind, codes]) => codes.map((code) => [code, exitOf[kind as keyof typeof exitOf]] as const)))(
    'lists error code %s with exit %i',
    (code, exit) => {
      expect(row(code), `docs/report.md has no row for ${code}`).toBeDefined();
      expect(row(code)).toMatch(new RegExp(`^\\| \`${code}\` \\| ${exit} \\|`));
    },
  );

  it('lists no error code the source no longer has', () => {
    const listed = doc
      .slice(doc.indexOf('## Error codes'), doc.indexOf('## Merged codes'))
      .split('\n')
      .map((l) => /^\| `([A-Z_0-9]+)` \| \d+ \|/.exec(l)?.[1])
      .filter((c) => c !== undefined);
    expect(listed.filter((c) => !(Object.values(ERROR_CODES).flat() as readonly string[]).includes(c))).toEqual([]);
    expect(listed.length).toBe(Object.values(ERROR_CODES).flat().length);
  });

  // The merged-codes table: each old code is gone from the source, and the code it became is one of its codes.
  const merged = doc
    .slice(doc.indexOf('## Merged codes'), doc.indexOf('## Issue codes'))
    .split('\n')
    .map((l) => /^\| `([A-Z_0-9]+)` \| `([A-Z_0-9]+)` \|/.exec(l))
    .filter((m) => m !== null)
    .map((m) => [m[1]!, m[2]!] as const);
  it('has a merged-codes table', () => expect(merged.length).toBeGreaterThan(0));
  it.each(merged)('lists the merged code %s as %s, a code of the source', (old, now) => {
    const all: readonly string[] = Object.values(ERROR_CODES).flat();
    expect(all).not.toContain(old);
    expect(all).toContain(now);
  });

  it.each(Object.entries(EXIT))('lists exit code %s (%i) in the exit-code table', (_name, code) => {
    expect(doc.split('\n').some((l) => l.startsWith(`| ${code} | `))).toBe(true);
  });

  it.each(ISSUE_CODES.map((c) => [c]))('lists issue code %s with its severity', (code) => {
    expect(row(code), `docs/report.md has no row for ${code}`).toMatch(new RegExp(`^\\| \`${code}\` \\| (error|warning) \\|`));
  });
});

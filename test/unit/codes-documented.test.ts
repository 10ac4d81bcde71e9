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

  it.each(Object.entries(EXIT))('lists exit code %s (%i) in the exit-code table', (_name, code) => {
    expect(doc.split('\n').some((l) => l.startsWith(`| ${code} | `))).toBe(true);
  });

  it.each(ISSUE_CODES.map((c) => [c]))('lists issue code %s with its severity', (code) => {
    expect(row(code), `docs/report.md has no row for ${code}`).toMatch(new RegExp(`^\\| \`${code}\` \\| (error|warning) \\|`));
  });
});

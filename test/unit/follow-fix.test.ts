// The helper that follows a fix as a script would (test/helpers/follow-fix.ts): flags added to the
// same command (before `--`), a command run instead, a cell written in a CSV file as it is written.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { followFix } from '../helpers/follow-fix.js';
import { tempDir } from '../helpers/tmp.js';

describe('followFix', () => {
  it('adds flags to the same words, before a `--` after which every word is an argument', () => {
    expect(followFix(['team-members', 'a.csv', '--yes'], { kind: 'flags', args: ['--max-removals', '3'] })).toEqual([
      'team-members',
      'a.csv',
      '--yes',
      '--max-removals',
      '3',
    ]);
    expect(followFix(['remove', 'team-members', '--', '-E1'], { kind: 'flags', args: ['--dry-run'] })).toEqual([
      'remove',
      'team-members',
      '--dry-run',
      '--',
      '-E1',
    ]);
  });

  it("runs a command instead, with the harness's own words kept", () => {
    expect(followFix(['team-members', 'a.csv'], { kind: 'command', args: ['store-cards', 's.csv', '--dry-run'] }, { keep: ['--json'] })).toEqual([
      'store-cards',
      's.csv',
      '--dry-run',
      '--json',
    ]);
  });

  it.each([
    ['a comma CSV', 'id,email,name\nE1,a@example.com,Ann\nE2,b@example.com,Bo\n', 'id,email,name\nE1,a@example.com,Ann\nE2,b@example.com,"Bo, Jr"\n'],
    [
      'semicolons, CRLF and a BOM',
      '\uFEFFid;email;name\r\nE1;a@example.com;Ann\r\nE2;b@example.com;Bo\r\n',
      '\uFEFFid;email;name\r\nE1;a@example.com;Ann\r\nE2;b@example.com;Bo, Jr\r\n',
    ],
    [
      'quoted cells kept as written',
      'id,"e,mail",name\nE1,"a@example.com",Ann\nE2,"b@example.com","Bo"\n',
      'id,"e,mail",name\nE1,"a@example.com",Ann\nE2,"b@example.com","Bo, Jr"\n',
    ],
  ])('writes a cell of %s, every other byte as it was', (_title, before, after) => {
    const file = tempDir().write('a.csv', before);
    expect(followFix(['team-members', file], { kind: 'cell', line: 3, column: 'name', text: 'Bo, Jr' }, { file })).toEqual(['team-members', file]);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('refuses a cell it cannot find, rather than write another', () => {
    const file = tempDir().write('a.csv', 'id,name\nE1,Ann\n');
    expect(() => followFix([], { kind: 'cell', line: 2, column: 'email', text: 'x' }, { file })).toThrow(/no column 'email'/);
    expect(() => followFix([], { kind: 'cell', line: 9, column: 'name', text: 'x' }, { file })).toThrow(/no line 9/);
  });
});

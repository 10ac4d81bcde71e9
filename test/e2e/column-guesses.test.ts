// A column guess is a hint a person follows: "'Emial' looks like 'email' → --map …" must send the
// column it names, and a name that only shares a word with a field ('Location Code' is not 'position
// code', 'Employee Role' is not 'employee code') is never offered as one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

interface Found {
  readonly code: string;
  readonly column: string | null;
  readonly fixes?: { kind: string; args: string[] }[];
}

async function members(text: string, ...flags: string[]) {
  sb ??= await sandbox();
  const file = join(sb.dir, 'staff.csv');
  writeFileSync(file, text);
  const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...flags], { env: sb.env });
  return { r, issues: r.json().issues as Found[], stored: await sb.stored('/integrations/teamMembers') };
}

describe('column guesses', () => {
  it("following the guess for 'Emial' sends that column as the email", async () => {
    const text = 'employeeID,Emial,name,roleCode,parentKey\nE1,ann@example.com,Ann Lee,CASH,S1\nE2,bo@example.com,Bo Park,LEAD,S2\n';
    const first = await members(text);
    expect(first.r.code).toBe(3);
    expect(first.stored).toEqual([]);
    const guess = first.issues.find((i) => i.code === 'UNPLACED_COLUMN')!;
    expect(guess.fixes![0]).toEqual({ kind: 'flags', args: ['--map', '{"email": "Emial"}'] });
    const followed = await members(text, ...guess.fixes![0]!.args);
    expect(followed.r.code, followed.r.stderr).toBe(0);
    expect(followed.stored).toEqual([
      { employeeID: 'E1', email: 'ann@example.com', name: 'Ann Lee', roleCode: 'CASH', parentKey: 'S1' },
      { employeeID: 'E2', email: 'bo@example.com', name: 'Bo Park', roleCode: 'LEAD', parentKey: 'S2' },
    ]);
  });

  it("'Location Code' and 'Employee Role' are not guessed as roleCode and employeeID; the fixes leave nothing to chance", async () => {
    const text = 'Employee Number,Email,Name,Location Code,Employee Role\n1001,ann@example.com,Ann Lee,DE-001,Cashier\n';
    const first = await members(text);
    expect(first.r.code).toBe(3);
    expect(first.issues.filter((i) => i.code === 'UNPLACED_COLUMN')).toEqual([]);
    // Two fields without a column and two unused columns: no --map line is offered as a fix, only leaving them out.
    const unused = first.issues.find((i) => i.code === 'UNUSED_COLUMNS')!;
    expect(unused.fixes).toEqual([{ kind: 'flags', args: ['--ignore-column', 'Location Code', '--ignore-column', 'Employee Role'] }]);
    const followed = await members(text, ...unused.fixes![0]!.args);
    expect(followed.r.code, followed.r.stderr).toBe(0);
    expect(followed.stored).toEqual([{ employeeID: '1001', email: 'ann@example.com', name: 'Ann Lee', roleCode: null, parentKey: null }]);
  });

  it('a --map line is a fix only where the one unused column could hold the one missing field', async () => {
    const text = 'Employee Number,Email,Name,Store,Funktion\n1001,ann@example.com,Ann Lee,S1,KASSE\n';
    const first = await members(text);
    const unused = first.issues.find((i) => i.code === 'UNUSED_COLUMNS')!;
    expect(unused.fixes).toEqual([
      { kind: 'flags', args: ['--map', '{"roleCode":"Funktion"}'] },
      { kind: 'flags', args: ['--ignore-column', 'Funktion'] },
    ]);
    const followed = await members(text, ...unused.fixes![0]!.args);
    expect(followed.r.code, followed.r.stderr).toBe(0);
    expect(followed.stored).toEqual([{ employeeID: '1001', email: 'ann@example.com', name: 'Ann Lee', roleCode: 'KASSE', parentKey: 'S1' }]);
    // An address is no role code: the line is not offered, only leaving the column out.
    const address = await members('Employee Number,Email,Name,Store,Private Mail\n1001,ann@example.com,Ann Lee,S1,ann@home.example\n');
    expect(address.issues.find((i) => i.code === 'UNUSED_COLUMNS')!.fixes).toEqual([{ kind: 'flags', args: ['--ignore-column', 'Private Mail'] }]);
  });
});

// A file full of mistakes: every one reported on its line, in one pass, with nothing sent (exit 3);
// the errors CSV, --store-cards, --map and the human report, through the real CLI: in-process, or
// spawned in another working directory where a test names files as a user there types them.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { sandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const FIXTURES = dirname(fixture('store-cards.csv'));
const json = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
/** A --json dry run, in `cwd` when given (relative paths are read against it). */
const dry = (args: string[], cwd?: string) => runCli([...args, '--dry-run', '--no-baseline', '--json'], cwd === undefined ? {} : { cwd });

describe.concurrent('a file full of mistakes', () => {
  it.each([
    ['team-members', 'team-members-mistakes.csv', ['--store-cards', 'store-cards.csv']],
    ['store-cards', 'store-cards-mistakes.csv', []],
  ])('%s: %s reports exactly its issue list, and nothing is sent', async (kind, file, args) => {
    const sb = await sandbox();
    try {
      const path = kind === 'store-cards' ? '/integrations/storeCards' : '/integrations/teamMembers';
      // A set already on the service, which the invalid file must leave alone.
      const before = await runCli([kind, `${kind}.csv`, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env, cwd: FIXTURES });
      expect(before.code, before.stderr).toBe(0);
      const stored = await sb.stored(path);

      const r = await runCli([kind, file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...args], { env: sb.env, cwd: FIXTURES });
      expect(r.code).toBe(3);
      expect(r.json()).toMatchObject({ outcome: 'invalid', exitCode: 3, response: null, error: { code: 'INVALID_RECORDS' } });
      const issues = r.json().issues as { code: string }[];
      // Its columns are not those of the upload before it: that is named first (docs/input.md, "A layout remembered").
      expect(issues[0]).toMatchObject({ code: 'LAYOUT_CHANGED', severity: 'warning', line: 1 });
      expect(issues.slice(1)).toEqual(json(file.replace('.csv', '.issues.json')));
      expect(await sb.stored(path)).toEqual(stored);
    } finally {
      await sb.stop();
    }
  });

  it('the human report groups errors and warnings as file:line column: message, and ends with counts and what to do', async () => {
    const out = tempDir();
    const r = await runCli(
      [
        'team-members',
        'team-members-mistakes.csv',
        '--dry-run',
        '--no-baseline',
        '--store-cards',
        'store-cards.csv',
        '--errors-csv',
        join(out.dir, 'rejected.csv'),
      ],
      { cwd: FIXTURES },
    );
    expect(r.code).toBe(3);
    const lines = r.stderr.trimEnd().split('\n');
    const errors = lines.indexOf('7 errors:');
    const warnings = lines.indexOf('4 warnings:');
    expect(errors).toBeGreaterThanOrEqual(0);
    expect(warnings).toBe(errors + 8);
    expect(lines[errors + 1]).toBe("  team-members-mistakes.csv:3 E-mail: email 'bob@' is not an email address; fix the cell or remove the row");
    expect(lines[errors + 6]).toBe('  team-members-mistakes.csv:11 Name: name is required but is empty; fill it in or remove the row');
    expect(lines[warnings + 1]).toContain("team-members-mistakes.csv:9 Name: name '=HYPERLINK(\"http://x\")' starts with '='");
    expect(lines.at(-2)).toBe('upload: team-members-mistakes.csv: 7 errors and 4 warnings in 14 records (7 rejected); nothing was sent');
    expect(lines.at(-1)).toBe(
      `  → fix the cells named above (the rejected rows are in ${join(out.dir, 'rejected.csv')}, with an errors column) in the file, then run again`,
    );
  });
});

describe.concurrent('--errors-csv', () => {
  it('writes the rejected rows exactly as they were, plus an errors column, even though the run is invalid', async () => {
    const out = join(tempDir().dir, 'rejected.csv');
    const r = await dry(['team-members', fixture('team-members-mistakes.csv'), '--errors-csv', out]);
    expect(r.code).toBe(3);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(FIXTURES, 'team-members-mistakes.errors.csv'), 'utf8'));
  });

  it('keeps the delimiter of the input, and reads back with the same errors', async () => {
    const t = tempDir();
    t.write('staff.csv', 'employeeID;email;name\r\nE1;a@example.com;Ann\r\nE2;"b;@";Bob\r\n');
    const r = await dry(['team-members', 'staff.csv', '--errors-csv', 'rejected.csv'], t.dir);
    expect(r.code).toBe(3);
    const written = readFileSync(join(t.dir, 'rejected.csv'), 'utf8');
    expect(written).toBe(
      '\uFEFFemployeeID;email;name;errors\r\nE2;"b;@";Bob;"line 3: email: email \'b;@\' is not an email address; fix the cell or remove the row"\r\n',
    );
    const again = await dry(['team-members', 'rejected.csv'], t.dir);
    expect(again.json().issues.map((i: { code: string; line: number }) => [i.code, i.line])).toEqual([
      ['UNKNOWN_COLUMN', 1],
      ['INVALID_EMAIL', 2],
    ]);
  });

  it('a valid run writes the header alone, so an old file never misleads', async () => {
    const t = tempDir();
    t.write('rejected.csv', 'stale');
    const r = await dry(['team-members', join(FIXTURES, 'team-members.csv'), '--errors-csv', 'rejected.csv'], t.dir);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(t.dir, 'rejected.csv'), 'utf8')).toBe('\uFEFFemployeeID,email,name,roleCode,parentKey,errors\r\n');
  });

  it('JSON records are written under the union of their keys', async () => {
    const t = tempDir();
    t.write('staff.json', '[{"employeeID": "E1", "email": "x", "name": "A"},\n {"employeeID": 2, "name": "B", "roleCode": 3}]');
    const r = await dry(['team-members', 'staff.json', '--errors-csv', 'rejected.csv'], t.dir);
    expect(r.code).toBe(3);
    expect(readFileSync(join(t.dir, 'rejected.csv'), 'utf8').split('\r\n')).toEqual([
      '\uFEFFemployeeID,email,name,roleCode,errors',
      "E1,x,A,,line 1: email: email 'x' is not an email address; fix the cell or remove the row",
      '2,,B,3,line 2: email is required but is empty; fill it in or remove the row',
      '',
    ]);
  });
});

describe.concurrent('columns', () => {
  it('a missing required column is one error listing the columns found', async () => {
    const t = tempDir();
    const r = await dry(['team-members', t.write('staff.csv', 'Kennung,Mail,Name\n1,a@example.com,A\n')]);
    expect(r.code).toBe(3);
    expect(r.json().issues).toEqual([
      { severity: 'warning', code: 'UNKNOWN_COLUMN', line: 1, column: 'Kennung', field: null, value: null, message: "column 'Kennung' is not used" },
      {
        severity: 'error',
        code: 'MISSING_COLUMN',
        line: 1,
        column: null,
        field: 'employeeID',
        value: null,
        message: 'required column employeeID not found; columns found: Kennung, Mail, Name; rename a column, or name it with --map',
      },
    ]);
  });

  it('a column that looks like a field but is placed nowhere is an error saying how to map or ignore it', async () => {
    const t = tempDir();
    const r = await dry(['team-members', t.write('staff.csv', 'employeeID,Emial,name,Rolecode,Parnet Key\nE1,a@example.com,A,3,S1\n')]);
    expect(r.code).toBe(3);
    expect(r.json().issues.map((i: { code: string; message: string }) => [i.code, i.message])).toEqual([
      [
        'UNPLACED_COLUMN',
        `column 'Emial' looks like 'email' but is not used; map it with --map '{"email": "Emial"}', rename it, or leave it out with --ignore-column 'Emial' (or "ignore": ["Emial"] in the --map mapping)`,
      ],
      [
        'UNPLACED_COLUMN',
        `column 'Parnet Key' looks like 'parentKey' but is not used; map it with --map '{"parentKey": "Parnet Key"}', rename it, or leave it out with --ignore-column 'Parnet Key' (or "ignore": ["Parnet Key"] in the --map mapping)`,
      ],
      [
        'MISSING_COLUMN',
        'required column email not found; columns found: employeeID, Emial, name, Rolecode, Parnet Key; rename a column, or name it with --map',
      ],
    ]);
  });

  it('--map names a column for a field and wins over an alias', async () => {
    const t = tempDir();
    t.write('staff.csv', 'id,Personalnummer,email,name\nX,E1,a@example.com,A\n');
    t.write('map.json', '{"employeeID": "personalnummer"}');
    const r = await dry(['team-members', 'staff.csv', '--map', 'map.json'], t.dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().issues).toEqual([
      {
        severity: 'warning',
        code: 'COLUMN_IGNORED',
        line: 1,
        column: 'id',
        field: 'employeeID',
        value: null,
        message: "column 'id' is not used: the mapping takes employeeID from 'personalnummer'",
      },
    ]);
    const bad = await dry(['team-members', 'staff.csv', '--map', 'nope.json'], t.dir);
    expect(bad.code).toBe(2);
    expect(bad.json().error.code).toBe('BAD_MAPPING');
  });
});

describe.concurrent('--store-cards', () => {
  it('an unknown parentKey is a warning; the dry run still passes', async () => {
    const t = tempDir();
    const staff = t.write('staff.csv', 'employeeID,email,name,parentKey\nE1,a@example.com,A,STORE-001\nE2,b@example.com,B,STORE-404\n');
    const r = await dry(['team-members', staff, '--store-cards', join(FIXTURES, 'store-cards.csv')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().issues).toEqual([
      {
        severity: 'warning',
        code: 'UNKNOWN_PARENT',
        line: 3,
        column: 'parentKey',
        field: 'parentKey',
        value: 'STORE-404',
        message: `parentKey 'STORE-404' matches no store card's nodeKey in ${join(FIXTURES, 'store-cards.csv')}; check the key, or upload the store card first`,
      },
    ]);
  });

  it('a store-card file that cannot be read, or is invalid, stops the run naming the flag (exit 3)', async () => {
    const missing = await dry(['team-members', 'team-members.csv', '--store-cards', 'nope.csv'], FIXTURES);
    expect(missing.code).toBe(3);
    expect(missing.json().error).toMatchObject({ code: 'CANNOT_READ', message: '--store-cards nope.csv: cannot read the file: no such file' });
    const invalid = await dry(['team-members', fixture('team-members.csv'), '--store-cards', fixture('store-cards-mistakes.csv')]);
    expect(invalid.code).toBe(3);
    expect(invalid.json().error.code).toBe('STORE_CARDS_INVALID');
  });
});

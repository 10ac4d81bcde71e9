// Keys and emails are what they look like (issue 40): a character that shows nothing or moves the
// text, a letter of another script, a control in a name, a list in a one-valued cell: each is refused
// against the real sandbox with the code point or the values named, and nothing is sent.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

type Fix = { kind: string; line: number; column: string; text: string };
type Issue = { code: string; line: number | null; column: string | null; value: string | null; message: string; fixes?: Fix[] };
const issuesOf = (r: { json(): Record<string, any> }) => r.json().issues as Issue[];

let sb: TestSandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(async () => {
  await sb.stop();
});

/** A real upload to the sandbox, with --json; `--no-baseline` unless the test means the last upload to count. */
const upload = (args: readonly string[], baseline = false) =>
  runCli([...args, '--yes', '--json', '--state', sb.stateDir, ...(baseline ? [] : ['--no-baseline'])], { env: sb.env });

/** Writes a cell fix into a CSV file written by these tests (no quoted cells): the line's cell under `column`. */
function followCellFix(file: string, fix: Fix): void {
  expect(fix.kind).toBe('cell');
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines[0]!.split(',').indexOf(fix.column);
  const cells = lines[fix.line - 1]!.split(',');
  cells[at] = fix.text;
  lines[fix.line - 1] = cells.join(',');
  writeFileSync(file, lines.join('\n'));
}

const MEMBERS = '/integrations/teamMembers';

describe('a character that shows nothing, or moves the text, in a key or email', () => {
  it.each([
    ['\u200e', 'U+200E LEFT-TO-RIGHT MARK'],
    ['\u200f', 'U+200F RIGHT-TO-LEFT MARK'],
    ['\u061c', 'U+061C ARABIC LETTER MARK'],
    ['\u202a', 'U+202A LEFT-TO-RIGHT EMBEDDING'],
    ['\u202e', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['\u2062', 'U+2062 INVISIBLE TIMES'],
    ['\u180e', 'U+180E MONGOLIAN VOWEL SEPARATOR'],
    ['\u034f', 'U+034F COMBINING GRAPHEME JOINER'],
    ['\ufe0f', 'U+FE0F VARIATION SELECTOR-16'],
    ['\u{e0041}', 'U+E0041 TAG LATIN CAPITAL LETTER A'],
  ])('a key holding %j beside E00001 is INVISIBLE_CHARACTER naming %s; exit 3, nothing sent', async (ch, named) => {
    const file = tempDir().write('staff.csv', `employeeID,email,name\nE00001,a@example.com,A\nE${ch}00001,b@example.com,B\n`);
    const r = await upload(['team-members', file]);
    expect(r.code, r.stderr).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({ code: 'INVISIBLE_CHARACTER', line: 3, column: 'employeeID', message: expect.stringContaining(`${named} at position 2`) }),
    ]);
    expect(await sb.stored(MEMBERS)).toEqual([]);
  });

  it('E‮10000, shown as E00001, has no fix as data: only the person knows what it should read', async () => {
    const file = tempDir().write('staff.csv', 'employeeID,email,name\nE\u202e10000,b@example.com,B\n');
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    const [found] = issuesOf(r);
    expect(found).toMatchObject({
      code: 'INVISIBLE_CHARACTER',
      value: '"E\\u202e10000"',
      message: expect.stringContaining('retype the value as it should read'),
    });
    expect(found!.fixes).toBeUndefined();
    // On screen the mark is escaped too: the line shows what it holds, in order.
    const screen = await runCli(['team-members', file, '--dry-run']);
    expect(screen.stderr + screen.stdout).not.toContain('\u202e');
    expect(screen.stderr).toContain('E\\u202e10000');
  });

  it('an email holding a tag or a direction mark is refused the same way', async () => {
    const file = tempDir().write('staff.csv', 'employeeID,email,name\nE1,ann\u{e0041}@example.com,A\nE2,bo\u200eb@example.com,B\n');
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    expect(issuesOf(r).map((i) => [i.code, i.line, i.column])).toEqual([
      ['INVISIBLE_CHARACTER', 2, 'email'],
      ['INVISIBLE_CHARACTER', 3, 'email'],
    ]);
    expect(issuesOf(r)[0]!.message).toContain('U+E0041 TAG LATIN CAPITAL LETTER A at position 4');
    expect(await sb.stored(MEMBERS)).toEqual([]);
  });

  it('following the fix (the cell without the invisible character) sends the key as it looked', async () => {
    const t = tempDir();
    const file = t.write('staff.csv', 'employeeID,email,name\nE0\u20620002,b@example.com,B\n');
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    const [found] = issuesOf(r);
    expect(found!.fixes).toEqual([{ kind: 'cell', line: 2, column: 'employeeID', text: 'E00002' }]);
    expect(found!.message).toContain("write 'E00002' in the cell");
    followCellFix(file, found!.fixes![0]!);
    const again = await upload(['team-members', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(await sb.stored(MEMBERS)).toEqual([{ employeeID: 'E00002', email: 'b@example.com', name: 'B', roleCode: null, parentKey: null }]);
  });

  it('following the fix beside the key it imitated is DUPLICATE_KEY: another refusal, never a second record', async () => {
    const t = tempDir();
    const file = t.write('staff.csv', 'employeeID,email,name\nE00001,a@example.com,A\nE0\u{e0041}0001,b@example.com,B\n');
    const r = await upload(['team-members', file, '--dry-run']);
    followCellFix(file, issuesOf(r)[0]!.fixes![0]!);
    const again = await upload(['team-members', file, '--dry-run']);
    expect(again.code).toBe(3);
    expect(issuesOf(again)).toEqual([expect.objectContaining({ code: 'DUPLICATE_KEY', line: 3 })]);
  });
});

describe('letters of another script', () => {
  it('Cyrillic Е00001 and Greek Ε00001 beside E00001: LOOKALIKE_KEY naming both lines and the code points; nothing sent', async () => {
    const file = tempDir().write('staff.csv', 'employeeID,email,name\nE00001,a@example.com,A\n\u041500001,b@example.com,B\n\u039500001,c@example.com,C\n');
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({ code: 'LOOKALIKE_KEY', line: 3, column: 'employeeID', value: '\u041500001' }),
      expect.objectContaining({ code: 'LOOKALIKE_KEY', line: 4, column: 'employeeID', value: '\u039500001' }),
    ]);
    expect(issuesOf(r)[0]!.message).toContain("looks like 'E00001' on line 2");
    expect(issuesOf(r)[0]!.message).toContain("'\u0415' (U+0415, Cyrillic) at position 1 where the other has 'E' (U+0045, Latin)");
    expect(issuesOf(r)[1]!.message).toContain('(U+0395, Greek)');
    expect(await sb.stored(MEMBERS)).toEqual([]);
  });

  it('m1@exаmple.com (a Cyrillic а) beside m1@example.com: mixed scripts, and LOOKALIKE_EMAIL naming line 2', async () => {
    const file = tempDir().write('staff.csv', 'employeeID,email,name\nE1,m1@example.com,A\nE2,m1@ex\u0430mple.com,B\n');
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    expect(issuesOf(r).map((i) => [i.code, i.line])).toEqual([
      ['LOOKALIKE_CHARACTER', 3],
      ['LOOKALIKE_EMAIL', 3],
    ]);
    expect(issuesOf(r)[0]!.message).toContain("mixes Latin and Cyrillic letters in the word 'ex\u0430mple': '\u0430' (U+0430, Cyrillic) at position 6");
    expect(issuesOf(r)[1]!.message).toContain("looks like 'm1@example.com' on line 2");
    expect(await sb.stored(MEMBERS)).toEqual([]);
  });

  it('a word in two scripts is refused even alone; keys wholly in another script are sent', async () => {
    const alone = tempDir().write('staff.csv', 'employeeID,email,name\nE1,m1@ex\u0430mple.com,A\n');
    expect(issuesOf(await upload(['team-members', alone]))).toEqual([expect.objectContaining({ code: 'LOOKALIKE_CHARACTER', line: 2 })]);
    const russian = tempDir().write(
      'staff.csv',
      'employeeID,email,name\n\u0416-001,\u0438\u0432\u0430\u043d@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444,\u0418\u0432\u0430\u043d\nE00001,a@example.com,A\n',
    );
    const r = await upload(['team-members', russian]);
    expect(r.code, r.stderr).toBe(0);
    expect(await sb.stored(MEMBERS)).toHaveLength(2);
  });

  it('a key that looks like one the last upload recorded is refused, naming the last upload', async () => {
    const t = tempDir();
    const first = t.write('first.csv', 'employeeID,email,name\nE00001,a@example.com,A\n');
    expect((await upload(['team-members', first])).code).toBe(0);
    const second = t.write('second.csv', 'employeeID,email,name\n\u041500001,a@example.com,A\n');
    const r = await upload(['team-members', second], true);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({ code: 'LOOKALIKE_KEY', line: 2, message: expect.stringContaining("looks like 'E00001' recorded in the last upload") }),
    ]);
    expect(await sb.stored(MEMBERS)).toEqual([expect.objectContaining({ employeeID: 'E00001' })]);
  });
  it('an email in another script that looks like the email of another record is LOOKALIKE_EMAIL; --errors-csv holds the row', async () => {
    const t = tempDir();
    expect((await upload(['team-members', t.write('first.csv', 'employeeID,email,name\nE1,ac@example.com,A\nE2,eo@example.com,B\n')])).code).toBe(0);
    const second = t.write('second.csv', 'employeeID,email,name\nE1,ac@example.com,A\nE3,\u0430\u0441@example.com,C\n');
    const rejected = `${t.dir}/rejected.csv`;
    const r = await upload(['team-members', second, '--errors-csv', rejected], true);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({ code: 'LOOKALIKE_EMAIL', line: 3, message: expect.stringContaining("looks like 'ac@example.com' on line 2") }),
    ]);
    expect(readFileSync(rejected, 'utf8')).toContain('E3,\u0430\u0441@example.com,C,');
    // Beside a recorded email only (not in the file), the message names the last upload.
    const third = t.write('third.csv', 'employeeID,email,name\nE2,\u0435\u043e@example.com,B\n');
    const again = await upload(['team-members', third], true);
    expect(issuesOf(again)).toEqual([
      expect.objectContaining({
        code: 'LOOKALIKE_EMAIL',
        line: 2,
        message: expect.stringContaining("looks like 'eo@example.com' recorded in the last upload"),
      }),
    ]);
    expect((await sb.stored(MEMBERS)).map((m) => (m as { email: string }).email)).toEqual(['ac@example.com', 'eo@example.com']);
  });

  it('a recorded look-alike written in plain letters now is a correction, and is sent', async () => {
    const t = tempDir();
    expect((await upload(['team-members', t.write('first.csv', 'employeeID,email,name\n\u041500001,a@example.com,A\n')])).code).toBe(0);
    const fixed = t.write('fixed.csv', 'employeeID,email,name\nE00001,a@example.com,A\n');
    const r = await upload(['team-members', fixed, '--max-removals', '1'], true);
    expect(r.code, r.stderr).toBe(0);
    expect(await sb.stored(MEMBERS)).toEqual([expect.objectContaining({ employeeID: 'E00001' })]);
  });
});

describe('a control character in a name', () => {
  it.each([
    ['\x1b', 'U+001B ESCAPE'],
    ['\x07', 'U+0007 BELL'],
  ])('%j is INVALID_CHARACTER naming %s; nothing sent', async (ch, named) => {
    const file = tempDir().write('staff.csv', `employeeID,email,name\nE1,a@example.com,Ann${ch}a\n`);
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({ code: 'INVALID_CHARACTER', line: 2, column: 'name', message: expect.stringContaining(`${named} at position 4`) }),
    ]);
    expect(issuesOf(r)[0]!.fixes).toBeUndefined();
    expect(await sb.stored(MEMBERS)).toEqual([]);
  });

  it('a name keeps what its writing needs: a Persian zero-width non-joiner, an emoji with its selector', async () => {
    const persian = '\u0645\u06cc\u200c\u0631\u0648\u062f';
    const file = tempDir().write('staff.csv', `employeeID,email,name\nE1,a@example.com,${persian}\nE2,b@example.com,Anna \u2764\ufe0f\n`);
    const r = await upload(['team-members', file]);
    expect(r.code, r.stderr).toBe(0);
    expect((await sb.stored(MEMBERS)).map((m) => (m as { name: string }).name)).toEqual([persian, 'Anna \u2764\ufe0f']);
  });
});

describe('one cell, one value', () => {
  const stores = (keys: readonly string[]) => `nodeKey,email,Mo-Su\n${keys.map((k, i) => `"${k}",s${i}@example.com,9-18`).join('\n')}\n`;

  it("When I Work's Schedules = 'Downtown, Uptown': MULTIPLE_VALUES naming both stores; nothing sent", async () => {
    const t = tempDir();
    expect((await upload(['store-cards', t.write('stores.csv', stores(['Downtown', 'Uptown']))])).code).toBe(0);
    const file = t.write('staff.csv', 'Employee ID,Email,First Name,Last Name,Schedules\nE1,a@example.com,Ann,Lee,"Downtown, Uptown"\n');
    const map = JSON.stringify({ employeeID: 'Employee ID', email: 'Email', name: ['First Name', 'Last Name'], parentKey: 'Schedules' });
    const r = await upload(['team-members', file, '--map', map]);
    expect(r.code, r.stderr).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({
        code: 'MULTIPLE_VALUES',
        line: 2,
        column: 'Schedules',
        message: expect.stringContaining(
          "parentKey 'Downtown, Uptown' holds 2 values, 'Downtown' and 'Uptown' (each a store card's nodeKey in the store cards last uploaded",
        ),
      }),
    ]);
    expect(await sb.stored(MEMBERS)).toEqual([]);
  });

  it('a store whose key holds a comma is one value, and is sent', async () => {
    const t = tempDir();
    expect((await upload(['store-cards', t.write('stores.csv', stores(['Smith, Jones', 'Smith']))])).code).toBe(0);
    const file = t.write('staff.csv', 'employeeID,email,name,parentKey\nE1,a@example.com,A,"Smith, Jones"\nE2,b@example.com,B,"Lake, North"\n');
    const r = await upload(['team-members', file]);
    // 'Lake, North' is no store at all: a warning as before, never a list ('Lake' and 'North' are not stores either).
    expect(issuesOf(r).map((i) => i.code)).toEqual(['UNKNOWN_PARENT']);
    expect(r.code, r.stderr).toBe(0);
    expect((await sb.stored(MEMBERS)).map((m) => (m as { parentKey: string }).parentKey)).toEqual(['Smith, Jones', 'Lake, North']);
  });

  it('without the store cards, the parentKeys written alone in the file are the evidence', async () => {
    const file = tempDir().write(
      'staff.csv',
      'employeeID,email,name,parentKey\nE1,a@example.com,A,Downtown | Uptown\nE2,b@example.com,B,Downtown\nE3,c@example.com,C,Uptown\nE4,d@example.com,D,"Uptown\nDowntown"\n',
    );
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({ code: 'MULTIPLE_VALUES', line: 2, message: expect.stringContaining('each a parentKey of other rows in this file') }),
      // A line break is a control in a key (INVALID_CHARACTER) and a separator; the message shows it escaped.
      expect.objectContaining({ code: 'INVALID_CHARACTER', line: 5, message: expect.stringContaining('U+000A LINE FEED') }),
      expect.objectContaining({ code: 'MULTIPLE_VALUES', line: 5, message: expect.stringContaining("parentKey 'Uptown\\u000aDowntown' holds 2 values") }),
    ]);
  });

  it('two emails in one cell, and two keys of other rows in one key cell', async () => {
    const file = tempDir().write(
      'staff.csv',
      'employeeID,email,name\nE1,a@example.com; b@example.com,A\n"E2, E3",c@example.com,B\nE2,d@example.com,C\nE3,e@example.com,D\n',
    );
    const r = await upload(['team-members', file]);
    expect(r.code).toBe(3);
    expect(issuesOf(r).map((i) => [i.code, i.line, i.column])).toEqual([
      ['MULTIPLE_VALUES', 2, 'email'],
      ['MULTIPLE_VALUES', 3, 'employeeID'],
    ]);
    expect(issuesOf(r)[0]!.message).toContain("'a@example.com' and 'b@example.com' (each an email address)");
    expect(issuesOf(r)[1]!.message).toContain("'E2' and 'E3' (each the employeeID of another record)");
    expect(await sb.stored(MEMBERS)).toEqual([]);
  });
});

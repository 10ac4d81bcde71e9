// Text as a person reads it (issue 20): NFC is what is sent, look-alike keys and emails are one,
// invisible characters in them are named, and a JSON key given twice in one object is an error.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const NFD = 'jose\u0301@example.com';
const NFC = 'jos\u00e9@example.com';

type Issue = { code: string; line: number | null; column: string | null; message: string };
const issuesOf = (r: { json(): Record<string, any> }) => r.json().issues as Issue[];

describe('text as it looks', () => {
  it('sends NFC, whatever the file held', async () => {
    const sb = await sandbox();
    try {
      const file = tempDir().write('staff.csv', `employeeID,email,name\nE1,${NFD},Jose\u0301 Garci\u0301a\n`);
      const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
      expect(r.code).toBe(0);
      expect(await sb.stored('/integrations/teamMembers')).toEqual([
        { employeeID: 'E1', email: NFC, name: 'Jos\u00e9 Garc\u00eda', roleCode: null, parentKey: null },
      ]);
    } finally {
      await sb.stop();
    }
  });

  // The reader marks a record plain (nothing for the validator to look for) only without controls:
  // a line break or a tab inside a quoted cell, whatever the delimiter, is still found (issue 44). A
  // name may hold them (a cell shows them); a key or an email may not.
  it.each([
    ['comma', 'employeeID,email,name\n"E\n1",a@example.com,A\nE2,b@example.com,"B\r\nC"\nE3,c\x1b@example.com,C\n', [2, 6]],
    ['tab', 'employeeID\temail\tname\n"E\t1"\ta@example.com\tA\nE2\tb@example.com\t"B\tC"\nE3\tc\x1b@example.com\tC\n', [2, 4]],
  ])('a control inside a key or email cell is INVALID_CHARACTER (%s-delimited)', async (_, text, lines) => {
    const file = tempDir().write('staff.csv', text);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(issuesOf(r).map((i) => [i.code, i.line, i.column])).toEqual([
      ['INVALID_CHARACTER', lines[0], 'employeeID'],
      ['INVALID_CHARACTER', lines[1], 'email'],
    ]);
  });

  it('an email written NFD and NFC is one person: DUPLICATE_EMAIL', async () => {
    const file = tempDir().write('staff.csv', `employeeID,email,name\nE1,${NFD},A\nE2,${NFC},B\n`);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([expect.objectContaining({ code: 'DUPLICATE_EMAIL', line: 3 })]);
  });

  it.each([
    ['\u200b', 'U+200B ZERO WIDTH SPACE', 1],
    ['\u200c', 'U+200C', 1],
    ['\u200d', 'U+200D', 1],
    ['\u2060', 'U+2060 WORD JOINER', 1],
    ['\ufeff', 'U+FEFF', 1],
    ['\u00ad', 'U+00AD SOFT HYPHEN', 1],
  ])('an email holding %j is INVISIBLE_CHARACTER naming %s and its position', async (ch, named, position) => {
    const file = tempDir().write('staff.csv', `employeeID,email,name\nE1,anna@example.com,A\nE2,${ch}anna@example.com,B\n`);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    const found = issuesOf(r).filter((i) => i.code === 'INVISIBLE_CHARACTER');
    expect(found).toEqual([expect.objectContaining({ line: 3, column: 'email', message: expect.stringContaining(named) })]);
    expect(found[0]!.message).toContain(`at position ${position}`);
  });

  it('an invisible character inside a key is named at its position', async () => {
    const file = tempDir().write('stores.csv', `nodeKey,email,Mo-Su\nSTORE\u200b-1,a@example.com,9-18\n`);
    const r = await runCli(['store-cards', file, '--dry-run', '--json']);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({ code: 'INVISIBLE_CHARACTER', column: 'nodeKey', message: expect.stringContaining('at position 6') }),
    ]);
  });

  it('a name joined from two columns is looked at in each: an invisible character in the last is named there', async () => {
    const file = tempDir().write('staff.csv', `employeeID,email,First,Last\nE1,a@example.com,Ann,Lee\u200b\nE2,b@example.com,Bo,Ek\n`);
    const r = await runCli(['team-members', file, '--map', '{"name": ["First", "Last"]}', '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({
        code: 'INVISIBLE_CHARACTER',
        line: 2,
        column: 'Last',
        message: expect.stringContaining('U+200B ZERO WIDTH SPACE at position 4'),
      }),
    ]);
  });

  it('a no-break space around a key is trimmed like a space', async () => {
    const file = tempDir().write('stores.csv', `nodeKey,email,Mo-Su\n\u00a0STORE-1\u00a0,a@example.com,9-18\nSTORE-1,b@example.com,9-18\n`);
    const r = await runCli(['store-cards', file, '--dry-run', '--json']);
    expect(issuesOf(r)).toEqual([expect.objectContaining({ code: 'DUPLICATE_KEY', line: 3 })]);
  });
});

describe('look-alike keys and emails (issue 28)', () => {
  it('the full-width ＪＰ－００１ beside JP-001: LOOKALIKE_CHARACTER naming the plain form, and DUPLICATE_KEY; nothing sent', async () => {
    const sb = await sandbox();
    try {
      const file = tempDir().write('stores.csv', `nodeKey,email,Mo-Su\nJP-001,a@example.com,9-18\nＪＰ－００１,b@example.com,9-18\n`);
      const r = await runCli(['store-cards', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
      expect(r.code).toBe(3);
      expect(issuesOf(r)).toEqual([
        expect.objectContaining({ code: 'LOOKALIKE_CHARACTER', line: 3, column: 'nodeKey', message: expect.stringContaining("write it as 'JP-001'") }),
        expect.objectContaining({ code: 'DUPLICATE_KEY', line: 3, message: expect.stringContaining("already appears on line 2 as 'JP-001'") }),
      ]);
      expect(issuesOf(r)[0]!.message).toContain("('Ｊ', U+FF2A, at position 1)");
      expect(await sb.stored('/integrations/storeCards')).toEqual([]);
    } finally {
      await sb.stop();
    }
  });

  it('keys that differ only in case are one key: DUPLICATE_KEY', async () => {
    const file = tempDir().write('staff.csv', `employeeID,email,name\nAB-7,a@example.com,A\nab-7,b@example.com,B\n`);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([expect.objectContaining({ code: 'DUPLICATE_KEY', line: 3, message: expect.stringContaining("as 'AB-7'") })]);
  });

  it('a full-width email (and a parentKey) is LOOKALIKE_CHARACTER; its plain twin is DUPLICATE_EMAIL', async () => {
    const file = tempDir().write('staff.csv', `employeeID,email,name,parentKey\nE1,anna@example.com,A,S1\nE2,ａｎｎａ@example.com,B,Ｓ1\n`);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(issuesOf(r).map((i) => [i.code, i.line, i.column])).toEqual([
      ['LOOKALIKE_CHARACTER', 3, 'email'],
      ['LOOKALIKE_CHARACTER', 3, 'parentKey'],
      ['DUPLICATE_EMAIL', 3, 'email'],
    ]);
  });

  it('a name may hold compatibility characters: only keys and emails identify', async () => {
    const file = tempDir().write('staff.csv', `employeeID,email,name\nE1,a@example.com,Ｍａｒｉａ ﬁne\n`);
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('a JSON key given twice in one object', () => {
  it('is DUPLICATE_KEY naming the line and the key, in a JSON array and in NDJSON', async () => {
    const t = tempDir();
    const json = t.write(
      'staff.json',
      '[\n  {"employeeID": "E1", "email": "a@example.com", "name": "A"},\n  {"employeeID": "E2",\n   "email": "b@example.com",\n   "name": "B",\n   "email": "c@example.com"}\n]\n',
    );
    const r = await runCli(['team-members', json, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(issuesOf(r)).toEqual([
      expect.objectContaining({
        code: 'DUPLICATE_KEY',
        line: 6,
        column: 'email',
        message: expect.stringContaining("key 'email' is written on line 4 and again on line 6"),
      }),
    ]);
    const ndjson = t.write('staff.ndjson', '{"employeeID": "E1", "email": "a@example.com", "name": "A", "name": "B"}\n');
    const n = await runCli(['team-members', ndjson, '--dry-run', '--json']);
    expect(issuesOf(n)).toEqual([expect.objectContaining({ code: 'DUPLICATE_KEY', line: 1, column: 'name' })]);
  });

  it('counts "\\u0061" and "a" as one key, and looks inside nested objects', async () => {
    const t = tempDir();
    const file = t.write('stores.json', '[{"nodeKey": "S1", "email": "a@example.com", "opentToGuestsPeriod": {"1": {"since": 9, "to": 17, "t\\u006f": 18}}}]');
    const r = await runCli(['store-cards', file, '--dry-run', '--json']);
    expect(issuesOf(r)).toEqual([expect.objectContaining({ code: 'DUPLICATE_KEY', column: 'to' })]);
  });
});

describe('column names as they look', () => {
  it('a header written in NFD names the same column as its NFC twin: the repeat is DUPLICATE_COLUMN', async () => {
    const file = tempDir().write('staff.csv', 'employeeID,email,name,Pre\u0301nom,Pr\u00e9nom\nE1,a@example.com,A,x,y\n');
    const r = await runCli(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({ code: 'DUPLICATE_COLUMN', message: expect.stringContaining('Pr\u00e9nom') });
  });
});

describe('a --map value table, as its text would be sent', () => {
  // The hints followed as a person would: the character deleted, the plain form written; then sent.
  it.each([
    ['an invisible character', 'E\u200b7', 'ZERO WIDTH SPACE', 'delete the character from the value in the mapping', 'E7'],
    ['a full-width form', 'ＥＭＰ７', 'full-width', "write it as 'EMP7' in the mapping", 'EMP7'],
  ])('%s in a key is BAD_MAPPING, exit 2, nothing sent; fixed as told, the key is sent', async (_, written, named, hint, fixed) => {
    const sb = await sandbox();
    try {
      const file = tempDir().write('staff.csv', 'Code,email,name\nA,a@example.com,Ann\n');
      const map = (sent: string) => JSON.stringify({ employeeID: { column: 'Code', values: { A: sent } } });
      const run = (sent: string) =>
        runCli(['team-members', file, '--map', map(sent), '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
      const refused = await run(written);
      expect(refused.code).toBe(2);
      expect(refused.json().error).toMatchObject({ code: 'BAD_MAPPING', message: expect.stringContaining(named), hint });
      expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
      const sent = await run(fixed);
      expect(sent.code).toBe(0);
      expect(await sb.stored('/integrations/teamMembers')).toEqual([
        { employeeID: fixed, email: 'a@example.com', name: 'Ann', roleCode: null, parentKey: null },
      ]);
    } finally {
      await sb.stop();
    }
  });
});

// A file that is not UTF-8 (issue 28): the likely code pages ranked, each shown with the names as it
// reads them, never one picked alone; and after --encoding, text that looks mis-decoded is named.
import { TextDecoder } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

/** `text` in a single-byte code page, through the decoder's own table (so the test trusts no encoder of ours). */
function encode(text: string, codePage: string): Buffer {
  const decoder = new TextDecoder(codePage);
  const table = new Map<string, number>();
  for (let b = 255; b >= 0; b--) table.set(decoder.decode(Uint8Array.of(b)), b);
  return Buffer.from([...text].map((ch) => table.get(ch)!));
}

const POLISH = 'employeeID,email,name,roleCode,parentKey\nE1,lukasz@example.com,Łukasz Żółć,3,KRK-1\nE2,zofia@example.com,Zofia Wójcik,3,KRK-1\n';
const TURKISH = 'employeeID,email,name,roleCode,parentKey\nE1,sule@example.com,Şule Yılmaz,3,IST-1\n';

describe('a Polish export in windows-1250', () => {
  const file = () => tempDir().write('staff.csv', encode(POLISH, 'windows-1250'));

  it('without --encoding: NOT_UTF8 ranks windows-1250 first, showing the names as it reads them, and sends nothing', async () => {
    const r = await runCli(['team-members', file(), '--dry-run', '--json']);
    expect(r.code).toBe(3);
    const { message, hint } = r.json().error;
    expect(message).toMatch(
      /the file is not UTF-8 \(byte \d+\); it was saved in a single-byte code page, most likely windows-1250 \('Łukasz Żółć', 'Zofia Wójcik'\), else /,
    );
    expect(message).toContain("iso-8859-2 ('Łukasz Żółć', 'Zofia Wójcik')");
    expect(hint).toBe(
      'run again with --encoding windows-1250 if those are the names as they should read (else --encoding iso-8859-2 or iso-8859-16, or the code page it was saved in)',
    );
    // The same three, as data, in rank order.
    expect(r.json().error.fixes).toEqual(['windows-1250', 'iso-8859-2', 'iso-8859-16'].map((page) => ({ kind: 'flags', args: ['--encoding', page] })));
    expect(hint).not.toContain('windows-1252');
  });

  it('with the old advice --encoding windows-1252: SUSPECT_ENCODING shows £ukasz ¯ó³æ and names windows-1250', async () => {
    const r = await runCli(['team-members', file(), '--dry-run', '--json', '--encoding', 'windows-1252']);
    const suspect = (r.json().issues as { code: string; message: string }[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
    expect(suspect.message).toContain("windows-1252 ('£ukasz ¯ó³æ', 'Zofia Wójcik')");
    expect(suspect.message).toContain("windows-1250 ('Łukasz Żółć', 'Zofia Wójcik') reads it as words of one language");
  });

  it('with --encoding windows-1250: uploads the names as written, with no warning', async () => {
    const sb = await sandbox();
    try {
      const r = await runCli(['team-members', file(), '--yes', '--no-baseline', '--json', '--encoding', 'windows-1250', '--state', sb.stateDir], {
        env: sb.env,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().issues).toEqual([]);
      expect(((await sb.stored('/integrations/teamMembers')) as { name: string }[]).map((m) => m.name)).toEqual(['Łukasz Żółć', 'Zofia Wójcik']);
    } finally {
      await sb.stop();
    }
  });
});

describe('other code pages', () => {
  it('a Turkish export (windows-1254): Şule Yılmaz is named, never Þule Yýlmaz', async () => {
    const r = await runCli(['team-members', tempDir().write('staff.csv', encode(TURKISH, 'windows-1254')), '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error.message).toContain("most likely windows-1254 ('Şule Yılmaz')");
  });

  it('UTF-8 read with --encoding windows-1252 (José as JosÃ©): SUSPECT_ENCODING says to drop --encoding', async () => {
    const file = tempDir().write('staff.csv', 'employeeID,email,name\nE1,jose@example.com,José García\n');
    const r = await runCli(['team-members', file, '--dry-run', '--json', '--encoding', 'windows-1252']);
    const suspect = (r.json().issues as { code: string; message: string }[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
    expect(suspect.message).toContain(
      "is UTF-8 (1 of 1 lines with bytes beyond ASCII are UTF-8 letters; windows-1252 ('JosÃ© GarcÃ\u00ada') shows them mis-decoded)",
    );
    expect(suspect.message).toContain('run again with --encoding utf-8 (or without --encoding)');
  });
});

// A doubtful reading that would rewrite the names the service holds is an error, not a warning: the
// recorded upload is the baseline, and nothing is sent.
describe('names already recorded', () => {
  const uploadUtf8 = async (sb: Awaited<ReturnType<typeof sandbox>>, text: string) => {
    const r = await runCli(['team-members', tempDir().write('first.csv', text), '--yes', '--no-baseline', '--json', '--state', sb.stateDir], {
      env: sb.env,
    });
    expect(r.code, r.stderr).toBe(0);
  };
  const stored = async (sb: Awaited<ReturnType<typeof sandbox>>) => ((await sb.stored('/integrations/teamMembers')) as { name: string }[]).map((m) => m.name);

  it('the windows-1250 export read with --encoding windows-1252: exit 3, SUSPECT_ENCODING names the records and --encoding windows-1250', async () => {
    const sb = await sandbox();
    try {
      await uploadUtf8(sb, POLISH);
      const file = tempDir().write('staff.csv', encode(POLISH, 'windows-1250'));
      const r = await runCli(['team-members', file, '--yes', '--json', '--encoding', 'windows-1252', '--max-changes', '100%', '--state', sb.stateDir], {
        env: sb.env,
      });
      expect(r.code, r.stderr).toBe(3);
      const suspect = (r.json().issues as { code: string; severity: string; message: string }[]).filter((i) => i.code === 'SUSPECT_ENCODING');
      expect(suspect).toHaveLength(1);
      expect(suspect[0]!.severity).toBe('error');
      expect(suspect[0]!.message).toContain('run again with --encoding windows-1250 if it is that one');
      expect(suspect[0]!.message).toContain("Nothing was sent: this reading would change 1 recorded value: E1 (line 2) name 'Łukasz Żółć' to '£ukasz ¯ó³æ'");
      expect(await stored(sb)).toEqual(['Łukasz Żółć', 'Zofia Wójcik']);
    } finally {
      await sb.stop();
    }
  });

  it('a file with ? where the recorded name has ü (J?rgen for Jürgen): exit 3, SUSPECT_ENCODING, nothing sent', async () => {
    const sb = await sandbox();
    try {
      const names = (jurgen: string) => `employeeID,email,name\nE1,jurgen@example.com,${jurgen} Weiß\nE2,anna@example.com,Anna Berg\n`;
      await uploadUtf8(sb, names('Jürgen'));
      const r = await runCli(
        ['team-members', tempDir().write('staff.csv', names('J?rgen')), '--yes', '--json', '--max-changes', '100%', '--state', sb.stateDir],
        {
          env: sb.env,
        },
      );
      expect(r.code, r.stderr).toBe(3);
      const suspect = (r.json().issues as { code: string; severity: string; line: number; message: string }[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
      expect(suspect.severity).toBe('error');
      expect(suspect.line).toBe(2);
      expect(suspect.message).toContain("E1 (line 2) name 'Jürgen Weiß' to 'J?rgen Weiß'");
      expect(suspect.message).toContain('export the file again as UTF-8');
      expect(await stored(sb)).toEqual(['Jürgen Weiß', 'Anna Berg']);
    } finally {
      await sb.stop();
    }
  });

  it('a recorded name turned into a word of two scripts (Ivan as Ivаn, a Cyrillic а): exit 3, SUSPECT_ENCODING, nothing sent', async () => {
    const sb = await sandbox();
    try {
      await uploadUtf8(sb, 'employeeID,email,name\nE1,ivan@example.com,Ivan Petrov\n');
      const r = await runCli(
        [
          'team-members',
          tempDir().write('staff.csv', 'employeeID,email,name\nE1,ivan@example.com,Iv\u0430n Petrov\n'),
          '--yes',
          '--json',
          '--max-changes',
          '100%',
          '--state',
          sb.stateDir,
        ],
        { env: sb.env },
      );
      expect(r.code, r.stderr).toBe(3);
      const suspect = (r.json().issues as { code: string; severity: string; message: string }[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
      expect(suspect.severity).toBe('error');
      expect(suspect.message).toContain("E1 (line 2) name 'Ivan Petrov' to 'Iv\u0430n Petrov'");
      expect(await stored(sb)).toEqual(['Ivan Petrov']);
    } finally {
      await sb.stop();
    }
  });

  it('a real rename beside them is no suspect: Jurgen to Jürgen is sent', async () => {
    const sb = await sandbox();
    try {
      await uploadUtf8(sb, 'employeeID,email,name\nE1,jurgen@example.com,Jurgen\n');
      const r = await runCli(
        [
          'team-members',
          tempDir().write('staff.csv', 'employeeID,email,name\nE1,jurgen@example.com,Jürgen\n'),
          '--yes',
          '--json',
          '--max-changes',
          '100%',
          '--state',
          sb.stateDir,
        ],
        { env: sb.env },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(await stored(sb)).toEqual(['Jürgen']);
    } finally {
      await sb.stop();
    }
  });

  it('a first upload (no recorded names) with --encoding windows-1252 stays a warning and is sent', async () => {
    const sb = await sandbox();
    try {
      const file = tempDir().write('staff.csv', encode(POLISH, 'windows-1250'));
      const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--encoding', 'windows-1252', '--state', sb.stateDir], {
        env: sb.env,
      });
      expect(r.code, r.stderr).toBe(0);
      const suspect = (r.json().issues as { code: string; severity: string }[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
      expect(suspect.severity).toBe('warning');
      expect(await stored(sb)).toEqual(['£ukasz ¯ó³æ', 'Zofia Wójcik']);
    } finally {
      await sb.stop();
    }
  });
});

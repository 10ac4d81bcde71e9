// Issue 40: the code-page hints followed to their end against the real sandbox, over names already
// recorded. Following the first fix of NOT_UTF8 either uploads the names as written or stops on
// SUSPECT_ENCODING (whose own fix is then followed); never garbled names with exit 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';
import { encoder } from '../corpus/code-pages/generate.js';

interface Fix {
  kind: string;
  args: string[];
}
interface Issue {
  code: string;
  severity: string;
  message: string;
  fixes?: Fix[];
}

const HEADER = 'employeeID,email,name\n';
/** The team as recorded: three people, the third with an ASCII name. */
const team = (names: readonly string[]) => HEADER + names.map((name, i) => `E${1561 + i},p${i}@example.com,${name}\n`).join('');

let sb: TestSandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.stop();
});

const run = (file: string, ...args: string[]) =>
  runCli(['team-members', file, '--yes', '--json', '--max-changes', '100%', '--state', sb.stateDir, ...args], { env: sb.env });
const stored = async () => ((await sb.stored('/integrations/teamMembers')) as { name: string }[]).map((m) => m.name);

/** Records `names` (UTF-8), then writes them in `page`: the file a person gets from a legacy export. */
async function recordedThenLegacy(names: readonly string[], page: string): Promise<string> {
  const dir = tempDir();
  const first = await run(dir.write('first.csv', team(names)), '--no-baseline');
  expect(first.code, first.stderr).toBe(0);
  return dir.write('legacy.csv', Buffer.from(encoder(page)(team(names))!));
}

/** Follows fixes from the refusal of `file` until the run ends; returns the last result and the path taken. */
async function follow(file: string): Promise<{ code: number | null; codes: string[]; issues: Issue[] }> {
  let args: string[] = [];
  const codes: string[] = [];
  for (let step = 0; step < 3; step++) {
    const r = await run(file, ...args);
    const json = r.json<{ error?: { code: string; fixes: Fix[] }; issues: Issue[] }>();
    const suspect = (json.issues ?? []).find((i) => i.code === 'SUSPECT_ENCODING' && i.severity === 'error');
    const fix = json.error?.fixes[0] ?? suspect?.fixes?.[0];
    codes.push(suspect?.code ?? json.error?.code ?? String(r.code));
    if (r.code === 0 || !fix) return { code: r.code, codes, issues: json.issues ?? [] };
    expect(fix.kind).toBe('flags');
    args = [...args, ...fix.args];
  }
  throw new Error(`still refused after three fixes: ${codes.join(' → ')}`);
}

describe('the first NOT_UTF8 fix, followed over recorded names', () => {
  it.each([
    ['Lithuanian', 'windows-1257', ['Eglė Stankevičiūtė', 'Žydrūnas Kazlauskas', 'Jonas Petrauskas']],
    ['Russian', 'windows-1251', ['Ольга Попова', 'Дмитрий Щербаков', 'Ivan Petrov']],
    ['Russian in KOI8-R', 'koi8-r', ['Ольга Попова', 'Наталья Жукова', 'Ivan Petrov']],
    ['Serbian in ISO-8859-5', 'iso-8859-5', ['Јована Ђорђевић', 'Милош Ћосић', 'Marko Ilic']],
    ['Greek', 'iso-8859-7', ['Γιώργος Παπαδόπουλος', 'Άννα Οικονόμου', 'Nikos Pappas']],
    ['Turkish', 'windows-1254', ['Şule Yılmaz', 'İbrahim Öztürk', 'Ali Kaya']],
    ['Polish', 'iso-8859-2', ['Łukasz Żółć', 'Małgorzata Wiśniewska', 'Jan Nowak']],
    ['German from Excel for Mac', 'macintosh', ['Jürgen Müller', 'Käthe Groß', 'Anna Berg']],
    ['Czech from DOS', 'ibm852', ['Jiří Dvořák', 'Šárka Růžičková', 'Petr Novak']],
    ['Vietnamese', 'windows-1258', ['Nguyễn Thị Hương', 'Trần Đức Thảo', 'Le Van An']],
  ])('%s (%s): exit 0 with the names as recorded', async (_, page, names) => {
    const file = await recordedThenLegacy(names, page);
    const end = await follow(file);
    expect(end.codes[0]).toBe('NOT_UTF8');
    expect(end.code).toBe(0);
    expect(await stored()).toEqual(names);
  });

  it('Romanian in ISO-8859-16, where the first fix (windows-1250) reads ș as ş: SUSPECT_ENCODING, and its fix sends the names as recorded', async () => {
    const names = ['Ștefan Țurcanu', 'Mădălina Stănescu', 'Ion Popa'];
    const file = await recordedThenLegacy(names, 'iso-8859-16');
    const end = await follow(file);
    expect(end.codes).toEqual(['NOT_UTF8', 'SUSPECT_ENCODING', '0']);
    expect(await stored()).toEqual(names);
  });
});

describe('the old advice followed: a wrong page over recorded names', () => {
  it.each([
    ['Lithuanian', 'windows-1257', ['Eglė Stankevičiūtė', 'Rūta Žukauskienė', 'Jonas Butkus'], 'Eglë Stankevièiûtë'],
    ['Russian', 'windows-1251', ['Ольга Попова', 'Сергей Иванов', 'Ivan Petrov'], 'Îëüãà Ïîïîâà'],
  ])('%s with --encoding windows-1252: SUSPECT_ENCODING error, nothing sent; its fix sends the names', async (_, page, names, garbled) => {
    const file = await recordedThenLegacy(names, page);
    const r = await run(file, '--encoding', 'windows-1252');
    expect(r.code, r.stderr).toBe(3);
    const suspect = (r.json().issues as Issue[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
    expect(suspect.severity).toBe('error');
    expect(suspect.message).toContain(`E1561 (line 2) name '${names[0]}' to '${garbled}'`);
    expect(suspect.fixes).toEqual([{ kind: 'flags', args: ['--encoding', page] }]);
    expect(await stored()).toEqual(names);
    // The fix added to the same command (the later --encoding stands).
    const fixed = await run(file, '--encoding', 'windows-1252', ...suspect.fixes![0]!.args);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(await stored()).toEqual(names);
  });
});

describe('a UTF-8 file read with --encoding windows-1252 over recorded names', () => {
  it('is a SUSPECT_ENCODING error whose fix, --encoding utf-8, sends the names as recorded', async () => {
    const names = ['José García', 'Zoë Müller', 'Łukasz Żółć'];
    const dir = tempDir();
    const first = await run(dir.write('first.csv', team(names)), '--no-baseline');
    expect(first.code, first.stderr).toBe(0);
    const file = dir.write('staff.csv', team(names));
    const r = await run(file, '--encoding', 'windows-1252');
    expect(r.code, r.stderr).toBe(3);
    const suspect = (r.json().issues as Issue[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
    expect(suspect.severity).toBe('error');
    // José García read so holds a soft hyphen (Ã + U+00AD), refused as an invisible character on its
    // own row; the recorded names the reading would change are the others.
    expect(suspect.message).toContain("name 'Zoë Müller' to 'ZoÃ« MÃ¼ller'");
    expect(suspect.fixes).toEqual([{ kind: 'flags', args: ['--encoding', 'utf-8'] }]);
    const fixed = await run(file, '--encoding', 'windows-1252', ...suspect.fixes![0]!.args);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(await stored()).toEqual(names);
  });
});

describe('a UTF-8 file with one row in windows-1250 (20,000 rows)', () => {
  const ROWS = 20_000;
  const BAD = 12_345; // the row's index; its line is BAD + 2
  const names = Array.from({ length: ROWS }, (_, i) => (i === BAD ? 'Łukasz Żółć' : `Zoë Müller-${i}`));
  const utf8 = team(names);
  const mixed = () => {
    const lines = utf8.split('\n');
    const bad = Buffer.from(encoder('windows-1250')(lines[BAD + 1]!)!);
    return Buffer.concat([Buffer.from(lines.slice(0, BAD + 1).join('\n') + '\n'), bad, Buffer.from('\n' + lines.slice(BAD + 2).join('\n'))]);
  };

  it('is MIXED_ENCODING naming its line, with no --encoding offered; --encoding windows-1250 is SUSPECT_ENCODING, whose fix leads back to that line', async () => {
    const dir = tempDir();
    const first = await run(dir.write('first.csv', utf8), '--no-baseline');
    expect(first.code, first.stderr).toBe(0);
    const file = dir.write('staff.csv', mixed());

    const r = await run(file);
    expect(r.code).toBe(3);
    const { error } = r.json<{ error: { code: string; message: string; hint: string; fixes: Fix[] } }>();
    expect(error.code).toBe('MIXED_ENCODING');
    expect(error.message).toContain(`except line ${BAD + 2}, which was saved in another encoding; it reads like windows-1250 ('Łukasz Żółć'`);
    expect(error.fixes).toEqual([]);
    expect(error.hint).toContain('correct those lines');

    // The old advice: every other name would be garbled; over recorded names it is an error.
    const old = await run(file, '--encoding', 'windows-1250');
    expect(old.code, old.stderr).toBe(3);
    const suspect = (old.json().issues as Issue[]).find((i) => i.code === 'SUSPECT_ENCODING')!;
    expect(suspect.severity).toBe('error');
    expect(suspect.message).toContain('is UTF-8');
    expect(suspect.fixes).toEqual([{ kind: 'flags', args: ['--encoding', 'utf-8'] }]);
    const followed = await run(file, '--encoding', 'windows-1250', ...suspect.fixes![0]!.args);
    expect(followed.code).toBe(3);
    expect(followed.json().error.code).toBe('MIXED_ENCODING');
    expect((await stored())[BAD + 1]).toBe(names[BAD + 1]);

    // The line corrected: every name as written.
    const corrected = await run(dir.write('staff.csv', utf8));
    expect(corrected.code, corrected.stderr).toBe(0);
    expect(await stored()).toEqual(names);
  }, 120_000);
});

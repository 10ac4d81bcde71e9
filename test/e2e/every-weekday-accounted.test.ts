// Evidence for every value, at the header: a weekday no column gives is never sent as closed
// (MISSING_DAYS), and a field sent empty while columns go unused is refused (UNUSED_COLUMNS). Each
// case of issue 28 through the real CLI against the real sandbox: what is refused sends nothing,
// and the flag or the --map line the message gives is the one that lets it through.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

const STORES = '/integrations/storeCards';
const TEAM = '/integrations/teamMembers';
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

type Hours = Record<string, { since: number; to: number }>;
const WEEK_HOURS = ['09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-20:00', '09:00-13:00', '10:00-14:00'];
/** What WEEK_HOURS is on the wire, Monday to Sunday. */
const WEEK_WIRE: Hours = {
  '1': { since: 9, to: 18 },
  '2': { since: 9, to: 18 },
  '3': { since: 9, to: 18 },
  '4': { since: 9, to: 18 },
  '5': { since: 9, to: 20 },
  '6': { since: 9, to: 13 },
  '0': { since: 10, to: 14 },
};

async function upload(name: string, text: string, ...flags: string[]): Promise<{ r: CliResult; stored: unknown[] }> {
  sb ??= await sandbox();
  const s = sb;
  const file = `${s.dir}/${name}`;
  writeFileSync(file, text);
  const r = await runCli(['store-cards', file, '--yes', '--no-baseline', '--json', '--state', s.stateDir, ...flags], { env: s.env });
  return { r, stored: await s.stored(STORES) };
}

const issue = (r: CliResult, code: string) =>
  (r.json().issues as { code: string; message: string; value: string | null; column: string | null }[]).find((i) => i.code === code);
/** The --map line a message gives, as the user pastes it. */
const mapLine = (message: string) => /--map '([^']+)'/.exec(message)![1]!;

// Day columns Monday to Sunday, in languages the tool may or may not know; hours on every day.
const LANGUAGES: Record<string, string[]> = {
  Portuguese: ['Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado', 'Domingo'],
  Polish: ['Poniedziałek', 'Wtorek', 'Środa', 'Czwartek', 'Piątek', 'Sobota', 'Niedziela'],
  Swedish: ['Måndag', 'Tisdag', 'Onsdag', 'Torsdag', 'Fredag', 'Lördag', 'Söndag'],
  Danish: ['Mandag', 'Tirsdag', 'Onsdag', 'Torsdag', 'Fredag', 'Lørdag', 'Søndag'],
  Turkish: ['Pazartesi', 'Salı', 'Çarşamba', 'Perşembe', 'Cuma', 'Cumartesi', 'Pazar'],
  Japanese: ['月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日', '日曜日'],
  // Languages the tool has no words for: always the MISSING_DAYS path.
  Finnish: ['maanantai', 'tiistai', 'keskiviikko', 'torstai', 'perjantai', 'lauantai', 'sunnuntai'],
  Greek: ['Δευτέρα', 'Τρίτη', 'Τετάρτη', 'Πέμπτη', 'Παρασκευή', 'Σάββατο', 'Κυριακή'],
};

describe('day columns in another language: refused with MISSING_DAYS or read as written, never closed', () => {
  it.each(Object.entries(LANGUAGES))('%s', async (_language, days) => {
    const csv = `nodeKey,email,storeConceptCode,${days.join(',')}\nS1,s1@example.com,3,${WEEK_HOURS.join(',')}\n`;
    const { r, stored } = await upload('stores.csv', csv);
    if (r.code === 0) {
      // The tool knows the language: every day is sent as written.
      expect(stored).toEqual([{ nodeKey: 'S1', email: 's1@example.com', storeConceptCode: 3, opentToGuestsPeriod: WEEK_WIRE }]);
      return;
    }
    expect(r.code, r.stderr).toBe(3);
    expect(stored).toEqual([]);
    const missing = issue(r, 'MISSING_DAYS')!;
    expect(missing.message).toMatch(/no column in the file, so (they|it) would be sent as closed/);
    // Every day it names is a column it did not use, and the --map line it gives places them.
    const line = mapLine(missing.message);
    const { r: again, stored: sent } = await upload('stores.csv', csv, '--map', line);
    expect(again.code, again.stderr).toBe(0);
    expect(sent).toEqual([{ nodeKey: 'S1', email: 's1@example.com', storeConceptCode: 3, opentToGuestsPeriod: WEEK_WIRE }]);
  });
});

describe('MISSING_DAYS', () => {
  it('weekdays in an unknown language beside English Sat, Sun: names the days, the unused columns, the --map line and --closed-days', async () => {
    const pt = LANGUAGES.Finnish!;
    const csv = `nodeKey,email,storeConceptCode,${pt.slice(0, 5).join(',')},Sat,Sun\nS1,s1@example.com,3,${WEEK_HOURS.join(',')}\n`;
    const { r, stored } = await upload('pt.csv', csv);
    expect(r.code).toBe(3);
    expect(stored).toEqual([]);
    const missing = issue(r, 'MISSING_DAYS')!;
    expect(missing).toMatchObject({ value: 'Mo,Tu,We,Th,Fr', column: 'maanantai' });
    expect(missing.message).toContain("the columns not used are 'maanantai', 'tiistai', 'keskiviikko', 'torstai', 'perjantai'");
    expect(JSON.parse(mapLine(missing.message))).toEqual({ opentToGuestsPeriod: { Mo: pt[0], Tu: pt[1], We: pt[2], Th: pt[3], Fr: pt[4] } });
    expect(missing.message).toContain('--closed-days Mo,Tu,We,Th,Fr');
    expect(r.json().error).toMatchObject({
      code: 'INVALID_RECORDS',
      message: expect.stringMatching(/pt\.csv: 1 error and 5 warnings in the header; nothing was sent$/),
    });
    expect(r.stderr).toContain('pt.csv:1 maanantai: Monday to Friday have no column in the file, so they would be sent as closed');
  });

  it.each(['Öppettider', 'Godziny otwarcia', 'Çalışma saatleri'])(
    'a whole-week column %j: the week is missing, and the --map line reads it',
    async (column) => {
      const csv = `nodeKey,email,storeConceptCode,${column}\nS1,s1@example.com,3,"Mo-Fr 09:00-18:00; Sa 10:00-14:00"\n`;
      const { r, stored } = await upload('week.csv', csv);
      if (r.code === 0)
        return void expect(stored).toEqual([expect.objectContaining({ opentToGuestsPeriod: expect.objectContaining({ '6': { since: 10, to: 14 } }) })]);
      expect(r.code).toBe(3);
      expect(stored).toEqual([]);
      const missing = issue(r, 'MISSING_DAYS')!;
      expect(missing.value).toBe('Mo,Tu,We,Th,Fr,Sa,Su');
      expect(JSON.parse(mapLine(missing.message))).toEqual({ opentToGuestsPeriod: column });
      const { r: again, stored: sent } = await upload('week.csv', csv, '--map', mapLine(missing.message));
      expect(again.code, again.stderr).toBe(0);
      expect(sent).toEqual([
        {
          nodeKey: 'S1',
          email: 's1@example.com',
          storeConceptCode: 3,
          opentToGuestsPeriod: {
            '1': { since: 9, to: 18 },
            '2': { since: 9, to: 18 },
            '3': { since: 9, to: 18 },
            '4': { since: 9, to: 18 },
            '5': { since: 9, to: 18 },
            '6': { since: 10, to: 14 },
          },
        },
      ]);
    },
  );

  it('a Mo-Fr file: refused until --closed-days Sa,Su says the weekend is closed; a declared day with a column is HOURS_TWICE', async () => {
    const csv = 'nodeKey,email,storeConceptCode,Mo-Fr\nS1,s1@example.com,3,08:00-20:00\n';
    const refused = await upload('mofr.csv', csv);
    expect(refused.r.code).toBe(3);
    expect(issue(refused.r, 'MISSING_DAYS')).toMatchObject({ value: 'Sa,Su' });
    expect(refused.stored).toEqual([]);
    const twice = await upload('mofr.csv', csv, '--closed-days', 'Fr-Su');
    expect(twice.r.code).toBe(3);
    expect(issue(twice.r, 'HOURS_TWICE')!.message).toContain('Friday is declared closed with --closed-days but has a column');
    const { r, stored } = await upload('mofr.csv', csv, '--closed-days', 'Sa,Su');
    expect(r.code, r.stderr).toBe(0);
    const weekdays = Object.fromEntries(['1', '2', '3', '4', '5'].map((d) => [d, { since: 8, to: 20 }]));
    expect(stored).toEqual([{ nodeKey: 'S1', email: 's1@example.com', storeConceptCode: 3, opentToGuestsPeriod: weekdays }]);
  });

  it('a blank cell in a day column that exists stays closed, as documented', async () => {
    const csv = `nodeKey,email,storeConceptCode,Mon,Tue,Wed,Thu,Fri,Sat,Sun\nS1,s1@example.com,3,9-18,9-18,9-18,9-18,9-18,closed,\n`;
    const { r, stored } = await upload('blank.csv', csv);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys((stored[0] as { opentToGuestsPeriod: Hours }).opentToGuestsPeriod).sort()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('a file with no hours at all is refused for the whole week; --closed-days Mo-Su sends it closed on purpose', async () => {
    const csv = 'nodeKey,email,storeConceptCode\nS1,s1@example.com,3\n';
    const refused = await upload('keys.csv', csv);
    expect(refused.r.code).toBe(3);
    expect(issue(refused.r, 'MISSING_DAYS')).toMatchObject({ value: 'Mo,Tu,We,Th,Fr,Sa,Su' });
    const { r, stored } = await upload('keys.csv', csv, '--closed-days', 'Mo-Su');
    expect(r.code, r.stderr).toBe(0);
    expect(stored).toEqual([{ nodeKey: 'S1', email: 's1@example.com', storeConceptCode: 3, opentToGuestsPeriod: {} }]);
  });

  it('the "sunday fix" merge with Portuguese headers is refused and the recorded stores stay as they were', async () => {
    const english = `nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat
STORE-001,s1@example.com,12,closed,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-23:30,10:00-18:00
STORE-002,s2@example.com,12,closed,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-23:30,10:00-18:00
`;
    const first = await upload('stores.csv', english);
    expect(first.r.code, first.r.stderr).toBe(0);
    const before = first.stored;
    const pt = `nodeKey,email,storeConceptCode,Domingo,Segunda-feira,Terça-feira,Quarta-feira,Quinta-feira,Sexta-feira,Sábado
STORE-001,s1@example.com,12,12:00-18:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-23:30,10:00-18:00
`;
    sb ??= await sandbox();
    const file = `${sb.dir}/store001-sunday-fix.csv`;
    writeFileSync(file, pt);
    const merge = await runCli(['store-cards', file, '--merge', '--yes', '--json', '--state', sb.stateDir], { env: sb.env });
    const after = await sb.stored(STORES);
    if (merge.code === 0) {
      // Read as written: Sunday opens, the weekdays stay open.
      expect((after[0] as { opentToGuestsPeriod: Hours }).opentToGuestsPeriod).toMatchObject({ '0': { since: 12, to: 18 }, '1': { since: 9, to: 21 } });
      return;
    }
    expect(merge.code).toBe(3);
    expect(merge.json().issues.map((i: { code: string }) => i.code)).toContain('MISSING_DAYS');
    expect(after).toEqual(before);
  });
});

describe('UNUSED_COLUMNS', () => {
  const staff = 'Personalnummer;E-Mail;Name;Funktion;Filiale\nE1;a@example.com;Ann Example;3;STORE-1\n';

  async function members(text: string, ...flags: string[]) {
    sb ??= await sandbox();
    const file = `${sb.dir}/staff.csv`;
    writeFileSync(file, text);
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...flags], { env: sb.env });
    return { r, stored: await sb.stored(TEAM) };
  }

  it('roleCode and parentKey sent null while Funktion and Filiale go unused: refused, naming both, nothing sent', async () => {
    const { r, stored } = await members(staff);
    expect(r.code).toBe(3);
    expect(stored).toEqual([]);
    const found = issue(r, 'UNUSED_COLUMNS')!;
    expect(found).toMatchObject({ column: 'Funktion' });
    expect(found.message).toContain(
      "roleCode and parentKey have no column, so they would be sent empty (null) for every record, while the columns 'Funktion', 'Filiale' are not used",
    );
    expect(found.message).toContain("--ignore-column 'Funktion' --ignore-column 'Filiale'");
    expect(r.stderr).toContain('staff.csv:1 Funktion: roleCode and parentKey have no column');
  });

  it('--map settles it by placing the columns; --ignore-column by leaving them out on purpose', async () => {
    const mapped = await members(staff, '--map', '{"roleCode": "Funktion", "parentKey": "Filiale"}');
    expect(mapped.r.code, mapped.r.stderr).toBe(0);
    expect(mapped.stored).toEqual([{ employeeID: 'E1', email: 'a@example.com', name: 'Ann Example', roleCode: '3', parentKey: 'STORE-1' }]);
    const ignored = await members(staff, '--ignore-column', 'Funktion', '--ignore-column', 'Filiale');
    expect(ignored.r.code, ignored.r.stderr).toBe(0);
    expect(ignored.stored).toEqual([{ employeeID: 'E1', email: 'a@example.com', name: 'Ann Example', roleCode: null, parentKey: null }]);
  });

  it('unused columns alone stay a warning', async () => {
    const { r } = await members('employeeID,email,name,roleCode,parentKey,Department\nE1,a@example.com,Ann,3,STORE-1,Sales\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().issues.map((i: { code: string }) => i.code)).toEqual(['UNKNOWN_COLUMN']);
  });

  it('store cards: a storeConceptCode sent null beside an unknown Store Format column is refused', async () => {
    const csv = `nodeKey,email,Store Format,Mon,Tue,Wed,Thu,Fri,Sat,Sun\nS1,s1@example.com,7,${WEEK_HOURS.join(',')}\n`;
    const { r, stored } = await upload('format.csv', csv);
    expect(r.code).toBe(3);
    expect(issue(r, 'UNUSED_COLUMNS')!.message).toContain(`map it (--map '{"storeConceptCode":"Store Format"}')`);
    expect(stored).toEqual([]);
    const { r: again, stored: sent } = await upload('format.csv', csv, '--map', '{"storeConceptCode":"Store Format"}');
    expect(again.code, again.stderr).toBe(0);
    expect(sent).toEqual([expect.objectContaining({ storeConceptCode: 7 })]);
  });
});

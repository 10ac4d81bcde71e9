// Issue 28, the opening-hours half: every case of the issue through the real CLI against a real
// sandbox. A file is either read as a person means it (the sandbox holds exactly those hours) or
// stops with exit 3 and the named issue, and the sandbox holds nothing.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

type Week = Record<string, { since: number; to: number }>;
const days = (list: number[], since: number, to: number): Week => Object.fromEntries(list.map((d) => [String(d), { since, to }]));
const MON_FRI = [1, 2, 3, 4, 5];
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

/** `upload store-cards` of a one-store CSV with the week in its `hours` column (or the given header and row). */
async function uploadStore(cells: { header?: string; row?: string; hours?: string }, args: string[] = []) {
  const sb = await sandbox();
  try {
    const tmp = tempDir();
    const header = cells.header ?? 'nodeKey,email,storeConceptCode,hours';
    const row = cells.row ?? `S1,s1@example.com,1,"${cells.hours ?? ''}"`;
    const file = tmp.write('stores.csv', `${header}\n${row}\n`);
    const run = await runCli(['store-cards', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...args], { env: sb.env });
    const stored = (await sb.stored('/integrations/storeCards')) as { opentToGuestsPeriod?: Week }[];
    return { run, report: run.json(), stored };
  } finally {
    await sb.stop();
  }
}

async function readsAs(cells: Parameters<typeof uploadStore>[0], week: Week, args: string[] = []) {
  const { run, stored } = await uploadStore(cells, args);
  expect(run.code, run.stderr).toBe(0);
  expect(stored.map((s) => s.opentToGuestsPeriod)).toEqual([week]);
  return run;
}

async function refuses(cells: Parameters<typeof uploadStore>[0], code: string, message: string, line = 2) {
  const { run, report, stored } = await uploadStore(cells);
  expect(run.code, run.stderr).toBe(3);
  expect(stored).toEqual([]);
  const found = (report.issues as { code: string; message: string; line: number; column: string }[]).filter((i) => i.code === code);
  expect(found, JSON.stringify(report.issues)).toHaveLength(1);
  expect(found[0]!.line).toBe(line);
  expect(found[0]!.message).toContain(message);
  return found[0]!;
}

describe.concurrent('a 12-hour clock without AM/PM stops (AMBIGUOUS_TIME)', () => {
  it.each([
    ['Mon-Fri 9-5, Sat 10-2', "'9-5' could be 09:00-17:00 (a 12-hour clock) or 09:00-05:00 next day (a 24-hour clock)"],
    ['Sun 12-4', "'12-4' could be 12:00-16:00 (a 12-hour clock) or 12:00-04:00 next day"],
    ['Tue-Sat 10 to 6', "'10-6' could be 10:00-18:00 (a 12-hour clock) or 10:00-06:00 next day"],
    ['Mon-Fri 8-4:30', "'8-4:30' could be 08:00-16:30 (a 12-hour clock) or 08:00-04:30 next day"],
    ['Mo-Fr 07:45 - 4:00', "'07:45-4:00' could be 07:45-16:00 (a 12-hour clock) or 07:45-04:00 next day"],
  ])('%j', async (hours, message) => {
    const found = await refuses({ hours }, 'AMBIGUOUS_TIME', message);
    expect(found.column).toBe('hours');
    expect(found.message).toContain('say which with --time-format 12h or --time-format 24h');
  });

  it('in a pair of columns, the closing cell is named', async () => {
    const found = await refuses(
      { header: 'nodeKey,email,storeConceptCode,Monday Open,Monday Close', row: 'S1,s1@example.com,1,9,5' },
      'AMBIGUOUS_TIME',
      'or write 17:00',
    );
    expect(found.column).toBe('Monday Close');
  });

  it('--time-format 12h reads the sign as meant; 24h as a night', async () => {
    await readsAs({ hours: 'Mon-Fri 9-5, Sat 10-2' }, { ...days(MON_FRI, 9, 17), '6': { since: 10, to: 14 } }, ['--time-format', '12h']);
    await readsAs({ hours: 'Mon-Fri 9-5' }, days(MON_FRI, 9, 29), ['--time-format', '24h']);
    await readsAs({ hours: 'Mon-Fri 9.30-5.30' }, days(MON_FRI, 9.5, 17.5), ['--map', '{"timeFormat": "clock,12h"}']);
  });

  it.each([
    ['Fr-Sa 18:00-02:00', days([5, 6], 18, 26)],
    ['Mo-Su 22:00-04:00', days(EVERY_DAY, 22, 28)],
  ])('a real night opening %j still reads', async (hours, week) => {
    await readsAs({ hours }, week);
  });

  it('two answers to one question are a usage error', async () => {
    const { run, stored } = await uploadStore({ hours: 'Mo-Fr 9-17' }, ['--time-format', '12h,24h']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('says both 12h and 24h');
    expect(stored).toEqual([]);
  });
});

describe.concurrent('same-day ranges and slash lists are never one day', () => {
  it.each([
    ['de lunes a lunes 9-21', "'lunes' to 'lunes' starts and ends on Monday: for every day write Mo-Su"],
    ['de domingo a domingo 9-21', "'domingo' to 'domingo' starts and ends on Sunday"],
    ['Mo-Mo 09:00-21:00', "'Mo' to 'Mo' starts and ends on Monday"],
    ['Lunedì/Sabato 08:00-20:00', 'could be Monday and Saturday or Monday to Saturday: write Lunedì-Sabato'],
  ])('%j', async (hours, message) => {
    await refuses({ hours }, 'INVALID_HOURS', message);
  });

  it('a day column headed Lunedì/Sabato is asked about too', async () => {
    await refuses(
      { header: 'nodeKey,email,storeConceptCode,Lunedì/Sabato,Domenica', row: 'S1,s1@example.com,1,08:00-20:00,closed' },
      'AMBIGUOUS_WEEKDAY',
      'could be Monday and Saturday or Monday to Saturday',
      1,
    );
  });
});

describe.concurrent('the next languages, as data', () => {
  const WEEK = { ...days(MON_FRI, 9, 18), '6': { since: 9, to: 13 }, '0': { since: 10, to: 14 } };
  it.each([
    ['pt', 'Segunda-feira,Terça-feira,Quarta-feira,Quinta-feira,Sexta-feira,Sábado,Domingo'],
    ['pl', 'Poniedziałek,Wtorek,Środa,Czwartek,Piątek,Sobota,Niedziela'],
    ['sv', 'Måndag,Tisdag,Onsdag,Torsdag,Fredag,Lördag,Söndag'],
    ['da', 'Mandag,Tirsdag,Onsdag,Torsdag,Fredag,Lørdag,Søndag'],
    ['tr', 'Pazartesi,Salı,Çarşamba,Perşembe,Cuma,Cumartesi,Pazar'],
    ['ja', '月曜日,火曜日,水曜日,木曜日,金曜日,土曜日,日曜日'],
  ])('%s day columns', async (_language, columns) => {
    await readsAs({ header: `nodeKey,email,storeConceptCode,${columns}`, row: 'S1,s1@example.com,1,9-18,9-18,9-18,9-18,9-18,9-13,10-14' }, WEEK);
  });

  it.each([
    ['Öppettider', 'Mån-Fre 9-18, Lör 9-13, Sön 10-14'],
    ['Godziny otwarcia', 'pon.-pt. 9:00-18:00, sob. 9:00-13:00, niedz. 10:00-14:00'],
    ['Çalışma saatleri', 'Pazartesi-Cuma 09:00-18:00, Cumartesi 09:00-13:00, Pazar 10:00-14:00'],
    ['Horário de funcionamento', 'Segunda a Sexta das 9h às 18h, Sábado 9h-13h, Domingo 10h-14h'],
    ['営業時間', '月～金 ９：００～１８：００、土 ９：００～１３：００、日 １０：００～１４：００'],
  ])('a whole-week column headed %s', async (column, hours) => {
    await readsAs({ header: `nodeKey,email,storeConceptCode,${column}`, row: `S1,s1@example.com,1,"${hours}"` }, WEEK);
  });

  it('closed words of the new languages close the day', async () => {
    await readsAs(
      {
        header: 'nodeKey,email,storeConceptCode,Mandag,Tirsdag,Onsdag,Torsdag,Fredag,Lørdag,Søndag',
        row: 'S1,s1@example.com,1,9-18,9-18,9-18,9-18,9-18,9-13,lukket',
      },
      { ...days(MON_FRI, 9, 18), '6': { since: 9, to: 13 } },
    );
    await readsAs({ hours: 'Pazartesi-Cumartesi 09:00-18:00, Pazar kapalı' }, days([1, 2, 3, 4, 5, 6], 9, 18));
    await readsAs({ hours: '月～土 10:00～20:00、日 定休日' }, days([1, 2, 3, 4, 5, 6], 10, 20));
  });

  it('Su,PH off: the holidays are left out with a note, Sunday is closed', async () => {
    const run = await readsAs({ hours: 'Mo-Sa 10:00-20:00; Su,PH off' }, days([1, 2, 3, 4, 5, 6], 10, 20));
    const notes = (run.json().issues as { code: string; severity: string; message: string }[]).filter((i) => i.code === 'HOLIDAYS_LEFT_OUT');
    expect(notes).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining("'Su, PH off'") })]);
  });

  it('times with no weekday mean every day', async () => {
    await readsAs({ hours: '10:00-20:00' }, days(EVERY_DAY, 10, 20));
  });

  it('rules with no separator: Mo-Fr 10-21 Sa 9-21', async () => {
    await readsAs({ hours: 'Mo-Fr 10-21 Sa 9-21' }, { ...days(MON_FRI, 10, 21), '6': { since: 9, to: 21 } });
  });

  it('a lone Polish pn could be Lithuanian Friday: asked, not read as Monday', async () => {
    await refuses({ hours: 'pn 10:00-18:00' }, 'INVALID_HOURS', "'pn' (pl: Monday, lt: Friday)");
  });
});

it('on screen, the ambiguous clock names the file, line, column and both ways to settle it', async () => {
  const sb = await sandbox();
  try {
    const tmp = tempDir();
    tmp.write('stores.csv', 'nodeKey,email,storeConceptCode,hours\nS1,s1@example.com,1,"Mon-Fri 9-5, Sat 10-2"\n');
    const run = await runCli(['store-cards', 'stores.csv', '--yes', '--no-baseline', '--state', sb.stateDir], { env: sb.env, cwd: tmp.dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("stores.csv:2 hours: 'Mon-Fri 9-5, Sat 10-2': '9-5' could be 09:00-17:00 (a 12-hour clock) or 09:00-05:00 next day");
    expect(run.stderr).toContain('--time-format 12h');
    expect(run.stderr).toContain('nothing was sent');
    expect(await sb.stored('/integrations/storeCards')).toEqual([]);
  } finally {
    await sb.stop();
  }
});

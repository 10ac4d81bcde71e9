// One usage code per remedy (docs/report.md, Merged codes): codes that called for the same action
// are one, and the message still names the flag or word at fault. Real runs to a real sandbox, which
// must hold nothing afterwards.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

/** A real upload (not a dry run) of a team-members file, with these flags. */
async function upload(file: string, ...flags: string[]) {
  sb = await sandbox();
  return runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...flags], { env: sb.env });
}

// A workbook whose name says CSV: its bytes, not its name, make it a workbook.
const workbookNamedCsv = () => {
  const dir = tempDir().dir;
  copyFileSync(fixture('team-members-first-last-name-workbook.xlsx'), join(dir, 'staff.csv'));
  return join(dir, 'staff.csv');
};

describe('a flag the file format does not take is FLAG_NOT_FOR_FORMAT, naming the flag and the format', () => {
  it.each([
    ['--delimiter with JSON', () => fixture('team-members.json'), ['--delimiter', ';'], /--delimiter applies to CSV only.*read as json/],
    ['--encoding with a workbook', () => fixture('team-members-first-last-name-workbook.xlsx'), ['--encoding', 'latin1'], /--encoding applies to text files/],
    ['--encoding with a workbook named .csv', workbookNamedCsv, ['--encoding', 'latin1'], /--encoding applies to text files.*a spreadsheet workbook/],
    ['--delimiter with a workbook named .csv', workbookNamedCsv, ['--delimiter', ';'], /--delimiter applies to text files.*a spreadsheet workbook/],
    ['--sheet with CSV', () => fixture('team-members.csv'), ['--sheet', 'Staff'], /--sheet applies to workbooks only.*read as csv/],
  ])('%s', async (_why, file, flags, message) => {
    const r = await upload(file(), ...flags);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'FLAG_NOT_FOR_FORMAT', message: expect.stringMatching(message) } });
    expect(await sb!.stored('/integrations/teamMembers')).toEqual([]);
  });
});

describe('a value a flag does not take is BAD_FLAG, whoever checks it', () => {
  it.each([
    ['a guard limit that is neither a count nor a share', ['--max-emptied', 'some'], /--max-emptied 'some'/],
    ['a value outside the listed choices', ['--format', 'txt'], /--format.*'txt'.*csv, json, ndjson, xlsx/],
  ])('%s', async (_why, flags, message) => {
    const r = await upload(fixture('team-members.csv'), ...flags);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'BAD_FLAG', message: expect.stringMatching(message) } });
    expect(await sb!.stored('/integrations/teamMembers')).toEqual([]);
  });
});

describe('a word of the command line the tool does not know is BAD_USAGE', () => {
  it.each([
    ['a kind', ['history', 'shifts', '--json'], /'shifts' is not a kind/],
    ['an option', ['history', 'team-members', '--shifts', '--json'], /--shifts is not an option of history/],
  ])('%s', async (_why, args, message) => {
    const r = await runCli(args, { env: { XDG_STATE_HOME: tempDir().dir } });
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'BAD_USAGE', message: expect.stringMatching(message) } });
  });
});

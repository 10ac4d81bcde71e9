// The corpus of hints followed (./hints-followed.test.ts): per error or issue code that offers a fix,
// a run that meets it, and per fix, what following it must lead to — the records the person means on
// the service, a dry run that sends nothing, or another refusal (whose own fixes are followed in turn).
// test/unit/fixes-covered.test.ts checks every code is here, or listed as having no fix and why.
import { readFileSync } from 'node:fs';
import type { Kind } from '../helpers/scenarios.js';
import { fixture } from '../helpers/cli.js';

export type Outcome =
  /** Exit 0, and the service holds exactly these records. */
  | { readonly stored: readonly unknown[] }
  /** Exit 0 and nothing sent (a dry run): the service holds what it held; `wrote` names a file it made. */
  | { readonly sentNothing: true; readonly wrote?: string }
  /** Exit 0, and the file named holds, as JSON, exactly what the service holds (an export). */
  | { readonly exported: string }
  /** Another refusal, with this code; nothing sent. `then`: what each of its fixes leads to, in order. */
  | { readonly refused: string; readonly then?: readonly Outcome[] };

export interface Before {
  readonly kind: Kind;
  readonly name: string;
  readonly content: string;
}

export interface FixCase {
  /** The error or issue code whose fixes are followed. */
  readonly code: string;
  readonly title: string;
  /** What the service holds first, uploaded by `upload KIND FILE --yes` in turn (so each is recorded). */
  readonly before?: Before | readonly Before[];
  /** The file the run reads: written in the case's folder, or a fixture (copied there). */
  readonly file?: { readonly name: string; readonly content: string | (() => Promise<Buffer>) } | { readonly fixture: string };
  /** Other files the run reads, by name, written in the case's folder beside it. */
  readonly beside?: Readonly<Record<string, string>>;
  /** The words after `upload`; `{file}` is the file's path, `{dir}` the case's folder. */
  readonly argv: readonly string[];
  /** Per fix the run offers (for `code`, in order), what following it alone leads to. */
  readonly followed: readonly Outcome[];
}

const fixtureJson = (name: string): unknown[] => JSON.parse(readFileSync(fixture(name), 'utf8')) as unknown[];

interface Member {
  readonly id: string;
  readonly name: string;
  readonly role?: string;
}
const members = (list: readonly Member[]) =>
  `employeeID,email,name,roleCode\n${list.map((m) => `${m.id},${m.id.toLowerCase()}@example.com,${m.name},${m.role ?? ''}`).join('\n')}\n`;
const wire = (list: readonly Member[]) =>
  list.map((m) => ({ employeeID: m.id, email: `${m.id.toLowerCase()}@example.com`, name: m.name, roleCode: m.role ?? null, parentKey: null }));

/** A workbook of one sheet of members per name, written by SheetJS (loaded only when a case runs). */
async function workbook(sheets: Readonly<Record<string, readonly Member[]>>): Promise<Buffer> {
  const XLSX = await import('@e965/xlsx');
  const wb = XLSX.utils.book_new();
  for (const [name, list] of Object.entries(sheets)) {
    const rows = members(list)
      .trimEnd()
      .split('\n')
      .map((line) => line.split(','));
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  }
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

const FOUR: Member[] = [
  { id: 'E1', name: 'Anna Berg', role: '10' },
  { id: 'E2', name: 'Ola Dahl', role: '10' },
  { id: 'E3', name: 'Kari Lund', role: '20' },
  { id: 'E4', name: 'Per Moe', role: '20' },
];
const HIRES: Member[] = [
  { id: 'E5', name: 'Liv Holm' },
  { id: 'E6', name: 'Nils Vik' },
  { id: 'E7', name: 'Siri Aas' },
  { id: 'E8', name: 'Tor Bakke' },
];
const RENAMED = FOUR.map((m) => ({ ...m, name: `${m.name} Jr` }));
const NO_ROLES = FOUR.map((m) => ({ id: m.id, name: m.name }));
const before = { kind: 'team-members', name: 'before.csv', content: members(FOUR) } as const;
const TWO = FOUR.slice(0, 2);

/** A store open Monday to Friday 9 to 17 (Saturday and Sunday are the `extra` columns' or closed). */
const store = (header: string, row: string) => `Store ID,Email,Mon,Tue,Wed,Thu,Fri${header}\nS1,s1@example.com,9-17,9-17,9-17,9-17,9-17${row}\n`;
const weekdays = { '1': { since: 9, to: 17 }, '2': { since: 9, to: 17 }, '3': { since: 9, to: 17 }, '4': { since: 9, to: 17 }, '5': { since: 9, to: 17 } };
const storeWire = (extra: Record<string, unknown> = {}) => [
  { nodeKey: 'S1', email: 's1@example.com', storeConceptCode: null, opentToGuestsPeriod: { ...weekdays, ...extra } },
];

export const CASES: readonly FixCase[] = [
  // the guards
  {
    code: 'EMPTY_UPLOAD',
    title: 'an empty file on purpose: --allow-empty, then the removals it means',
    before,
    file: { name: 'empty.csv', content: 'employeeID,email,name\n' },
    argv: ['team-members', '{file}', '--yes'],
    followed: [{ refused: 'TOO_MANY_REMOVALS', then: [{ stored: [] }] }],
  },
  {
    code: 'EMPTY_UPLOAD',
    title: 'upload remove of every recorded key: --allow-empty, the removals being the ones named',
    before,
    argv: ['remove', 'team-members', 'E1', 'E2', 'E3', 'E4', '--yes'],
    followed: [{ stored: [] }],
  },
  {
    code: 'TOO_MANY_REMOVALS',
    title: 'three of four members left out on purpose',
    before,
    file: { name: 'one.csv', content: members(FOUR.slice(0, 1)) },
    argv: ['team-members', '{file}', '--yes'],
    followed: [{ stored: wire(FOUR.slice(0, 1)) }],
  },
  {
    code: 'TOO_MANY_REMOVALS',
    title: 'a restore of the upload before four hires: its removals allowed',
    before: [before, { kind: 'team-members', name: 'hires.csv', content: members([...FOUR, ...HIRES]) }],
    argv: ['restore', 'team-members', '--yes'],
    followed: [{ stored: wire(FOUR) }],
  },
  {
    code: 'TOO_MANY_CHANGES',
    title: 'every name changed on purpose',
    before,
    file: { name: 'renamed.csv', content: members(RENAMED) },
    argv: ['team-members', '{file}', '--yes'],
    followed: [{ stored: wire(RENAMED) }],
  },
  {
    code: 'TOO_MANY_CHANGES',
    title: 'a --merge renaming two of four: its override keeps the merge, the other two kept',
    before,
    file: { name: 'two-renamed.csv', content: members(RENAMED.slice(0, 2)) },
    argv: ['team-members', '{file}', '--merge', '--yes'],
    followed: [{ stored: wire([...RENAMED.slice(0, 2), ...FOUR.slice(2)]) }],
  },
  {
    code: 'VALUES_EMPTIED',
    title: 'every role emptied on purpose: one fix with both overrides the hint names',
    before,
    file: { name: 'no-roles.csv', content: members(NO_ROLES) },
    argv: ['team-members', '{file}', '--yes'],
    followed: [{ stored: wire(NO_ROLES) }],
  },
  {
    code: 'NO_BASELINE',
    title: 'a first upload with nothing recorded: --no-baseline',
    file: { name: 'two.csv', content: members(TWO) },
    argv: ['team-members', '{file}', '--yes'],
    followed: [{ stored: wire(TWO) }],
  },
  // the command line
  {
    code: 'NO_CONFIRMATION',
    title: 'no terminal and no --yes: review with --dry-run, or say --yes',
    file: { name: 'two.csv', content: members(TWO) },
    argv: ['team-members', '{file}', '--no-baseline'],
    followed: [{ sentNothing: true }, { stored: wire(TWO) }],
  },
  {
    code: 'BAD_FLAG',
    title: '--plan-out on a real run: the plan of a dry run',
    before,
    file: { name: 'renamed.csv', content: members(RENAMED.slice(0, 1).concat(FOUR.slice(1))) },
    argv: ['team-members', '{file}', '--yes', '--plan-out', '{dir}/plan.json'],
    followed: [{ sentNothing: true, wrote: 'plan.json' }],
  },
  // the file's format
  {
    code: 'MISSING_COLUMN',
    title: 'a semicolon file read with --delimiter ,: the header is one column, --delimiter ;',
    file: { name: 'members.csv', content: members(TWO).replaceAll(',', ';') },
    argv: ['team-members', '{file}', '--yes', '--no-baseline', '--delimiter', ','],
    followed: [{ stored: wire(TWO) }],
  },
  {
    code: 'WRONG_FORMAT',
    title: 'a JSON array named .csv: --format json',
    file: { name: 'members.csv', content: JSON.stringify(wire(TWO)) },
    argv: ['team-members', '{file}', '--yes', '--no-baseline'],
    followed: [{ stored: wire(TWO) }],
  },
  {
    code: 'WRONG_FORMAT',
    title: 'NDJSON named .csv: --format ndjson, not json',
    file: {
      name: 'members.csv',
      content:
        wire(TWO)
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n',
    },
    argv: ['team-members', '{file}', '--yes', '--no-baseline'],
    followed: [{ stored: wire(TWO) }],
  },
  {
    code: 'WRONG_FORMAT',
    title: 'a workbook read with --format csv: --format xlsx, then its hidden row decided',
    file: { fixture: 'team-members-hidden-workbook.xlsx' },
    argv: ['team-members', '{file}', '--yes', '--no-baseline', '--format', 'csv'],
    followed: [
      {
        refused: 'INVALID_RECORDS',
        then: [
          { stored: fixtureJson('team-members-hidden-workbook.exclude.wire.json') },
          { stored: fixtureJson('team-members-hidden-workbook.include.wire.json') },
        ],
      },
    ],
  },
  {
    code: 'FLAG_NOT_FOR_FORMAT',
    title: 'a workbook read with --format csv and --sheet: --format xlsx reads the sheet',
    file: { fixture: 'team-members-hidden-workbook.xlsx' },
    argv: ['team-members', '{file}', '--yes', '--no-baseline', '--format', 'csv', '--sheet', 'Staff', '--hidden-rows', 'exclude'],
    followed: [{ stored: fixtureJson('team-members-hidden-workbook.exclude.wire.json') }],
  },
  {
    code: 'FLAG_NOT_FOR_FORMAT',
    title: 'JSON with --delimiter: no --format csv as data, which would lead round to --format json and back',
    file: { name: 'members.json', content: JSON.stringify(wire(TWO)) },
    argv: ['team-members', '{file}', '--yes', '--no-baseline', '--delimiter', ';'],
    followed: [],
  },
  // workbooks
  {
    code: 'TITLE_ROW',
    title: 'a title above the header: --header-row, then the weekdays it leaves out are for the person to say',
    file: { fixture: 'store-cards-dotted-times-workbook.xlsx' },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline'],
    // The sheet's unused column 'Opened' might hold the missing days' hours: --closed-days is words only.
    followed: [{ refused: 'INVALID_RECORDS', then: [] }],
  },
  {
    code: 'TITLE_ROW',
    title: 'a title above the header, the closed days said: --header-row reads the sheet',
    file: { fixture: 'store-cards-dotted-times-workbook.xlsx' },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline', '--closed-days', 'We-Su'],
    followed: [{ stored: fixtureJson('store-cards-dotted-times-workbook.wire.json') }],
  },
  {
    code: 'HEADER_ROW_EMPTY',
    title: '--header-row naming an empty row: the row below that names the columns',
    file: { fixture: 'store-cards-dotted-times-workbook.xlsx' },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline', '--closed-days', 'We-Su', '--header-row', '2'],
    followed: [{ stored: fixtureJson('store-cards-dotted-times-workbook.wire.json') }],
  },
  {
    code: 'HIDDEN_ROWS',
    title: 'a filtered-out row: leave it out, or upload it',
    file: { fixture: 'team-members-hidden-workbook.xlsx' },
    argv: ['team-members', '{file}', '--yes', '--no-baseline'],
    followed: [
      { stored: fixtureJson('team-members-hidden-workbook.exclude.wire.json') },
      { stored: fixtureJson('team-members-hidden-workbook.include.wire.json') },
    ],
  },
  {
    code: 'SHEET_NOT_FOUND',
    title: 'a --sheet the workbook lacks: each of its sheets, by name',
    file: { name: 'staff.xlsx', content: () => workbook({ Staff: FOUR.slice(0, 1), Temps: FOUR.slice(2) }) },
    argv: ['team-members', '{file}', '--yes', '--no-baseline', '--sheet', 'Staf'],
    followed: [{ stored: wire(FOUR.slice(0, 1)) }, { stored: wire(FOUR.slice(2)) }],
  },
  {
    code: 'LOOKALIKE_CHARACTER',
    title: 'a full-width key: the cell written in its plain form',
    file: { name: 'members.csv', content: 'employeeID,email,name,roleCode\n\uff25\uff10\uff10\uff11,e001@example.com,Ann,\n' },
    argv: ['team-members', '{file}', '--yes', '--no-baseline'],
    followed: [{ stored: [{ employeeID: 'E001', email: 'e001@example.com', name: 'Ann', roleCode: null, parentKey: null }] }],
  },
  {
    code: 'OTHER_SHEETS',
    title: 'a second sheet with data: --sheet reads it instead of the first',
    file: { name: 'staff.xlsx', content: () => workbook({ Staff: FOUR.slice(0, 1), Temps: FOUR.slice(2) }) },
    argv: ['team-members', '{file}', '--yes', '--no-baseline'],
    followed: [{ stored: wire(FOUR.slice(2)) }],
  },
  // opening hours
  {
    code: 'SPLIT_HOURS',
    title: 'a lunch break: --split-hours span sends first opening to last closing',
    file: { fixture: 'store-cards-lunch-break.csv' },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline'],
    followed: [{ stored: fixtureJson('store-cards-lunch-break.span.wire.json') }],
  },
  {
    code: 'AMBIGUOUS_TIME',
    title: "'9-5': --time-format 12h is 09:00-17:00, 24h is 09:00-05:00 next day, as the message says",
    file: { name: 'stores.csv', content: store(',Sat', ',9-5') },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline', '--closed-days', 'Su'],
    followed: [{ stored: storeWire({ '6': { since: 9, to: 17 } }) }, { stored: storeWire({ '6': { since: 9, to: 29 } }) }],
  },
  {
    code: 'AMBIGUOUS_TIME',
    title: "'9-5' in a run that said --time-format clock: the fix keeps clock (clock,12h or clock,24h)",
    file: { name: 'stores.csv', content: 'Store ID,Email,Mon,Tue,Wed,Thu,Fri,Sat\nS1,s1@example.com,9.30-17.30,9-17,9-17,9-17,9-17,9-5\n' },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline', '--closed-days', 'Su', '--time-format', 'clock'],
    followed: [
      { stored: storeWire({ '1': { since: 9.5, to: 17.5 }, '6': { since: 9, to: 17 } }) },
      { stored: storeWire({ '1': { since: 9.5, to: 17.5 }, '6': { since: 9, to: 29 } }) },
    ],
  },
  {
    code: 'INVALID_HOURS',
    title: "'08,30-21,30' and '08.30-21.30': --time-format clock or decimal, each read as the message says",
    file: { fixture: 'store-cards-comma-times.csv' },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline', '--closed-days', 'Sa,Su'],
    followed: [
      { stored: fixtureJson('store-cards-comma-times.clock.wire.json') },
      {
        stored: [
          {
            nodeKey: 'DE-003',
            email: 'hamburg@example.de',
            storeConceptCode: null,
            opentToGuestsPeriod: {
              '1': { since: 8.3, to: 21.3 },
              '2': { since: 8.3, to: 21.3 },
              '3': { since: 8.5, to: 20 },
              '4': { since: 8, to: 20 },
              '5': { since: 8, to: 20 },
            },
          },
        ],
      },
    ],
  },
  {
    code: 'MISSING_DAYS',
    title: 'no column for the weekend and none unused: --closed-days',
    file: { name: 'stores.csv', content: store('', '') },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline'],
    followed: [{ stored: storeWire() }],
  },
  {
    code: 'MISSING_DAYS',
    title: "a day missing and a column unused: no --closed-days that would close what it may hold, no --map that would replace the run's",
    file: { name: 'stores.csv', content: store(',Sat,Kyriaki', ',10-14,11-13') },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline', '--map', '{"email":"Email"}'],
    followed: [],
  },
  {
    code: 'MISSING_DAYS',
    title: 'Friday said closed, the weekend not: --closed-days with every closed day, not only the missing ones',
    file: { name: 'stores.csv', content: 'Store ID,Email,Mon,Tue,Wed,Thu\nS1,s1@example.com,9-17,9-17,9-17,9-17\n' },
    argv: ['store-cards', '{file}', '--yes', '--no-baseline', '--closed-days', 'Fr'],
    followed: [
      {
        stored: [
          {
            nodeKey: 'S1',
            email: 's1@example.com',
            storeConceptCode: null,
            opentToGuestsPeriod: { '1': { since: 9, to: 17 }, '2': { since: 9, to: 17 }, '3': { since: 9, to: 17 }, '4': { since: 9, to: 17 } },
          },
        ],
      },
    ],
  },
  // files beside the records
  {
    code: 'STORE_CARDS_INVALID',
    title: '--store-cards with errors: the dry run of that file names them',
    file: { name: 'two.csv', content: members(TWO) },
    beside: { 'stores.csv': 'Store ID,Email,Mon,Tue,Wed,Thu,Fri,Sat,Sun\nS1,not-an-email,9-17,,,,,,\n' },
    argv: ['team-members', '{file}', '--yes', '--no-baseline', '--store-cards', '{dir}/stores.csv'],
    followed: [{ refused: 'INVALID_RECORDS' }],
  },
  {
    code: 'EXPORT_INEXACT',
    title: 'hours that are not whole minutes: --format json exports them exactly',
    before: {
      kind: 'store-cards',
      name: 'before.json',
      content: JSON.stringify([{ nodeKey: 'S1', email: 's1@example.com', storeConceptCode: null, opentToGuestsPeriod: { '1': { since: 9.001, to: 17 } } }]),
    },
    argv: ['export', 'store-cards', '{dir}/export.csv'],
    followed: [{ exported: 'export.csv' }],
  },
];

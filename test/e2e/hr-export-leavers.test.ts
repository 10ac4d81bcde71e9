// Leavers are decided, never defaulted: an export of each HR system the table knows
// (src/map/status-exports.ts), shaped like the real one with a person who left, is refused
// (STATUS_COLUMN_UNDECIDED) until the person answers; following the refusal's own fixes, as --json
// gives them, sends exactly the active people, or everyone when the column is said to be no status.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/scenarios.js';
import { sandbox } from '../helpers/sandbox.js';
import { xlsx } from '../helpers/zip.js';

interface Export {
  readonly product: string;
  readonly file: string;
  /** The mapping a person gives for the columns the tool does not know by name (not the status). */
  readonly map?: Record<string, string | string[]>;
  readonly status: string;
  /** The --active the fix offers. */
  readonly active: string;
  readonly everyone: string[];
  readonly stillHere: string[];
}

const EXPORTS: Export[] = [
  {
    product: 'ADP',
    file: 'team-members-hr-adp.csv',
    map: {
      name: ['Legal First Name', 'Legal Last Name'],
      email: 'Work Contact: Work Email',
      roleCode: 'Job Title Code',
      parentKey: 'Location Code',
    },
    status: 'Position Status',
    active: 'Active,Leave',
    everyone: ['G3J7K1', 'G3J7K2', 'G3J7K3'],
    stillHere: ['G3J7K1', 'G3J7K3'],
  },
  {
    product: 'Paychex',
    file: 'team-members-hr-paychex.csv',
    map: { name: ['First Name', 'Last Name'] },
    status: 'Status',
    active: 'A',
    everyone: ['1001', '1002', '1003'],
    stillHere: ['1001', '1003'],
  },
  {
    product: 'Homebase',
    file: 'team-members-hr-homebase.csv',
    map: { employeeID: 'Payroll ID', name: ['First name', 'Last name'] },
    status: 'Archived',
    active: 'false',
    everyone: ['HB-1', 'HB-2', 'HB-3'],
    stillHere: ['HB-1', 'HB-3'],
  },
  { product: 'Deputy', file: 'team-members-hr-deputy.csv', status: 'Active', active: '1', everyone: ['11', '12', '13'], stillHere: ['11', '13'] },
  {
    product: 'Rippling',
    file: 'team-members-hr-rippling.csv',
    map: { name: 'Legal full name' },
    status: 'Role state',
    active: 'ACTIVE',
    everyone: ['R-100', 'R-101', 'R-102'],
    stillHere: ['R-100', 'R-102'],
  },
  {
    product: 'HiBob',
    file: 'team-members-hr-hibob.csv',
    status: 'Lifecycle status',
    active: 'Employed',
    everyone: ['B1', 'B2', 'B3'],
    stillHere: ['B1', 'B3'],
  },
  {
    product: 'Gusto',
    file: 'team-members-hr-gusto.csv',
    status: 'Employment Status',
    active: 'Active',
    everyone: ['GU1', 'GU2', 'GU3'],
    stillHere: ['GU1', 'GU3'],
  },
  {
    product: 'Workday',
    file: 'team-members-hr-workday.csv',
    map: { name: 'Worker', email: 'Email - Primary Work' },
    status: 'Active Status',
    active: 'Yes',
    everyone: ['21001', '21002', '21003'],
    stillHere: ['21001', '21003'],
  },
  {
    product: 'BambooHR',
    file: 'team-members-hr-bamboohr.csv',
    map: { employeeID: 'Employee #', name: ['First Name', 'Last Name'] },
    status: 'Status',
    active: 'Active',
    everyone: ['1', '2', '3'],
    stillHere: ['1', '3'],
  },
  {
    product: 'Personio',
    file: 'team-members-hr-personio.csv',
    map: { name: ['Vorname', 'Nachname'] },
    status: 'Status',
    active: 'Aktiv',
    everyone: ['501', '502', '503'],
    stillHere: ['501', '503'],
  },
  {
    product: 'SuccessFactors',
    file: 'team-members-hr-successfactors.csv',
    status: 'Employee Status',
    active: 'Active,Paid Leave',
    everyone: ['SF1', 'SF2', 'SF3'],
    stillHere: ['SF1', 'SF3'],
  },
  {
    product: 'UKG',
    file: 'team-members-hr-ukg.csv',
    status: 'Employee Status Code',
    active: 'A,L',
    everyone: ['7001', '7002', '7003'],
    stillHere: ['7001', '7003'],
  },
  {
    product: 'Dayforce',
    file: 'team-members-hr-dayforce.csv',
    map: { employeeID: 'Employee XRefCode' },
    status: 'Employment Status',
    active: 'Active',
    everyone: ['DF1', 'DF2', 'DF3'],
    stillHere: ['DF1', 'DF3'],
  },
  {
    product: 'Sage',
    file: 'team-members-hr-sage.csv',
    map: { employeeID: 'Reference', name: ['Forename', 'Surname'] },
    status: 'Leaver',
    active: 'N',
    everyone: ['S001', 'S002', 'S003'],
    stillHere: ['S001', 'S003'],
  },
  // A column named like nothing known, whose values are French statuses: a status by its values.
  {
    product: 'by values (French)',
    file: 'team-members-hr-by-values-french.csv',
    status: 'Situation',
    active: 'Actif',
    everyone: ['F1', 'F2', 'F3'],
    stillHere: ['F1', 'F3'],
  },
];

interface Fix {
  readonly kind: string;
  readonly args: string[];
}
interface Found {
  readonly code: string;
  readonly column: string | null;
  readonly fixes?: Fix[];
}

/**
 * Runs the export, and follows the fixes the refusals give until it is sent: for the status column
 * the one `answer` names (the --active offer, or --no-status-column), for UNUSED_COLUMNS leaving the
 * unused columns out. Each refusal must have sent nothing. Returns the runs and what the sandbox holds.
 */
async function follow(e: Export, answer: 'active' | 'not a status') {
  const sb = await sandbox();
  try {
    const args = [join(FIXTURES, e.file), '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...(e.map ? ['--map', JSON.stringify(e.map)] : [])];
    const runs: CliResult[] = [];
    for (let step = 0; step < 4; step++) {
      const r = await runCli(['team-members', ...args], { env: sb.env });
      runs.push(r);
      if (r.code !== 3) break;
      expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
      const issues = r.json().issues as Found[];
      const undecided = issues.find((i) => i.code === 'STATUS_COLUMN_UNDECIDED');
      const unused = issues.find((i) => i.code === 'UNUSED_COLUMNS');
      if (undecided) {
        const fix = undecided.fixes!.find((f) => (answer === 'active' ? f.args[0] === '--status-column' : f.args[0] === '--no-status-column'))!;
        args.push(...fix.args);
      } else if (unused) args.push(...unused.fixes!.at(-1)!.args);
      else break;
    }
    const stored = (await sb.stored('/integrations/teamMembers')) as { employeeID: string }[];
    return { runs, ids: stored.map((m) => m.employeeID) };
  } finally {
    await sb.stop();
  }
}

describe.concurrent('an HR export with a person who left', () => {
  it.each(EXPORTS)('$product: refused without a decision, the fixes offered as data', async (e) => {
    const { runs } = await follow(e, 'active');
    const first = runs[0]!;
    expect(first.code, first.stderr).toBe(3);
    const undecided = (first.json().issues as Found[]).filter((i) => i.code === 'STATUS_COLUMN_UNDECIDED');
    expect(undecided).toEqual([
      expect.objectContaining({
        column: e.status,
        fixes: [
          { kind: 'flags', args: ['--status-column', e.status, '--active', e.active] },
          { kind: 'flags', args: ['--no-status-column', e.status] },
        ],
      }),
    ]);
  });

  it.each(EXPORTS)('$product: following the --active fix sends exactly the people still employed', async (e) => {
    const { runs, ids } = await follow(e, 'active');
    const last = runs.at(-1)!;
    expect(last.code, last.stderr).toBe(0);
    expect(ids).toEqual(e.stillHere);
    const excluded = (last.json().issues as { code: string; message: string }[]).find((i) => i.code === 'STATUS_EXCLUDED');
    expect(excluded?.message).toMatch(/^1 row left out by /);
  });

  it.each(EXPORTS)('$product: following --no-status-column keeps everyone', async (e) => {
    const { runs, ids } = await follow(e, 'not a status');
    expect(runs.at(-1)!.code, runs.at(-1)!.stderr).toBe(0);
    expect(ids).toEqual(e.everyone);
  });
});

describe.concurrent('UNUSED_COLUMNS beside a status column', () => {
  it.each([
    ['team-members-hr-rippling.csv', 'Role state', 'Work location', { name: 'Legal full name' }],
    ['team-members-hr-hibob.csv', 'Lifecycle status', 'Site', {}],
  ] as const)('%s: the fix leaves out only the other column, and following it (or ignoring the status) is still refused', async (file, status, other, map) => {
    const sb = await sandbox();
    try {
      const base = [join(FIXTURES, file), '--yes', '--no-baseline', '--json', '--state', sb.stateDir, '--map', JSON.stringify(map)];
      const run = (...more: string[]) => runCli(['team-members', ...base, ...more], { env: sb.env });
      const first = await run();
      expect(first.code).toBe(3);
      const unused = (first.json().issues as (Found & { message: string })[]).find((i) => i.code === 'UNUSED_COLUMNS')!;
      expect(unused.fixes).toEqual([{ kind: 'flags', args: ['--ignore-column', other] }]);
      expect(unused.message).not.toContain(status);
      // Following it, and the old hint that named the status column too: the leaver still needs a decision.
      for (const r of [await run(...unused.fixes![0]!.args), await run('--ignore-column', other, '--ignore-column', status)]) {
        expect(r.code).toBe(3);
        expect((r.json().issues as Found[]).map((i) => i.code)).toContain('STATUS_COLUMN_UNDECIDED');
        expect((r.json().issues as Found[]).map((i) => i.code)).not.toContain('UNUSED_COLUMNS');
      }
      expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    } finally {
      await sb.stop();
    }
  });
});

describe('a workbook whose yes/no status cells are booleans', () => {
  it('Deputy saved as .xlsx: TRUE and FALSE are read as the export means, and the fix keeps only TRUE', async () => {
    const sb = await sandbox();
    try {
      const text = (ref: string, t: string) => `<c r="${ref}" t="inlineStr"><is><t>${t}</t></is></c>`;
      const row = (r: number, id: string, name: string, active: boolean) =>
        `<row r="${r}">${text(`A${r}`, id)}${text(`B${r}`, name)}${text(`C${r}`, `${id}@example.com`)}<c r="D${r}" t="b"><v>${active ? 1 : 0}</v></c></row>`;
      const file = join(sb.dir, 'deputy.xlsx');
      writeFileSync(
        file,
        xlsx({
          sheetData: `<row r="1">${text('A1', 'Employee Id')}${text('B1', 'Display Name')}${text('C1', 'Email')}${text('D1', 'Active')}</row>${row(2, 'd1', 'Ella Moss', true)}${row(3, 'd2', 'Finn Reid', false)}`,
        }),
      );
      const args = ['team-members', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir];
      const first = await runCli(args, { env: sb.env });
      expect(first.code).toBe(3);
      const undecided = (first.json().issues as Found[]).find((i) => i.code === 'STATUS_COLUMN_UNDECIDED')!;
      expect(undecided.fixes![0]).toEqual({ kind: 'flags', args: ['--status-column', 'Active', '--active', 'TRUE'] });
      const followed = await runCli([...args, ...undecided.fixes![0]!.args], { env: sb.env });
      expect(followed.code, followed.stderr).toBe(0);
      expect(((await sb.stored('/integrations/teamMembers')) as { employeeID: string }[]).map((m) => m.employeeID)).toEqual(['d1']);
    } finally {
      await sb.stop();
    }
  });
});

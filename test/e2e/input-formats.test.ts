// Files as they come out of Excel and HR systems, uploaded end to end: each fixture through
// the real CLI (in-process) to a real sandbox, whose stored array must equal the fixture's wire JSON.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { sandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const FIXTURES = dirname(fixture('store-cards.csv'));
const PATHS = { 'store-cards': '/integrations/storeCards', 'team-members': '/integrations/teamMembers' } as const;
type Kind = keyof typeof PATHS;

const wire = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

const CASES: { kind: Kind; file: string; wire: string; args?: string[] }[] = [
  { kind: 'team-members', file: 'team-members-excel-semicolon-bom-crlf.csv', wire: 'team-members-excel-semicolon-bom-crlf.wire.json' },
  { kind: 'team-members', file: 'team-members-windows-1252.csv', wire: 'team-members-windows-1252.wire.json', args: ['--encoding', 'windows-1252'] },
  { kind: 'team-members', file: 'team-members-utf16le-tab.txt', wire: 'team-members-utf16le-tab.wire.json' },
  { kind: 'team-members', file: 'team-members-aliases.csv', wire: 'team-members-aliases.wire.json' },
  {
    kind: 'team-members',
    file: 'team-members-hr-export-mapped.csv',
    wire: 'team-members-hr-export-mapped.wire.json',
    args: ['--map', fixture('team-members-hr-export-mapped.map.json')],
  },
  { kind: 'team-members', file: 'team-members-multiline-quoted.csv', wire: 'team-members-multiline-quoted.wire.json' },
  { kind: 'team-members', file: 'team-members-mixed-keys.json', wire: 'team-members-mixed-keys.wire.json' },
  { kind: 'store-cards', file: 'store-cards-hours-pairs.csv', wire: 'store-cards-hours-pairs.wire.json' },
  { kind: 'store-cards', file: 'store-cards-hours-ranges.csv', wire: 'store-cards-hours-ranges.wire.json' },
  { kind: 'store-cards', file: 'store-cards-hours-json.csv', wire: 'store-cards-hours-json.wire.json' },
  // These files give some weekdays only: the others are declared closed (MISSING_DAYS otherwise).
  { kind: 'store-cards', file: 'store-cards-hours-overnight.csv', wire: 'store-cards-hours-overnight.wire.json', args: ['--closed-days', 'Mo-We'] },
  { kind: 'store-cards', file: 'store-cards-utf16be-pipe.csv', wire: 'store-cards-utf16be-pipe.wire.json', args: ['--closed-days', 'Tu-Fr,Su'] },
  { kind: 'store-cards', file: 'store-cards-mixed-layouts.ndjson', wire: 'store-cards-mixed-layouts.wire.json', args: ['--closed-days', 'We-Su'] },
];

/**
 * A real upload to a sandbox of its own (so tests can run side by side), with a fresh state
 * directory (so no earlier run's snapshot is a baseline); gives the run and what was stored. The
 * fixture is named by its full path, so the run is in-process (`-` reads `input`).
 */
async function upload(kind: Kind, file: string, args: readonly string[] = [], input?: string | Buffer) {
  const sb = await sandbox();
  try {
    const path = file === '-' ? file : resolve(FIXTURES, file);
    const run = await runCli([kind, path, '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...args], { env: sb.env, input });
    return { run, stored: await sb.stored(PATHS[kind]) };
  } finally {
    await sb.stop();
  }
}

describe.concurrent('each fixture uploads exactly its wire JSON', () => {
  it.each(CASES)('$file', async ({ kind, file, args, wire: expected }) => {
    const { run: r, stored } = await upload(kind, file, args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ outcome: 'uploaded', exitCode: 0, error: null });
    expect(r.json().issues.filter((i: { severity: string }) => i.severity === 'error')).toEqual([]);
    expect(stored).toEqual(wire(expected));
  });
});

describe.concurrent('standard input and --format', () => {
  it('reads an Excel CSV (BOM, semicolons, CRLF) from -', async () => {
    const { run: r, stored } = await upload('team-members', '-', [], readFileSync(join(FIXTURES, 'team-members-excel-semicolon-bom-crlf.csv')));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().source).toBe('stdin');
    expect(stored).toEqual(wire('team-members-excel-semicolon-bom-crlf.wire.json'));
  });

  it('reads a JSON array from - with --format json', async () => {
    const { run: r, stored } = await upload('team-members', '-', ['--format', 'json'], readFileSync(join(FIXTURES, 'team-members-mixed-keys.json')));
    expect(r.code, r.stderr).toBe(0);
    expect(stored).toEqual(wire('team-members-mixed-keys.wire.json'));
  });

  it('--format overrides the extension', async () => {
    const t = tempDir();
    const file = t.write('stores.txt', readFileSync(join(FIXTURES, 'store-cards-mixed-layouts.ndjson')));
    const { run: r, stored } = await upload('store-cards', file, ['--format', 'ndjson', '--closed-days', 'We-Su']);
    expect(r.code, r.stderr).toBe(0);
    expect(stored).toEqual(wire('store-cards-mixed-layouts.wire.json'));
  });

  it('--delimiter overrides detection, by name or character', async () => {
    const t = tempDir();
    // The header has more commas than pipes, so detection alone would choose the comma.
    const file = t.write('pipes.csv', 'employeeID|email|name|roleCode|parentKey|Notes, a, b, c\nE1|a@example.com|Smith, Ann|||x\n');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--delimiter', 'pipe']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().records).toBe(1);
    expect(r.json().issues.map((i: { code: string; column: string }) => [i.code, i.column])).toEqual([['UNKNOWN_COLUMN', 'Notes, a, b, c']]);
    const bad = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--delimiter', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.json().error).toMatchObject({ code: 'BAD_FLAG', message: expect.stringContaining('--delimiter') });
  });
});

describe.concurrent('the template', () => {
  it.each([
    [
      'store-cards',
      [
        {
          nodeKey: 'STORE-001',
          email: 'store001@example.com',
          storeConceptCode: 12,
          opentToGuestsPeriod: {
            '1': { since: 9, to: 21 },
            '2': { since: 9, to: 21 },
            '3': { since: 9, to: 21 },
            '4': { since: 9, to: 21 },
            '5': { since: 9, to: 23.5 },
            '6': { since: 10, to: 26 },
          },
        },
      ],
    ],
    ['team-members', [{ employeeID: 'E1001', email: 'jane.doe@example.com', name: 'Jane Doe', roleCode: '3', parentKey: 'STORE-001' }]],
  ] as const)('upload template %s is itself a valid upload', async (kind, expected) => {
    const t = await runCli(['template', kind]);
    expect(t.code).toBe(0);
    const header = t.stdout.split('\r\n')[0]!;
    if (kind === 'store-cards') expect(header).toBe('nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat');
    const file = tempDir().write(`${kind}.csv`, t.stdout);
    const { run: r, stored } = await upload(kind, file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().issues).toEqual([]);
    expect(stored).toEqual(expected);
  });

  it('refuses an unknown kind with exit 2', async () => {
    const r = await runCli(['template', 'stores']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('upload template store-cards');
  });
});

describe.concurrent('files that cannot be read are refused, naming the line (exit 3)', () => {
  const dry = (file: string, args: string[] = []) => runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', ...args], { cwd: FIXTURES });

  it('Windows-1252 without --encoding: says so and suggests the flag', async () => {
    const r = await dry('team-members-windows-1252.csv');
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({ code: 'NOT_UTF8' });
    expect(r.json().error.message).toMatch(/^team-members-windows-1252\.csv:2: the file is not UTF-8/);
    expect(r.json().error.hint).toContain('--encoding windows-1252');
  });

  it('an unknown --encoding label is a usage error', async () => {
    const r = await dry('team-members.csv', ['--encoding', 'klingon']);
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'BAD_FLAG', message: expect.stringContaining('--encoding') });
  });

  it('a forbidden column name (the other read failures are unit-tested in read.test.ts)', async () => {
    const t = tempDir();
    t.write('h.csv', 'employeeID,email,name,__proto__\nE1,a@example.com,A,x\n');
    const r = await runCli(['team-members', 'h.csv', '--dry-run', '--no-baseline', '--json'], { cwd: t.dir });
    expect(r.code, r.stderr).toBe(3);
    expect(r.json()).toMatchObject({ outcome: 'invalid', error: { code: 'FORBIDDEN_KEY', message: "h.csv:1: column name '__proto__' is not allowed" } });
  });
});

// Inputs that once slipped through or misled: each is now an error that says what to do, found by a
// dry run exactly as a real run would find it.
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
const dry = (kind: string, file: string, ...flags: string[]) => runCli([kind, file, '--dry-run', '--no-baseline', '--json', ...flags]);
const codes = (report: { issues: { severity: string; code: string }[] }) => report.issues.filter((i) => i.severity === 'error').map((i) => i.code);

describe.concurrent('input edge cases', () => {
  it('one weekday given by two columns is an error, never the last one silently winning', async () => {
    const file = t.write('two-mondays.csv', 'nodeKey,email,mon_since,mon_to,mon\nS1,a@example.com,9,22,closed\n');
    const r = await dry('store-cards', file);
    expect(r.code).toBe(3);
    expect(r.json().issues[0]).toMatchObject({ code: 'HOURS_TWICE', line: 1, column: 'mon' });
    expect(r.json().issues[0].message).toMatch(/Monday is given by both 'mon_since' and 'mon'/);
  });

  it('a value under a header cell with no name (a shifted row) is an error', async () => {
    const file = t.write('trailing.csv', 'employeeID;email;name;\nE1;a@example.com;Ann;Smith\nE2;b@example.com;Bob;\n');
    const r = await dry('team-members', file);
    expect(r.code).toBe(3);
    expect(r.json().issues).toEqual([expect.objectContaining({ code: 'CELL_WITHOUT_COLUMN', line: 2, value: 'Smith' })]);
  });

  it('a JSON number that cannot be kept exactly as an ID is an error; a whole number is sent as text', async () => {
    const file = t.write(
      'numbers.json',
      '[{"employeeID": 12345678901234567890, "email": "a@example.com", "name": "A"}, {"employeeID": 1.5, "email": "b@example.com", "name": "B"}, {"employeeID": 42, "email": "c@example.com", "name": "C"}]',
    );
    const r = await dry('team-members', file);
    expect(r.code).toBe(3);
    expect(r.json().issues.map((i: { code: string; line: number }) => [i.code, i.line])).toEqual([
      ['INEXACT_NUMBER', 1],
      ['INEXACT_NUMBER', 1],
    ]);
    expect(r.json().records).toBe(3);
  });

  it('an empty file is an error even with --allow-empty: a failed export must not read as "delete everything"', async () => {
    for (const [name, content] of [
      ['zero.csv', ''],
      ['bom-only.csv', '\ufeff'],
      ['zero.ndjson', ''],
    ] as const) {
      const r = await dry('team-members', t.write(name, content), '--allow-empty');
      expect(r.code, name).toBe(3);
      expect(codes(r.json()), name).toEqual(['EMPTY_FILE']);
    }
  });

  it('a header with no records still has its columns checked', async () => {
    const r = await dry('team-members', t.write('header-only.csv', 'Personalnummer,Mail\n'), '--allow-empty');
    expect(r.code).toBe(3);
    expect(codes(r.json())).toEqual(['MISSING_COLUMN']);
  });

  it('a range whose ends are the same time is an error suggesting 6-30 for around the clock', async () => {
    const r = await dry('store-cards', t.write('same-time.csv', 'nodeKey,email,mon\nS1,a@example.com,09:00-09:00\n'), '--closed-days', 'Tu-Su');
    expect(r.code).toBe(3);
    expect(r.json().issues[0]).toMatchObject({ code: 'INVALID_HOURS', line: 2, column: 'mon', value: '09:00-09:00' });
    expect(r.json().issues[0].message).toMatch(/6-30/);
  });

  it('an unknown --encoding is a usage error before the file is read', async () => {
    const r = await dry('team-members', 'no-such-file.csv', '--encoding', 'bogus-8');
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'BAD_FLAG', message: expect.stringContaining('--encoding') });
  });

  it('a wrong --delimiter: the missing-column error asks whether the delimiter is right', async () => {
    const r = await dry('team-members', fixture('team-members.csv'), '--delimiter', 'tab');
    expect(r.code).toBe(3);
    const missing = r.json().issues.find((i: { code: string }) => i.code === 'MISSING_COLUMN');
    expect(missing.message).toMatch(/is the delimiter right\? Drop --delimiter to detect it, or pass --delimiter ','/);
  });

  it('JSON piped in without --format is named as JSON read as CSV', async () => {
    const r = await runCli(['team-members', '-', '--dry-run', '--no-baseline', '--json'], {
      input: '[{"employeeID": "E1", "email": "a@example.com", "name": "A"}]',
    });
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({ code: 'WRONG_FORMAT', hint: expect.stringContaining('--format json') });
  });

  it('a row with fewer cells than the header is a warning naming the columns taken as empty', async () => {
    const r = await dry(
      'store-cards',
      t.write('short-row.csv', 'nodeKey,email,concept,mon,tue\nS1,s1@example.com,3,9-17,9-17\nS2,s2@example.com\n'),
      '--closed-days',
      'We-Su',
    );
    expect(r.code).toBe(0);
    expect(r.json().issues).toEqual([expect.objectContaining({ severity: 'warning', code: 'TOO_FEW_CELLS', line: 3 })]);
    expect(r.json().issues[0].message).toMatch(/concept, mon, tue are taken as empty/);
  });
});

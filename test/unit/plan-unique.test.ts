// Unique keys and emails in a plan, against a plain Map model: the key index keeps no strings (an
// email is recalled from its record's body, or kept when its record was rejected), so every way a
// duplicate can pair up is checked, including with records rejected for another reason.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/pipeline/plan.js';

interface Row {
  readonly id: string;
  readonly email: string;
  readonly name: string;
}

async function plan(rows: readonly Row[], keepRejected = false) {
  const text = ['employeeID,email,name', ...rows.map((r) => `${r.id},${r.email},${r.name}`)].join('\n') + '\n';
  return buildPlan({
    kind: 'team-members',
    path: '-',
    read: { source: 't.csv', format: 'csv' },
    mapping: {},
    stdin: () => Readable.from([Buffer.from(text)]),
    keepRejected,
  });
}

/** What the validator must find: the first line of each key and of each email (ignoring case). */
function model(rows: readonly Row[]): { issues: string[]; valid: string[]; rejected: number[] } {
  const keys = new Map<string, number>();
  const emails = new Map<string, number>();
  const issues: string[] = [];
  const valid: string[] = [];
  const rejected: number[] = [];
  rows.forEach((r, i) => {
    const line = i + 2;
    let ok = r.name !== '';
    const firstKey = keys.get(r.id);
    if (firstKey === undefined) keys.set(r.id, line);
    else {
      issues.push(`${line} DUPLICATE_KEY ${firstKey}`);
      ok = false;
    }
    const email = r.email.toLowerCase();
    const firstEmail = emails.get(email);
    if (firstEmail === undefined) emails.set(email, line);
    else {
      issues.push(`${line} DUPLICATE_EMAIL ${firstEmail}`);
      ok = false;
    }
    if (ok) valid.push(r.id);
    else rejected.push(line);
  });
  return { issues, valid, rejected };
}

describe('unique keys and emails', () => {
  it('finds every duplicate a Map would, with the line it first appeared on', async () => {
    const row = fc.record({
      id: fc.constantFrom('E1', 'E2', 'E3', 'E4'),
      email: fc.constantFrom('a@x.example', 'A@X.example', 'b@x.example', 'zoë@x.example', 'ZOË@x.example'),
      name: fc.constantFrom('Ann', ''), // an empty name rejects the record for another reason
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 12 }), fc.boolean(), async (rows, keepRejected) => {
        const result = await plan(rows, keepRejected);
        const found = result.issues
          .filter((i) => i.code.startsWith('DUPLICATE_'))
          .map((i) => `${i.line} ${i.code} ${/already appears on line (\d+)/.exec(i.message)![1]}`);
        const expected = model(rows);
        expect(found).toEqual(expected.issues);
        expect(result.keys).toEqual(expected.valid);
        expect(result.bodies.first(Infinity).map((b) => (JSON.parse(b) as { employeeID: string }).employeeID)).toEqual(expected.valid);
        // --errors-csv lists every rejected row, in file order, with each of its errors.
        expect(result.rejected.map((r) => r.raw.line)).toEqual(keepRejected ? expected.rejected : []);
        for (const { raw, issues } of result.rejected) {
          const own = result.issues.filter((i) => i.line === raw.line && i.severity === 'error').map((i) => i.code);
          expect(issues.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual(own);
        }
        // The issues are in line order.
        const lines = result.issues.map((i) => i.line ?? 0);
        expect(lines).toEqual([...lines].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });
});

describe('repeats in JSON records that bring their own columns', () => {
  it('names the column as the repeating record wrote it', async () => {
    const records = [
      { employeeID: 'E1', email: 'a@x.example', name: 'A' },
      { 'Employee ID': 'E2', 'E-mail': 'b@x.example', name: 'B' },
      { 'Employee ID': 'E1', 'E-mail': 'c@x.example', name: 'C' },
      { employeeID: 'E3', email: 'B@X.example', name: 'D' },
    ];
    const result = await buildPlan({
      kind: 'team-members',
      path: '-',
      read: { source: 't.json', format: 'json' },
      mapping: {},
      stdin: () => Readable.from([Buffer.from(JSON.stringify(records, null, 1))]),
    });
    const repeats = result.issues.filter((i) => i.code.startsWith('DUPLICATE_')).map((i) => [i.code, i.column, i.value]);
    expect(repeats).toEqual([
      ['DUPLICATE_KEY', 'Employee ID', 'E1'],
      ['DUPLICATE_EMAIL', 'email', 'B@X.example'],
    ]);
    expect(result.keys).toEqual(['E1', 'E2']);
  });
});

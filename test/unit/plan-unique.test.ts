// Unique keys and emails in a plan, against a plain Map model: the key index keeps no strings (an
// email is recalled from its record's body, or kept when its record was rejected), so every way a
// duplicate can pair up is checked, including with records rejected for another reason.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan.js';

interface Row {
  readonly id: string;
  readonly email: string;
  readonly name: string;
}

async function plan(rows: readonly Row[]) {
  const text = ['employeeID,email,name', ...rows.map((r) => `${r.id},${r.email},${r.name}`)].join('\n') + '\n';
  return buildPlan({
    kind: 'team-members',
    path: '-',
    read: { source: 't.csv', format: 'csv' },
    mapping: {},
    stdin: Readable.from([Buffer.from(text)]),
  });
}

/** What the validator must find: the first line of each key and of each email (ignoring case). */
function model(rows: readonly Row[]): { issues: string[]; valid: string[] } {
  const keys = new Map<string, number>();
  const emails = new Map<string, number>();
  const issues: string[] = [];
  const valid: string[] = [];
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
  });
  return { issues, valid };
}

describe('unique keys and emails', () => {
  it('finds every duplicate a Map would, with the line it first appeared on', async () => {
    const row = fc.record({
      id: fc.constantFrom('E1', 'E2', 'E3', 'E4'),
      email: fc.constantFrom('a@x.example', 'A@X.example', 'b@x.example', 'zoë@x.example', 'ZOË@x.example'),
      name: fc.constantFrom('Ann', ''), // an empty name rejects the record for another reason
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 12 }), async (rows) => {
        const result = await plan(rows);
        const found = result.issues
          .filter((i) => i.code.startsWith('DUPLICATE_'))
          .map((i) => `${i.line} ${i.code} ${/already appears on line (\d+)/.exec(i.message)![1]}`);
        const expected = model(rows);
        expect(found).toEqual(expected.issues);
        expect(result.keys).toEqual(expected.valid);
      }),
      { numRuns: 200 },
    );
  });
});

// What a notification says: counts, codes and keys; when it is sent.
import { describe, expect, it } from 'vitest';
import { notification, shouldNotify, type NotifiedReport, type RunFacts } from '../../src/notify/summary.js';
import { NO_BASELINE } from '../../src/report/report.js';

const report = (over: Partial<NotifiedReport> = {}): NotifiedReport => ({
  kind: 'team-members',
  source: 'staff.csv',
  dryRun: false,
  outcome: 'uploaded',
  exitCode: 0,
  records: 3,
  issues: [
    { severity: 'warning', code: 'FORMULA_LIKE', line: 2, column: 'name', field: 'name', value: '=Alice Smith', message: 'Alice Smith looks like a formula' },
  ],
  issueCounts: { FORMULA_LIKE: 1 },
  issuesTruncated: false,
  mapping: [],
  baseline: { ...NO_BASELINE, source: 'snapshot', user: 'alice', host: 'laptop' },
  diff: {
    baseline: 'snapshot',
    added: 1,
    removed: 0,
    changed: 1,
    unchanged: 1,
    examples: { added: ['E3'], removed: [], changed: [{ key: 'E2', changes: [{ field: 'name', before: 'Bob', after: 'Robert' }] }] },
  },
  unchanged: false,
  generation: 7,
  response: { status: 200, message: '3 team member(s) uploaded' },
  error: null,
  guards: null,
  ...over,
});
const facts: RunFacts = {
  command: 'team-members',
  operation: 'upload',
  argv: ['team-members', '/data/staff.csv', '--yes', '--target', 'production', '--hold-removals', '--notify', '***'],
  target: 'production',
  service: 'scheduling.example.com',
  host: 'sync-01',
  durationMs: 1234,
};

describe('a notification', () => {
  it('carries counts, codes and keys, and no name, email, message or value', () => {
    const n = notification(
      report({
        // Whatever text a guard carries (here an example value) stays out.
        guards: [
          {
            name: 'VALUES_EMPTIED',
            flag: '--max-emptied',
            setting: '5%',
            verdict: 'passed',
            count: 1,
            limit: 5,
            field: 'email',
            examples: [{ key: 'E2', before: 'bob@example.com' }],
          },
        ] as never,
        heldRemovals: ['E9', 'E10'],
        exitCode: 9,
      }),
      facts,
      new Date('2026-11-23T21:00:00Z'),
    );
    const text = JSON.stringify(n);
    for (const personal of ['Alice', 'Bob', 'Robert', 'bob@example.com', 'alice', 'laptop', 'formula']) expect(text).not.toContain(personal);
    expect(n).toMatchObject({
      kind: 'team-members',
      target: 'production',
      outcome: 'uploaded',
      counts: { records: 3, added: 1, removed: 0, changed: 1, unchanged: 1, issues: 1 },
      guards: [{ guard: 'VALUES_EMPTIED', verdict: 'passed', numbers: { count: 1, limit: 5 } }],
      verdict: 'held-removals',
      service: 'scheduling.example.com',
      heldRemovals: { count: 2, keys: ['E9', 'E10'], withheld: null },
      generation: 7,
      durationMs: 1234,
      host: 'sync-01',
      time: '2026-11-23T21:00:00.000Z',
    });
    expect(n.text).toBe(
      '⚠️ production (scheduling.example.com): team members full upload succeeded, 2 removals held back (exit 9) · 3 records, +1 −0 ~1 · 1 issues · upload #7 · ' +
        'next: upload release team-members --target production --dry-run · on sync-01, 1.2 s',
    );
    expect(n.text).not.toMatch(/❌|refused|failed|unknown/);
  });

  it('is sent on failure by default; on change or always when asked', () => {
    const cases: [string, Partial<NotifiedReport>, boolean, boolean, boolean][] = [
      ['uploaded, changed', { exitCode: 0, unchanged: false }, false, true, true],
      ['exit 8', { exitCode: 8, unchanged: false }, false, true, true],
      ['unchanged', { exitCode: 0, unchanged: true }, false, false, true],
      ['refused', { exitCode: 4, outcome: 'refused' }, true, true, true],
      ['held removals', { exitCode: 9 }, true, true, true],
      ['unreachable', { exitCode: 6, outcome: 'unreachable' }, true, true, true],
    ];
    for (const [, over, failure, change, always] of cases) {
      const r = report(over);
      expect([shouldNotify('failure', r), shouldNotify('change', r), shouldNotify('always', r)]).toEqual([failure, change, always]);
    }
  });
});

// The report's schema, shipped in docs/: itself valid (ajv strict), in step with docs/report.md, and
// strict enough to catch a key nobody added to it. Every report the other tests read is checked
// against it too (test/helpers/report-schema.ts), one for each outcome.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assembleReport } from '../../src/report/assemble.js';
import { REPORT_SCHEMA, reportProblems } from '../helpers/report-schema.js';

const reportDoc = readFileSync(new URL('../../docs/report.md', import.meta.url), 'utf8');
const properties = REPORT_SCHEMA.properties as Record<string, { enum?: unknown[] }>;

/** The report of a run that stopped before reading anything. */
const emptyReport = (kind: 'store-cards' | 'team-members' | null, source: string | null, dryRun: boolean) =>
  assembleReport(
    { kind, source, dryRun },
    { outcome: 'usage-error', exitCode: 2, error: { code: 'BAD_USAGE', message: 'm', hint: null, fixes: [], service: null } },
  );

describe('the --json report schema', () => {
  it('accepts the report a run starts from', () => {
    expect(reportProblems(emptyReport('team-members', 'staff.csv', true))).toEqual([]);
  });

  it('refuses a key it does not name, and says where to add it', () => {
    const problems = reportProblems({ ...emptyReport(null, null, false), guardz: [] });
    expect(problems).toEqual([expect.stringContaining("key 'guardz' is not in docs/report.schema.json")]);
  });

  it('refuses a wrong type or value deep inside', () => {
    const report = { ...emptyReport('store-cards', 'x.csv', false), outcome: 'done', error: { code: 'lower case', message: 'm', hint: null } };
    expect(reportProblems(report).join('\n')).toMatch(/\/outcome[\s\S]*\/error\/code/);
  });

  it('names every key docs/report.md describes, and no other', () => {
    const documented = [...reportDoc.matchAll(/^\| `(\w+)` \| /gm)].map((m) => m[1]);
    const keys = Object.keys(properties);
    expect(keys.filter((k) => !documented.includes(k))).toEqual([]);
    expect(REPORT_SCHEMA.required).toEqual(keys);
  });

  it('lists every outcome and exit code docs/report.md names', () => {
    for (const outcome of properties.outcome!.enum!) expect(reportDoc).toContain(`\`${String(outcome)}\``);
    const codes = [...reportDoc.matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
    expect([...properties.exitCode!.enum!].sort((a, b) => Number(a) - Number(b))).toEqual([...new Set(codes)].sort((a, b) => a - b));
  });
});

// The review page as a pure renderer: escaping, the policy's hashes, the week grid and the rows.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { changeRows } from '../../src/render/html/changes.js';
import { esc, scriptJson } from '../../src/render/html/escape.js';
import { reviewPage, STATIC_ROWS } from '../../src/render/html/review.js';
import { gridLine, weekGrid } from '../../src/render/html/week.js';
import type { GuardCheck } from '../../src/guard/index.js';
import { NO_BASELINE, type UploadReport } from '../../src/report/report.js';

const report = (over: Partial<UploadReport> = {}): UploadReport => ({
  kind: 'store-cards',
  source: 'stores.csv',
  dryRun: true,
  outcome: 'dry-run',
  exitCode: 0,
  records: 0,
  issues: [],
  issueCounts: {},
  issuesTruncated: false,
  mapping: [],
  baseline: NO_BASELINE,
  diff: null,
  unchanged: null,
  generation: null,
  response: null,
  error: null,
  guards: null,
  ...over,
});
const provenance = { command: 'upload store-cards stores.csv', generatedAt: '2026-11-23T20:00:00.000Z', baseUrl: null, target: null, sha256: null, plan: null };
const store = (key: string, hours: Record<string, { since: number; to: number }>, email = `${key}@example.com`) =>
  JSON.stringify({ nodeKey: key, email, storeConceptCode: null, opentToGuestsPeriod: hours });

describe('escaping', () => {
  it('turns markup into text', () => {
    expect(esc('<script>alert("x")</script> & \'')).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;');
    expect(esc(null)).toBe('');
    expect(esc(12)).toBe('12');
  });
  it('keeps </script> from ending a JSON data block, and reads back unchanged', () => {
    const value = ['</script><script>alert(1)</script>', '<!--'];
    const text = scriptJson(value);
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('the page', () => {
  it('allows exactly its own style and script, by their sha256', () => {
    const html = reviewPage({ report: report(), records: undefined, provenance });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const sha = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src ${sha(style)}`);
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).not.toContain('unsafe');
    expect(html).not.toMatch(/ style="/);
  });

  it('lists the first rows as markup and every row as data, for a large upload', () => {
    const n = STATIC_ROWS + 500;
    const keys = Array.from({ length: n }, (_, i) => `S${i}`);
    const bodies = keys.map((k) => store(k, { '1': { since: 9, to: 21 } }));
    const html = reviewPage({ report: report(), records: { kind: 'store-cards', baseline: new Map(), keys, bodies }, provenance });
    expect(html.match(/<tr data-change="added"/g)).toHaveLength(STATIC_ROWS);
    const data = JSON.parse(/<script type="application\/json" id="changes-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as unknown[];
    expect(data).toHaveLength(n);
    expect(html).toContain(`The first ${STATIC_ROWS.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} changes are listed here`);
  });
});

describe('the guards', () => {
  it("show each verdict with its numbers, whatever the report's guards carry", () => {
    const guards = [
      { name: 'TOO_MANY_REMOVALS', flag: '--max-removals', setting: '10%', count: 12, limit: 10, verdict: 'refused' },
      {
        name: 'VALUES_EMPTIED',
        flag: '--max-emptied',
        setting: '5%',
        count: 1,
        limit: 3,
        verdict: 'passed',
        field: 'email',
        fields: [{ field: 'email', count: 1, held: 60, limit: 3 }],
      },
      { name: 'EMPTY_UPLOAD', flag: '--allow-empty', setting: false, count: null, limit: null, verdict: 'not-applied', why: '<no baseline>' },
    ];
    const html = reviewPage({ report: { ...report(), guards: guards as unknown as GuardCheck[] }, records: undefined, provenance });
    expect(html).toContain('<tr data-guard="TOO_MANY_REMOVALS"><td><code>TOO_MANY_REMOVALS</code></td><td class="verdict-refused">refused</td>');
    expect(html).toContain('<td class="verdict-ok">passed</td>');
    expect(html).toContain('<code>--max-removals</code> 10% · 12 counted, at most 10 allowed');
    expect(html).toContain('1 counted, at most 3 allowed (in email, <code>email</code>) · per field: email (<code>email</code>) count 1, held 60, limit 3');
    expect(html).toContain('<code>--allow-empty</code> not given · &lt;no baseline&gt;');
  });
});

describe('the week grid', () => {
  it('runs from 06:00 to 06:00 the next morning in quarter hours', () => {
    expect(gridLine(6)).toBe(1);
    expect(gridLine(9.5)).toBe(15);
    expect(gridLine(24)).toBe(73);
    expect(gridLine(26.5)).toBe(83);
    expect(gridLine(30)).toBe(97);
  });
  it('draws past midnight, closed days and the days that differ', () => {
    const html = weekGrid(
      'S1',
      'changed',
      { '5': { since: 9, to: 22 }, '6': { since: 10, to: 18 } },
      { '5': { since: 18, to: 26.5 }, '0': { since: 12, to: 16 } },
    );
    expect(html).toContain('class="bar gs-49 ge-83"');
    expect(html).toContain('<del>09:00–22:00</del> → <ins>18:00–02:30 (next day)</ins>');
    expect(html).toContain('<del>10:00–18:00</del> → <ins>closed</ins>');
    expect(html.match(/class="day differs"/g)).toHaveLength(3);
    expect(html.match(/<span class="closed">closed<\/span>/g)!.length).toBeGreaterThanOrEqual(4);
  });
});

describe('the change rows', () => {
  it('are added and changed in file order, then removed, with hours split by day', () => {
    const baseline = new Map([
      ['A', store('A', { '1': { since: 9, to: 21 } })],
      ['B', store('B', {})],
      ['C', store('C', {})],
    ]);
    const rows = changeRows({
      kind: 'store-cards',
      baseline,
      keys: ['N', 'A', 'C'],
      bodies: [store('N', {}), store('A', { '1': { since: 9, to: 22 } }, 'new@example.com'), store('C', {})],
    });
    expect(rows.map((r) => [r.change, r.key])).toEqual([
      ['added', 'N'],
      ['changed', 'A'],
      ['removed', 'B'],
    ]);
    expect(rows[1]!.fields).toEqual([
      { field: 'email', before: 'A@example.com', after: 'new@example.com' },
      { field: 'Monday opening hours', before: '09:00–21:00', after: '09:00–22:00' },
    ]);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffRecords, fieldChanges, noBaseline } from '../../src/diff/index.js';
import { loadBaseline } from '../../src/engine/baseline.js';
import { DirectoryStore } from '../../src/state/dir.js';
import { formatDiff, formatDiffCounts } from '../../src/report/human.js';
import { tempDir } from '../helpers/tmp.js';

const tm = (id: string, name = `Name ${id}`) =>
  JSON.stringify({ employeeID: id, email: `${id.toLowerCase()}@example.com`, name, roleCode: null, parentKey: null });

describe('diffRecords', () => {
  const baseline = new Map(['E1', 'E2', 'E3', 'E4'].map((k) => [k, tm(k)]));
  const keys = ['E1', 'E2', 'E5', 'E6', 'E7'];
  const bodies = [tm('E1'), tm('E2', 'Renamed'), tm('E5'), tm('E6'), tm('E7')];
  const diff = diffRecords(baseline, 'snapshot', keys, bodies);

  it('counts added, removed, changed and unchanged by key', () => {
    expect(diff).toMatchObject({ baseline: 'snapshot', added: 3, removed: 2, changed: 1, unchanged: 1, baselineCount: 4 });
    expect(diff.examples.added).toEqual(['E5', 'E6', 'E7']);
    expect(diff.examples.removed).toEqual(['E3', 'E4']);
    expect(diff.examples.changed).toEqual([{ key: 'E2', changes: [{ field: 'name', before: 'Name E2', after: 'Renamed' }] }]);
  });

  it('keeps only a few examples of each', () => {
    const many = Array.from({ length: 20 }, (_, i) => `N${i}`);
    const d = diffRecords(
      baseline,
      'file',
      many,
      many.map((k) => tm(k)),
    );
    expect(d.added).toBe(20);
    expect(d.examples.added).toHaveLength(5);
    expect(d.examples.removed).toHaveLength(4);
  });

  it('renders the counts and the examples for people', () => {
    expect(formatDiffCounts(diff)).toBe('+3 −2 ~1 =1');
    const lines = formatDiff(diff);
    expect(lines[0]).toBe('Changes against the last upload: +3 −2 ~1 =1 (added, removed, changed, unchanged)');
    expect(lines).toContain('  removed: E3, E4');
    expect(lines).toContain('  changed E2: name "Name E2" → "Renamed"');
    expect(formatDiff(noBaseline())).toEqual(['Changes: no baseline to compare with']);
  });

  it('reports field changes both ways, a missing field as null', () => {
    expect(fieldChanges('{"a":1,"b":{"x":1}}', '{"a":1,"b":{"x":2},"c":3}')).toEqual([
      { field: 'b', before: { x: 1 }, after: { x: 2 } },
      { field: 'c', before: null, after: 3 },
    ]);
  });
});

describe('loadBaseline', () => {
  it('reads --baseline in any input format through the same stages as the upload', async () => {
    const t = tempDir();
    const csv = t.write('old.csv', 'Employee ID,E-mail,Full Name,Role,Store\nE1,e1@example.com,Name E1,,\n');
    const { baseline } = await loadBaseline({ kind: 'team-members', file: csv, input: 'new.csv', mapping: {} });
    expect(baseline).toEqual({ source: 'file', records: new Map([['E1', tm('E1')]]) });
    const ndjson = t.write('old.ndjson', `${tm('E2')}\n`);
    expect(
      (await loadBaseline({ kind: 'team-members', file: ndjson, input: 'new.csv', mapping: { fields: { name: ['Mitarbeiter'] } } })).baseline?.records,
    ).toEqual(new Map([['E2', tm('E2')]]));
  });

  it('refuses a --baseline file with errors, naming the first', async () => {
    const csv = tempDir().write('old.csv', 'employeeID,email,name\nE1,not-an-email,A\n');
    await expect(loadBaseline({ kind: 'team-members', file: csv, input: 'new.csv', mapping: {} })).rejects.toMatchObject({
      code: 'BASELINE_INVALID',
      message: expect.stringContaining(`${csv}:2`),
    });
  });

  it('says plainly why there is no baseline', async () => {
    expect((await loadBaseline({ kind: 'store-cards', input: 'x.csv', mapping: {} })).why).toMatch(/no base URL/);
    const store = await DirectoryStore.open(join(tempDir().dir, 'state'));
    const none = await loadBaseline({
      kind: 'store-cards',
      input: 'x.csv',
      mapping: {},
      state: { store, key: { baseUrl: 'https://s.example.com', kind: 'store-cards' } },
    });
    expect(none.baseline).toBeUndefined();
    expect(none.against.source).toBe('none');
    expect(none.why).toBe(`no upload of store cards to https://s.example.com is recorded in ${store.label}`);
  });
});

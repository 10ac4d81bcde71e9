import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodePayload } from '../../src/contract/json-array.js';
import { diffRecords, fieldChanges, noBaseline } from '../../src/diff/index.js';
import { loadBaseline } from '../../src/load.js';
import { readSnapshot, writeSnapshot } from '../../src/record/snapshot.js';
import { formatDiff, formatDiffCounts } from '../../src/report/human.js';
import { tempDir } from '../helpers/tmp.js';

const tm = (id: string, name = `Name ${id}`) => JSON.stringify({ employeeID: id, email: `${id.toLowerCase()}@example.com`, name, roleCode: null, parentKey: null });

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
    const d = diffRecords(baseline, 'file', many, many.map((k) => tm(k)));
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
    expect(formatDiff(noBaseline(3))).toEqual(['Changes: no baseline to compare with']);
  });

  it('reports field changes both ways, a missing field as null', () => {
    expect(fieldChanges('{"a":1,"b":{"x":1}}', '{"a":1,"b":{"x":2},"c":3}')).toEqual([
      { field: 'b', before: { x: 1 }, after: { x: 2 } },
      { field: 'c', before: null, after: 3 },
    ]);
  });
});

describe('the snapshot', () => {
  it('is written byte for byte as sent and read back as canonical JSON by key', async () => {
    const { dir } = tempDir();
    const path = join(dir, 'snapshots', 'site.team-members.json');
    await writeSnapshot(path, encodePayload([tm('E1'), tm('E2')]).chunks);
    expect(await readSnapshot(path, 'team-members')).toEqual(new Map([['E1', tm('E1')], ['E2', tm('E2')]]));
    // Whitespace does not matter: a pretty-printed copy reads the same.
    writeFileSync(path, JSON.stringify([JSON.parse(tm('E1'))], null, 2));
    expect(await readSnapshot(path, 'team-members')).toEqual(new Map([['E1', tm('E1')]]));
  });

  it('clears temp files a killed writer left behind', async () => {
    const t = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    t.write(`.snap.json.${dead}.0a1b2c3d.tmp`, '[{"employeeID":"E1"');
    const other = t.write('.other.json.1.0a1b2c3d.tmp', 'not ours');
    await writeSnapshot(join(t.dir, 'snap.json'), encodePayload([tm('E1')]).chunks);
    expect(readdirSync(t.dir).sort()).toEqual([basename(other), 'snap.json']);
  });

  it('is undefined when there is none', async () => {
    expect(await readSnapshot(join(tempDir().dir, 'nope.json'), 'team-members')).toBeUndefined();
  });

  it.each([
    ['truncated', `[${tm('E1')},{"employeeID":"E2"`, /damaged.*not closed/],
    ['not an array', '{"employeeID":"E1"}', /damaged/],
    ['a record without its key', '[{"nodeKey":"S1"}]', /damaged.*no employeeID/],
    ['a key twice', `[${tm('E1')},${tm('E1')}]`, /damaged.*'E1' appears twice/],
    ['empty', '', /damaged.*empty/],
  ])('is a clear error when %s', async (_, text, message) => {
    const t = tempDir();
    const path = t.write('snap.json', text);
    const err = await readSnapshot(path, 'team-members').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SNAPSHOT_CORRUPT', exitCode: 4 });
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toContain(path);
    expect((err as { hint: string }).hint).toContain('--baseline FILE');
  });
});

describe('loadBaseline', () => {
  it('reads --baseline in any input format through the same stages as the upload', async () => {
    const t = tempDir();
    const csv = t.write('old.csv', 'Employee ID,E-mail,Full Name,Role,Store\nE1,e1@example.com,Name E1,,\n');
    const { baseline } = await loadBaseline({ kind: 'team-members', file: csv, input: 'new.csv', mapping: {} });
    expect(baseline).toEqual({ source: 'file', records: new Map([['E1', tm('E1')]]) });
    const ndjson = t.write('old.ndjson', `${tm('E2')}\n`);
    expect((await loadBaseline({ kind: 'team-members', file: ndjson, input: 'new.csv', mapping: { name: 'Mitarbeiter' } })).baseline?.records).toEqual(new Map([['E2', tm('E2')]]));
  });

  it('refuses a --baseline file with errors, naming the first', async () => {
    const csv = tempDir().write('old.csv', 'employeeID,email,name\nE1,not-an-email,A\n');
    await expect(loadBaseline({ kind: 'team-members', file: csv, input: 'new.csv', mapping: {} })).rejects.toMatchObject({ code: 'BASELINE_INVALID', message: expect.stringContaining(`${csv}:2`) });
  });

  it('says plainly why there is no baseline', async () => {
    expect((await loadBaseline({ kind: 'store-cards', input: 'x.csv', mapping: {} })).why).toMatch(/no base URL/);
    const snapshot = join(tempDir().dir, 'none.json');
    const none = await loadBaseline({ kind: 'store-cards', input: 'x.csv', mapping: {}, snapshot });
    expect(none.baseline).toBeUndefined();
    expect(none.why).toContain(snapshot);
  });
});

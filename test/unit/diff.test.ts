import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bodies } from '../../src/contract/json-array.js';
import { ADDED, CHANGED, diffRecords, fieldChanges, noBaseline, UNCHANGED } from '../../src/diff/index.js';
import { RecordsByKey } from '../../src/diff/records.js';
import { decodeCanonical } from '../../src/diff/snapshot.js';
import { loadBaseline } from '../../src/pipeline/baseline.js';
import { fnv1a } from '../../src/validate/key-index.js';
import { DirectoryStore } from '../../src/state/dir.js';
import { formatDiff, formatDiffCounts } from '../../src/render/human.js';
import { tempDir } from '../helpers/tmp.js';

const tm = (id: string, name = `Name ${id}`) =>
  JSON.stringify({ employeeID: id, email: `${id.toLowerCase()}@example.com`, name, roleCode: null, parentKey: null });

describe('diffRecords', () => {
  const baseline = RecordsByKey.index(Bodies.of(['E1', 'E2', 'E3', 'E4'].map((k) => tm(k))), 'employeeID')!;
  const keys = ['E1', 'E2', 'E5', 'E6', 'E7'];
  const bodies = Bodies.of([tm('E1'), tm('E2', 'Renamed'), tm('E5'), tm('E6'), tm('E7')]);
  const diff = diffRecords(baseline, 'snapshot', keys, bodies);

  it('counts added, removed, changed and unchanged by key', () => {
    expect(diff).toMatchObject({ baseline: 'snapshot', added: 3, removed: 2, changed: 1, unchanged: 1, baselineCount: 4 });
    expect(diff.examples.added).toEqual(['E5', 'E6', 'E7']);
    expect(diff.examples.removed).toEqual(['E3', 'E4']);
    expect(diff.examples.changed).toEqual([{ key: 'E2', changes: [{ field: 'name', before: 'Name E2', after: 'Renamed' }] }]);
  });

  it('agrees with comparing texts in a Map, for any keys and values (property)', () => {
    // Keys of any code units (escapes, non-ASCII, lone surrogates), so both the byte path and the decoded path are taken.
    const text = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 6 });
    const entry = fc.tuple(fc.oneof(text, fc.constantFrom('E1', 'E2', 'Zoë', 'a"b', 'c\\d')), fc.constantFrom('x', 'y', 'ü'));
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => e[0] }), fc.uniqueArray(entry, { selector: (e) => e[0] }), (before, after) => {
        const json = ([key, name]: [string, string]) => JSON.stringify({ employeeID: key, name });
        const base = RecordsByKey.index(Bodies.of(before.map(json)), 'employeeID')!;
        const afterKeys = after.map((e) => e[0]);
        const d = diffRecords(base, 'snapshot', afterKeys, Bodies.of(after.map(json)));
        const model = new Map(before.map((e) => [e[0], json(e)]));
        const changed = after.filter((e) => model.has(e[0]) && model.get(e[0]) !== json(e));
        expect(d.added).toBe(after.filter((e) => !model.has(e[0])).length);
        expect(d.changed).toBe(changed.length);
        expect(d.unchanged).toBe(after.filter((e) => model.get(e[0]) === json(e)).length);
        expect(d.removed).toBe(before.filter((e) => !afterKeys.includes(e[0])).length);
        expect(new Map(base)).toEqual(model);
        for (const [key] of before) expect(base.has(key)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the Map when long runs are in step, across chunks, with edits anywhere (property)', () => {
    // Hundreds of records, long enough that the plan's bodies span several 256 KiB chunks, walked in
    // step with the baseline and found by key after each edit; `retype` keeps a record's length.
    const json = (key: string, name: string) => JSON.stringify({ employeeID: key, name });
    const edit = fc.record({ at: fc.nat(), what: fc.constantFrom('change', 'retype', 'remove', 'insert', 'move', 'lengthen') });
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 700 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.array(edit, { maxLength: 12 }),
        fc.boolean(),
        (size, width, edits, snapshot) => {
          const before = Array.from({ length: size }, (_, i): [string, string] => [`E${i}`, `${'n'.repeat(width)}${i}`]);
          const after = before.map((e): [string, string] => [...e]);
          edits.forEach(({ at, what }, n) => {
            const i = at % after.length;
            if (what === 'change') after[i]![1] = `changed ${n}`;
            else if (what === 'lengthen') after[i]![1] += 'x';
            else if (what === 'retype')
              after[i]![1] = `m${after[i]![1].slice(1)}`; // same length, other bytes
            else if (what === 'remove' && after.length > 1) after.splice(i, 1);
            else if (what === 'insert') after.splice(i, 0, [`N${n}`, 'new']);
            else if (what === 'move') after.unshift(...after.splice(i, 1));
          });
          // The baseline as a plan's chunks (a --baseline file) or as one snapshot read back whole.
          const jsons = before.map(([k, v]) => json(k, v));
          const base = snapshot ? decodeCanonical(Buffer.from(`[${jsons.join(',')}]`), 'employeeID')! : RecordsByKey.index(Bodies.of(jsons), 'employeeID')!;
          const d = diffRecords(
            base,
            'snapshot',
            after.map(([k]) => k),
            Bodies.of(after.map(([k, v]) => json(k, v))),
          );
          const model = new Map(before.map(([k, v]) => [k, json(k, v)]));
          const status = after.map(([k, v]) => (!model.has(k) ? ADDED : model.get(k) === json(k, v) ? UNCHANGED : CHANGED));
          expect([...d.status]).toEqual(status);
          expect(d.unchanged).toBe(status.filter((x) => x === UNCHANGED).length);
          expect(d.removed).toBe(before.filter(([k]) => !after.some(([a]) => a === k)).length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tells keys with equal hashes apart, through many doublings of the index', () => {
    // Pairs of real keys that share a 32-bit FNV-1a hash (found by a search over E0…E3000000).
    const colliding = [
      ['E558385', 'E1501100'],
      ['E558384', 'E1501101'],
      ['E558387', 'E1501102'],
    ];
    for (const [a, b] of colliding) expect(fnv1a(a!)).toBe(fnv1a(b!));
    const keys = [...Array.from({ length: 100_000 }, (_, i) => `K${i}`), ...colliding.flat()];
    const base = RecordsByKey.index(Bodies.of(keys.map((k) => tm(k))), 'employeeID')!;
    expect(keys.filter((key, i) => base.find(key) !== i)).toEqual([]);
    for (const key of colliding.flat()) expect(base.get(key)).toBe(tm(key));
    expect(base.find('E558386')).toBe(-1);
    // A key given twice (never in a body this tool wrote): the first is found.
    const twice = RecordsByKey.index(Bodies.of([tm('E558385'), tm('E1501100'), tm('E558385', 'Again')]), 'employeeID')!;
    expect(twice.get('E558385')).toBe(tm('E558385'));
  });

  it('walks a baseline in the same order in step, and finds the rest by key', () => {
    const before = Array.from({ length: 50 }, (_, i) => `E${i}`);
    // The same order with E3 removed, N1 inserted, E10 changed, and E40 moved to the front.
    const after = ['E40', ...before.filter((k) => k !== 'E3' && k !== 'E40').flatMap((k) => (k === 'E20' ? ['N1', k] : [k]))];
    const base = RecordsByKey.index(Bodies.of(before.map((k) => tm(k))), 'employeeID')!;
    const d = diffRecords(base, 'snapshot', after, Bodies.of(after.map((k) => tm(k, k === 'E10' ? 'New' : `Name ${k}`))));
    expect(d).toMatchObject({ added: 1, removed: 1, changed: 1, unchanged: 48 });
    expect(d.examples).toMatchObject({ added: ['N1'], removed: ['E3'], changed: [{ key: 'E10' }] });
  });

  it('keeps only a few examples of each', () => {
    const many = Array.from({ length: 20 }, (_, i) => `N${i}`);
    const d = diffRecords(baseline, 'file', many, Bodies.of(many.map((k) => tm(k))));
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
    expect(baseline?.source).toBe('file');
    expect(new Map(baseline?.records)).toEqual(new Map([['E1', tm('E1')]]));
    const ndjson = t.write('old.ndjson', `${tm('E2')}\n`);
    expect(
      new Map((await loadBaseline({ kind: 'team-members', file: ndjson, input: 'new.csv', mapping: { fields: { name: ['Mitarbeiter'] } } })).baseline?.records),
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

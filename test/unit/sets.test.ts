// The planned set of a merge, a removal and a held-back removal, built from the recorded set.
import { describe, expect, it } from 'vitest';
import { Bodies } from '../../src/contract/json-array.js';
import { diffRecords } from '../../src/diff/index.js';
import { RecordsByKey } from '../../src/diff/records.js';
import { holdRemovals, mergeSets, removeKeys } from '../../src/sets/index.js';
import { keyList } from '../../src/sets/keys.js';

const rec = (key: string, name = `Name ${key}`) => JSON.stringify({ employeeID: key, name });
const recorded = new Map(['E1', 'E2', 'E3', 'E4'].map((k) => [k, rec(k)]));
const set = (...records: [string, string][]) => ({ keys: records.map(([k]) => k), bodies: records.map(([, b]) => b) });

describe('mergeSets', () => {
  it('replaces by key where the record stands, adds new keys at the end, keeps every other record', () => {
    const merged = mergeSets(recorded, set(['E9', rec('E9')], ['E2', rec('E2', 'Renamed')], ['E8', rec('E8')]));
    expect(merged.keys).toEqual(['E1', 'E2', 'E3', 'E4', 'E9', 'E8']);
    expect(merged.bodies[1]).toBe(rec('E2', 'Renamed'));
    expect(merged.bodies[0]).toBe(rec('E1'));
    expect(diffRecords(RecordsByKey.index(Bodies.of(recorded.values()), 'employeeID')!, 'snapshot', merged.keys, Bodies.of(merged.bodies))).toMatchObject({
      added: 2,
      changed: 1,
      removed: 0,
      unchanged: 3,
    });
  });

  it('of the untouched records is the recorded set itself', () => {
    const same = mergeSets(recorded, set(['E3', rec('E3')]));
    expect(same).toEqual({ keys: [...recorded.keys()], bodies: [...recorded.values()] });
  });
});

describe('removeKeys', () => {
  it('leaves out the keys, keeping the order of the rest', () => {
    const r = removeKeys(recorded, ['E3', 'E1']);
    expect(r).toEqual({ keys: ['E2', 'E4'], bodies: [rec('E2'), rec('E4')], unknown: [] });
  });

  it('names the keys the recorded set does not hold', () => {
    expect(removeKeys(recorded, ['E3', 'E7', 'e1']).unknown).toEqual(['E7', 'e1']);
  });
});

describe('holdRemovals', () => {
  it('adds back every recorded record the plan leaves out, after the planned ones', () => {
    const planned = set(['E1', rec('E1')], ['E5', rec('E5')], ['E2', rec('E2', 'Renamed')]);
    const r = holdRemovals(recorded, planned);
    expect(r.held).toEqual(['E3', 'E4']);
    expect(r.keys).toEqual(['E1', 'E5', 'E2', 'E3', 'E4']);
    expect(r.bodies.slice(3)).toEqual([rec('E3'), rec('E4')]);
    // Additions and changes still go through; nothing is removed.
    expect(diffRecords(RecordsByKey.index(Bodies.of(recorded.values()), 'employeeID')!, 'snapshot', r.keys, Bodies.of(r.bodies))).toMatchObject({
      added: 1,
      changed: 1,
      removed: 0,
      unchanged: 3,
    });
  });

  it('holds nothing when the plan omits nothing', () => {
    const all = set(...[...recorded].map(([k, b]) => [k, b] as [string, string]));
    expect(holdRemovals(recorded, all).held).toEqual([]);
  });
});

describe('keyList', () => {
  it('takes keys from the command line and one per line of a file, trimmed, blank lines skipped, each once', () => {
    expect(keyList(['E1', ' E2 '], '\uFEFFE3\r\n\r\nE1\n  E4\n')).toEqual(['E1', 'E2', 'E3', 'E4']);
    expect(keyList([], '\n \n')).toEqual([]);
  });
});

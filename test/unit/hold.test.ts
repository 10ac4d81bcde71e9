// --hold-removals in the one judge step: held only when the removal guard would refuse, and then the
// set that would be sent is judged again, in full.
import { describe, expect, it } from 'vitest';
import { Bodies } from '../../src/contract/json-array.js';
import { analyseChanges } from '../../src/diff/changed.js';
import { RecordsByKey } from '../../src/diff/records.js';
import { diffRecords } from '../../src/diff/index.js';
import type { GuardInput } from '../../src/guard/index.js';
import { judgeHolding } from '../../src/sets/hold.js';

const rec = (k: string, name = `N ${k}`) => JSON.stringify({ employeeID: k, email: `${k}@example.com`, name, roleCode: null, parentKey: null });
const recorded = RecordsByKey.index(Bodies.of(Array.from({ length: 20 }, (_, i) => rec(`E${i}`))), 'employeeID')!;

function input(keys: string[], bodies: string[], over: Partial<GuardInput> = {}): GuardInput {
  const diff = diffRecords(recorded, 'snapshot', keys, Bodies.of(bodies));
  return {
    kind: 'team-members',
    source: 'nightly.csv',
    count: keys.length,
    diff,
    changes: analyseChanges('team-members', recorded, keys, Bodies.of(bodies), diff),
    limits: {
      maxRemovals: { kind: 'percent', percent: 10 },
      maxChanges: { kind: 'percent', percent: 25 },
      maxEmptied: { kind: 'percent', percent: 5 },
      allowEmpty: false,
    },
    acknowledgeNoBaseline: false,
    has: { token: true, tokenEnv: 'UPLOAD_TOKEN', baseUrl: true, confirmation: true },
    ...over,
  };
}

describe('judgeHolding', () => {
  const keys = [...Array.from({ length: 15 }, (_, i) => `E${i}`), 'E20', 'E21'];
  const bodies = keys.map((k) => rec(k));

  it('holds every omitted record when the removal guard would refuse, and the rest goes through', () => {
    const judged = judgeHolding(input(keys, bodies), { keys, bodies }, { recorded });
    expect(judged.verdict.refusal).toBeUndefined();
    expect(judged.held).toEqual(['E15', 'E16', 'E17', 'E18', 'E19']);
    expect(judged.diff).toMatchObject({ added: 2, removed: 0, changed: 0, unchanged: 20 });
    expect(judged.planned.keys).toHaveLength(22);
  });

  it('holds nothing without the flag, or when the removals are within the limit', () => {
    expect(judgeHolding(input(keys, bodies), { keys, bodies }, undefined)).toMatchObject({ held: [], verdict: { refusal: { code: 'TOO_MANY_REMOVALS' } } });
    const most = keys.filter((k) => k !== 'E14' && k !== 'E13');
    const within = [...most, 'E15', 'E16', 'E17', 'E18', 'E19'];
    const judged = judgeHolding(
      input(
        within,
        within.map((k) => rec(k)),
      ),
      { keys: within, bodies: within.map((k) => rec(k)) },
      { recorded },
    );
    expect(judged).toMatchObject({ held: [], verdict: { refusal: undefined }, diff: { removed: 2 } });
  });

  it('judges the held set again in full: a file read wrongly is still refused by the change guard', () => {
    const renamed = bodies.map((b, i) => (i < 10 ? rec(keys[i]!, 'Wrong') : b));
    const judged = judgeHolding(input(keys, renamed), { keys, bodies: renamed }, { recorded });
    expect(judged.held).toHaveLength(5);
    expect(judged.diff).toMatchObject({ removed: 0, changed: 10 });
    expect(judged.verdict.refusal?.code).toBe('TOO_MANY_CHANGES');
  });

  it('leaves every other refusal standing: an empty file is still refused', () => {
    const judged = judgeHolding(input([], []), { keys: [], bodies: [] }, { recorded });
    expect(judged.verdict.refusal?.code).toBe('EMPTY_UPLOAD');
    expect(judged.held).toEqual([]);
  });
});

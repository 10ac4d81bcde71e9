// The field analysis of what changed records change, and the two guards that judge it.
import { describe, expect, it } from 'vitest';
import { analyseChanges } from '../../src/diff/changed.js';
import { lossFields, tallyChanges } from '../../src/diff/fields.js';
import { Bodies } from '../../src/contract/json-array.js';
import { diffRecords } from '../../src/diff/index.js';
import { RecordsByKey } from '../../src/diff/records.js';
import { judgeChanges, judgeEmptied } from '../../src/guard/changes.js';
import { judge } from '../../src/guard/index.js';
import { worthShowing, type GuardCheck } from '../../src/guard/checks.js';
import { allowedOf, parseLimit } from '../../src/guard/limit.js';
import { UsageError } from '../../src/errors.js';

const card = (key: string, concept: number | null, hours: Record<string, { since: number; to: number }>) =>
  JSON.stringify({ nodeKey: key, email: `${key.toLowerCase()}@example.com`, storeConceptCode: concept, opentToGuestsPeriod: hours });
const week = (days: string[], since = 9, to = 20) => Object.fromEntries(days.map((d) => [d, { since, to }]));
const ALL = ['0', '1', '2', '3', '4', '5', '6'];

/** A baseline of cards, a plan of cards, their diff and its field analysis. */
function analyse(before: string[], after: string[]) {
  const key = (json: string) => (JSON.parse(json) as { nodeKey: string }).nodeKey;
  const baseline = RecordsByKey.index(Bodies.of(before), 'nodeKey')!;
  const keys = after.map(key);
  const bodies = Bodies.of(after);
  const diff = diffRecords(baseline, 'snapshot', keys, bodies);
  return { diff, tally: analyseChanges('store-cards', baseline, keys, bodies, diff)! };
}

describe('the field analysis', () => {
  it('knows which fields can lose a value: optional fields and each day of the hours', () => {
    expect(lossFields('team-members')).toEqual(['roleCode', 'parentKey']);
    expect(lossFields('store-cards')).toEqual(['storeConceptCode', ...['1', '2', '3', '4', '5', '6', '0'].map((d) => `opentToGuestsPeriod.${d}`)]);
  });

  it('counts records per field, and an open weekday becoming closed as a loss of that day', () => {
    const before = [card('A', 1, week(ALL)), card('B', 2, week(['1', '6'])), card('C', null, week(['6']))];
    const after = [card('A', 1, week(['0', '6'])), card('B', null, week(['1', '6'], 10)), card('C', null, week(['6']))];
    const { diff, tally } = analyse(before, after);
    expect(diff).toMatchObject({ changed: 2, unchanged: 1 });
    expect(tally.changed).toBe(2);
    expect(tally.fields).toEqual([
      { field: 'opentToGuestsPeriod', records: 2, keys: ['A', 'B'] },
      { field: 'storeConceptCode', records: 1, keys: ['B'] },
    ]);
    const loss = (field: string) => tally.losses.find((l) => l.field === field)!;
    // A loses Monday to Friday; B's Monday only changes its hours, which is no loss.
    expect(loss('opentToGuestsPeriod.1')).toEqual({
      field: 'opentToGuestsPeriod.1',
      records: 1,
      held: 2,
      examples: [{ key: 'A', before: { since: 9, to: 20 }, after: null }],
    });
    expect(loss('storeConceptCode')).toMatchObject({ records: 1, held: 2, examples: [{ key: 'B', before: 2, after: null }] });
    // The unchanged C holds Saturday: it counts among the holders of a field only if that field lost values.
    expect(loss('opentToGuestsPeriod.6')).toMatchObject({ records: 0, held: 2 });
  });

  it('counts the holders among unchanged records from their text, for the fields that lost values', () => {
    const same = Array.from({ length: 40 }, (_, i) => card(`S${i}`, i % 2 ? 5 : null, week(i % 4 ? ['1'] : ['1', '0'])));
    const { tally } = analyse([card('X', 7, week(['1', '0'])), ...same], [card('X', null, week(['1'])), ...same]);
    const loss = (field: string) => tally.losses.find((l) => l.field === field)!;
    expect(loss('storeConceptCode')).toMatchObject({ records: 1, held: 21 });
    expect(loss('opentToGuestsPeriod.0')).toMatchObject({ records: 1, held: 11 });
  });

  it('takes parsed records from any source', () => {
    const tally = tallyChanges('team-members', [
      {
        key: 'E1',
        before: { employeeID: 'E1', name: 'A', roleCode: '3', parentKey: null },
        after: { employeeID: 'E1', name: 'B', roleCode: '', parentKey: null },
      },
    ]);
    expect(tally.fields.map((f) => f.field)).toEqual(['name', 'roleCode']);
    expect(tally.losses.find((l) => l.field === 'roleCode')).toMatchObject({ records: 1, held: 1, examples: [{ key: 'E1', before: '3', after: '' }] });
  });
});

describe('the limits', () => {
  it.each([
    ['25%', 30, 7],
    ['25%', 3, 1],
    ['5%', 10, 1],
    ['5%', 1000, 50],
    ['0%', 1000, 0],
    ['12', 3, 12],
  ])('%s of %i allows %i changed records (a share at least one)', (text, base, allowed) => {
    expect(allowedOf(parseLimit('--max-changes', text), base, true)).toBe(allowed);
  });

  it.each(['--max-changes', '--max-emptied'] as const)('%s takes a count or a share, else a usage error BAD_FLAG naming it', (flag) => {
    expect(() => parseLimit(flag, 'lots')).toThrow(expect.objectContaining({ code: 'BAD_FLAG', message: expect.stringContaining(flag) }));
    expect(() => parseLimit(flag, '101%')).toThrow(UsageError);
  });
});

describe('the change guards', () => {
  const closedMonToFri = () => {
    const before = Array.from({ length: 30 }, (_, i) => card(`S${i}`, 1, week(ALL)));
    const after = Array.from({ length: 30 }, (_, i) => card(`S${i}`, 1, week(['6', '0'])));
    return analyse(before, after).tally;
  };

  it('refuses more changed records than --max-changes, per field, with the exact override', () => {
    const found = judgeChanges('store-cards', 30, closedMonToFri(), parseLimit('--max-changes', '25%'));
    expect(found.check).toMatchObject({ name: 'TOO_MANY_CHANGES', count: 30, limit: 7, verdict: 'refused' });
    expect(found.refusal?.message).toBe(
      'this upload would change 30 of 30 store cards (100.0 %), more than --max-changes allows (25% of 30, that is 7): opening hours of 30 of 30 store cards (S0, S1, S2, …)',
    );
    expect(found.refusal?.override).toBe('--max-changes 30');
    expect(judgeChanges('store-cards', 30, closedMonToFri(), parseLimit('--max-changes', '30')).refusal).toBeUndefined();
  });

  it('refuses emptied values per field, with before → after, and passes them under the limit', () => {
    const found = judgeEmptied('store-cards', closedMonToFri(), parseLimit('--max-emptied', '5%'));
    expect(found.check).toMatchObject({ name: 'VALUES_EMPTIED', count: 30, limit: 1, verdict: 'refused', field: 'opentToGuestsPeriod.1' });
    expect(found.check.fields).toHaveLength(5);
    expect(found.refusal?.message).toContain('Monday hours in 30 of the 30 store cards that had them (allowed: 1), e.g. S0 09:00–20:00 → closed, S1');
    expect(found.refusal?.override).toBe('--max-emptied 30');
    const passed = judgeEmptied('store-cards', closedMonToFri(), parseLimit('--max-emptied', '30'));
    expect(passed.check).toMatchObject({ verdict: 'passed', count: 30, limit: 30 });
  });

  it('gives every override this upload needs, in the words of where the set comes from', () => {
    const before = Array.from({ length: 30 }, (_, i) => card(`S${i}`, 1, week(ALL)));
    const after = Array.from({ length: 30 }, (_, i) => card(`S${i}`, 1, week(['6', '0'])));
    const { diff, tally } = analyse(before, after);
    const hint = (from?: 'file' | 'recorded' | 'plan') =>
      judge({
        kind: 'store-cards',
        source: 'stores.csv',
        count: 30,
        diff,
        changes: tally,
        limits: {
          maxRemovals: parseLimit('--max-removals', '10%'),
          maxChanges: parseLimit('--max-changes', '25%'),
          maxEmptied: parseLimit('--max-emptied', '5%'),
          allowEmpty: false,
        },
        acknowledgeNoBaseline: false,
        has: { token: true, tokenEnv: 'UPLOAD_TOKEN', baseUrl: true, confirmation: true },
        ...(from ? { from } : {}),
      }).refusal?.hint;
    expect(hint()).toBe(
      'if the file is read as intended and these changes are meant, run again with --max-emptied 30 --max-changes 30 (review every change first with --dry-run --diff-out changes.csv)',
    );
    expect(hint('recorded')).toBe('if these changes are meant, run again with --max-emptied 30 --max-changes 30 (see every change first with --dry-run)');
    expect(hint('plan')).toBe(
      'if these changes are meant, make a new plan with --dry-run --plan-out FILE --max-emptied 30 --max-changes 30, review it, and apply that one',
    );
  });

  it('shows a guard to a person when it refuses or comes within a fifth of its limit', () => {
    const check = (count: number | null, limit: number | null, verdict: GuardCheck['verdict'] = 'passed'): GuardCheck => ({
      name: 'TOO_MANY_CHANGES',
      flag: '--max-changes',
      setting: '25%',
      count,
      limit,
      verdict,
    });
    expect(worthShowing(check(79, 100))).toBe(false);
    expect(worthShowing(check(80, 100))).toBe(true);
    expect(worthShowing(check(0, 0))).toBe(false);
    expect(worthShowing(check(8, 7, 'refused'))).toBe(true);
    expect(worthShowing(check(null, null, 'not-applied'))).toBe(false);
  });
});

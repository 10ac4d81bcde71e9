import { describe, expect, it } from 'vitest';
import { Bodies } from '../../src/contract/json-array.js';
import { diffRecords, noBaseline } from '../../src/diff/index.js';
import { RecordsByKey } from '../../src/diff/records.js';
import { GuardRefusal, UsageError } from '../../src/errors.js';
import { tallyChanges } from '../../src/diff/fields.js';
import { judge, parseLimit, parseMaxRemovals } from '../../src/guard/index.js';
import { confirmQuestion } from '../../src/render/human.js';
import { formatGuards } from '../../src/render/guards.js';
import { allowedRemovals } from '../../src/guard/limit.js';
import { defaultOf } from '../../src/config/settings.js';

describe('parseMaxRemovals', () => {
  it.each([
    [defaultOf('maxRemovals'), { kind: 'percent', percent: 10 }],
    ['37', { kind: 'count', count: 37 }],
    ['0', { kind: 'count', count: 0 }],
    ['25%', { kind: 'percent', percent: 25 }],
    ['2.5%', { kind: 'percent', percent: 2.5 }],
    [' 100% ', { kind: 'percent', percent: 100 }],
  ])('%s → %o', (text, limit) => {
    expect(parseMaxRemovals(text)).toEqual(limit);
  });

  it.each(['', 'ten', '-1', '1.5', '101%', '%', '10 percent', '1e3', '0x10'])("'%s' is a usage error", (text) => {
    expect(() => parseMaxRemovals(text)).toThrow(UsageError);
    try {
      parseMaxRemovals(text);
    } catch (err) {
      expect((err as UsageError).code).toBe('BAD_FLAG');
      expect((err as UsageError).exitCode).toBe(2);
    }
  });
});

describe('allowedRemovals', () => {
  it.each([
    [{ kind: 'count', count: 37 } as const, 10, 37],
    [{ kind: 'percent', percent: 10 } as const, 30, 3],
    [{ kind: 'percent', percent: 10 } as const, 29, 2],
    [{ kind: 'percent', percent: 10 } as const, 9, 0],
    [{ kind: 'percent', percent: 100 } as const, 7, 7],
    [{ kind: 'percent', percent: 0 } as const, 1000, 0],
  ])('%o of %i allows %i', (limit, baseline, allowed) => {
    expect(allowedRemovals(limit, baseline)).toBe(allowed);
  });
});

const base = (n: number) => RecordsByKey.index(Bodies.of(Array.from({ length: n }, (_, i) => `{"employeeID":"E${i}"}`)), 'employeeID')!;
const keep = (n: number) => Array.from({ length: n }, (_, i) => `E${i}`);
const diffKeeping = (baseline: number, kept: number) => {
  const keys = keep(kept);
  return diffRecords(base(baseline), 'snapshot', keys, Bodies.of(keys.map((k) => `{"employeeID":"${k}"}`)));
};
const has = { token: true, tokenEnv: 'UPLOAD_TOKEN', baseUrl: true, confirmation: true };
/** The judge's input with the default limits; `limits` overrides only the limits it names. */
type Over = Partial<Omit<Parameters<typeof judge>[0], 'limits'>> & { limits?: Partial<Parameters<typeof judge>[0]['limits']> };
const verdict = ({ limits, ...over }: Over) =>
  judge({
    kind: 'team-members',
    source: 'staff.csv',
    count: 1,
    diff: noBaseline(),
    // These diffs change no record: the change guards find nothing to count.
    changes: over.diff && over.diff.baseline !== 'none' ? tallyChanges('team-members', []) : undefined,
    acknowledgeNoBaseline: true,
    has,
    ...over,
    limits: {
      maxRemovals: parseMaxRemovals(defaultOf('maxRemovals')),
      maxChanges: parseLimit('--max-changes', defaultOf('maxChanges')),
      maxEmptied: parseLimit('--max-emptied', defaultOf('maxEmptied')),
      allowEmpty: false,
      ...limits,
    },
  });
/** The notes of an upload the guards let through; the refusal of one they stop, thrown. */
const guard = (over: Over) => {
  const v = verdict(over);
  if (v.refusal) throw v.refusal;
  return v.notes;
};

describe('judge', () => {
  it('says what a real run would still need', () => {
    expect(verdict({}).needs).toEqual([]);
    expect(verdict({ has: { token: false, tokenEnv: 'MY_TOKEN', baseUrl: false, confirmation: false } }).needs).toEqual([
      'an access token (MY_TOKEN or --token-file)',
      'a base URL (--base-url or UPLOAD_BASE_URL)',
      '--yes, as there is no terminal to confirm it',
    ]);
  });

  it('refuses an empty upload unless --allow-empty', () => {
    expect(() => guard({ count: 0 })).toThrow(expect.objectContaining({ code: 'EMPTY_UPLOAD', hint: expect.stringContaining('--allow-empty') }));
    expect(guard({ count: 0, limits: { allowEmpty: true } }).join('\n')).toContain('deletes every team member');
  });

  it("offers --allow-empty as a fix, but not to a saved plan's apply, which takes no guard flags", () => {
    expect(verdict({ count: 0 }).refusal?.fixes).toEqual([{ kind: 'flags', args: ['--allow-empty'] }]);
    const plan = verdict({ count: 0, from: 'plan' }).refusal;
    expect([plan?.code, plan?.fixes, plan?.hint]).toEqual([
      'EMPTY_UPLOAD',
      [],
      expect.stringContaining('make a new plan with --dry-run --plan-out FILE --allow-empty'),
    ]);
  });

  it('refuses an upload with no baseline unless --no-baseline acknowledges it', () => {
    expect(() => guard({ acknowledgeNoBaseline: false, noBaselineWhy: 'nothing recorded in /state' })).toThrow(
      expect.objectContaining({
        code: 'NO_BASELINE',
        exitCode: 4,
        message: expect.stringContaining('nothing recorded in /state'),
        hint: expect.stringMatching(/--baseline FILE.*--no-baseline/),
      }),
    );
    // Without an address there is no store to look in: a dry run leaves the verdict to the real run.
    expect(verdict({ acknowledgeNoBaseline: false, has: { ...has, baseUrl: false } }).refusal).toBeUndefined();
    // Where a baseline exists the flag changes nothing: every guard applies.
    expect(() => guard({ count: 26, diff: diffKeeping(30, 26), acknowledgeNoBaseline: true })).toThrow(expect.objectContaining({ code: 'TOO_MANY_REMOVALS' }));
  });

  it('says that without a baseline the removal guard cannot apply', () => {
    expect(guard({}).join('\n')).toMatch(/No baseline.*cannot apply/);
  });

  it('allows removals up to the default 10 % and refuses one more', () => {
    expect(guard({ count: 27, diff: diffKeeping(30, 27) })).toEqual([]);
    let refusal: GuardRefusal | undefined;
    try {
      guard({ count: 26, diff: diffKeeping(30, 26) });
    } catch (err) {
      refusal = err as GuardRefusal;
    }
    expect(refusal).toBeInstanceOf(GuardRefusal);
    expect(refusal!.code).toBe('TOO_MANY_REMOVALS');
    expect(refusal!.exitCode).toBe(4);
    expect(refusal!.message).toContain('remove 4 of 30 team members');
    expect(refusal!.message).toContain('E26, E27, E28, E29');
    expect(refusal!.hint).toContain('--max-removals 4');
  });

  it('takes an exact count or a percentage as the override', () => {
    expect(() => guard({ count: 10, diff: diffKeeping(50, 10), limits: { maxRemovals: parseMaxRemovals('39') } })).toThrow(/--max-removals allows \(39\)/);
    expect(guard({ count: 10, diff: diffKeeping(50, 10), limits: { maxRemovals: parseMaxRemovals('40') } })).toEqual([]);
    expect(guard({ count: 10, diff: diffKeeping(50, 10), limits: { maxRemovals: parseMaxRemovals('80%') } })).toEqual([]);
    expect(() => guard({ count: 10, diff: diffKeeping(50, 10), limits: { maxRemovals: parseMaxRemovals('79%') } })).toThrow(GuardRefusal);
  });

  it('applies the removal guard to an allowed empty upload too', () => {
    expect(() => guard({ count: 0, limits: { allowEmpty: true }, diff: diffKeeping(5, 0) })).toThrow(
      expect.objectContaining({ hint: expect.stringContaining('--max-removals 5') }),
    );
    expect(guard({ count: 0, diff: diffKeeping(5, 0), limits: { allowEmpty: true, maxRemovals: parseMaxRemovals('5') } })).toHaveLength(1);
  });
});

describe('confirmQuestion', () => {
  it('names the kind, the address, the count and the change', () => {
    const diff = diffRecords(
      base(3),
      'snapshot',
      ['E0', 'E1', 'E9'],
      Bodies.of(['{"employeeID":"E0"}', '{"employeeID":"E1","name":"x"}', '{"employeeID":"E9"}']),
    );
    expect(confirmQuestion({ kind: 'team-members', count: 1234, where: 'https://s.example.com', diff })).toBe(
      'Replace all team members at https://s.example.com with these 1,234 team members: +1 −1 ~1 =1. Upload?',
    );
    expect(confirmQuestion({ kind: 'store-cards', count: 1, where: 'https://s', diff: noBaseline() })).toBe(
      'Replace all store cards at https://s with this 1 store card: no baseline to compare with. Upload?',
    );
  });
});

describe('formatGuards', () => {
  const plain = { bold: String, red: String, yellow: String, green: String, dim: String };
  it('says one record in the singular', () => {
    const removal = { name: 'TOO_MANY_REMOVALS', flag: '--max-removals', setting: '10%', count: 1, limit: 0, verdict: 'refused' } as const;
    const emptied = {
      name: 'VALUES_EMPTIED',
      flag: '--max-emptied',
      setting: '5%',
      count: 1,
      limit: 0,
      verdict: 'refused',
      field: 'roleCode',
      fields: [{ field: 'roleCode', count: 1, held: 1, limit: 0 }],
    } as const;
    expect(formatGuards('team-members', [removal, emptied], plain)).toEqual([
      'Guards at or near their limit:',
      '  removals (--max-removals 10%): 1 team member removed, at most 0 allowed — refused',
      '  emptied values (--max-emptied 5%): roleCode emptied in 1 of the 1 team member that had a value, at most 0 allowed — refused',
    ]);
  });
});

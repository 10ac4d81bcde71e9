// What is stricter between two policies of an address, and whether a plan is within autoApply's bounds
// (src/guard/policy.ts): a table of the cases people meet, and properties every pair must keep.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atLeastAsStrict, outsideBounds, samePolicy, stricterPolicy } from '../../src/guard/policy.js';
import type { Policy } from '../../src/state/types.js';

const base: Policy = { protected: false, approvals: 1, approvalHours: 24, autoApply: null };
const auto = (maxAdded: number, maxChanged: number | string, maxRemoved: number): Policy => ({ ...base, autoApply: { maxAdded, maxChanged, maxRemoved } });

const policies = fc.record({
  protected: fc.boolean(),
  approvals: fc.integer({ min: 0, max: 3 }),
  approvalHours: fc.constantFrom(1, 12, 24),
  autoApply: fc.option(
    fc.record({
      maxAdded: fc.integer({ min: 0, max: 30 }),
      maxChanged: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constantFrom('0%', '2%', '5%')),
      maxRemoved: fc.integer({ min: 0, max: 5 }),
    }),
    { nil: null },
  ),
  limits: fc.option(
    fc.record(
      { maxRemovals: fc.constantFrom('0', '2', '10', '5%', '10%'), maxChanges: fc.constantFrom('3', '50', '2%'), maxEmptied: fc.constantFrom('1', '20%') },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  ),
});

describe('the stricter of two policies', () => {
  it.each([
    ['more approvals win', base, { ...base, approvals: 2 }, { approvals: 2 }],
    ['the shorter validity wins', base, { ...base, approvalHours: 1 }, { approvalHours: 1 }],
    ['protected if either says so', base, { ...base, protected: true }, { protected: true }],
    ['no autoApply beats any', auto(5, 2, 0), base, { autoApply: null }],
    ['narrower bounds win', auto(5, 2, 0), auto(20, 1, 3), { autoApply: { maxAdded: 5, maxChanged: 1, maxRemoved: 0 } }],
    ['two percentages: the smaller', auto(5, '2%', 0), auto(5, '5%', 0), { autoApply: { maxAdded: 5, maxChanged: '2%', maxRemoved: 0 } }],
    ['a count and a percentage cannot be compared: 0', auto(5, 3, 0), auto(5, '5%', 0), { autoApply: { maxAdded: 5, maxChanged: 0, maxRemoved: 0 } }],
    [
      'an address without approvals takes the other’s bounds',
      { ...base, approvals: 0 },
      auto(5, 2, 0),
      { approvals: 1, autoApply: { maxAdded: 5, maxChanged: 2, maxRemoved: 0 } },
    ],
  ] as const)('%s', (_, a, b, expected) => {
    expect(stricterPolicy(a, b)).toMatchObject(expected);
    expect(stricterPolicy(b, a)).toMatchObject(expected);
  });

  it('is at least as strict as both, and one of them only when that one is already the stricter', () => {
    fc.assert(
      fc.property(policies, policies, (a, b) => {
        const s = stricterPolicy(a, b)!;
        expect(atLeastAsStrict(s, a) && atLeastAsStrict(s, b)).toBe(true);
        if (atLeastAsStrict(a, b)) expect(samePolicy(s, a)).toBe(true);
      }),
    );
  });

  it('refuses what weakens: fewer approvals, a longer validity, autoApply added or widened, protection dropped', () => {
    expect(atLeastAsStrict({ ...base, approvals: 0 }, base)).toBe(false);
    expect(atLeastAsStrict({ ...base, approvalHours: 48 }, base)).toBe(false);
    expect(atLeastAsStrict(auto(5, 2, 0), base)).toBe(false);
    expect(atLeastAsStrict(auto(6, 2, 0), auto(5, 2, 0))).toBe(false);
    expect(atLeastAsStrict(base, { ...base, protected: true })).toBe(false);
    expect(atLeastAsStrict(base, auto(5, 2, 0))).toBe(true);
  });
});

describe('autoApply bounds', () => {
  const counts = (added: number | null, changed: number | null, removed: number | null, baselineCount = 100) => ({ added, changed, removed, baselineCount });
  it.each([
    ['within every bound', { maxAdded: 5, maxChanged: 2, maxRemoved: 0 }, counts(5, 2, 0), []],
    ['too many added', { maxAdded: 5, maxChanged: 2, maxRemoved: 0 }, counts(6, 0, 0), ['6 added (at most 5)']],
    ['a removal where none may go', { maxAdded: 5, maxChanged: 2, maxRemoved: 0 }, counts(0, 0, 1), ['1 removed (at most 0)']],
    ['a percentage of what is recorded', { maxAdded: 5, maxChanged: '2%', maxRemoved: 0 }, counts(0, 3, 0, 100), ['3 changed (at most 2%, 2)']],
    [
      'nothing to compare with',
      { maxAdded: 5, maxChanged: 2, maxRemoved: 0 },
      counts(null, null, null),
      ['there is no recorded upload to compare it with, so its changes are not known'],
    ],
  ] as const)('%s', (_, bounds, plan, reasons) => {
    expect(outsideBounds(bounds, plan)).toEqual(reasons);
  });
});

// The next step a plan's approval or saving names is a command that runs as written: the plan file as
// one word (quoted when it needs it), a plan kept in the store as `--plan N`, the target, --yes to apply.
import { describe, expect, it } from 'vitest';
import { nextCommand } from '../../src/pipeline/approval.js';

describe('nextCommand', () => {
  it.each([
    [
      ['apply', 'staff.plan.json', 'production'],
      'upload apply staff.plan.json --target production --yes',
      ['apply', 'staff.plan.json', '--target', 'production', '--yes'],
    ],
    [['approve', 'my plans/staff.plan.json', null], "upload approve 'my plans/staff.plan.json'", ['approve', 'my plans/staff.plan.json']],
    [['apply', '--plan 3', 'production'], 'upload apply --plan 3 --target production --yes', ['apply', '--plan', '3', '--target', 'production', '--yes']],
    [['approve', '--plan 12', 'production'], 'upload approve --plan 12 --target production', ['approve', '--plan', '12', '--target', 'production']],
  ] as const)('%j', ([step, plan, target], text, args) => {
    const next = nextCommand(step, plan, target);
    expect(next.text).toBe(text);
    expect(next.fix).toEqual({ kind: 'command', args });
  });
});

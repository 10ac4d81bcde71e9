// The guards' verdicts in words. A person sees a guard only when it refuses or comes within a fifth
// of its limit; every verdict is in --json under `guards` whatever it says.
import { KINDS, type Kind } from '../contract/kinds.js';
import { fieldLabel } from '../guard/changes.js';
import { worthShowing, type GuardCheck } from '../guard/checks.js';
import { plural, thousands } from '../numbers.js';
import type { Style } from './human.js';

const WHAT: Record<GuardCheck['name'], string> = {
  EMPTY_UPLOAD: 'empty upload',
  TOO_MANY_REMOVALS: 'removals',
  TOO_MANY_CHANGES: 'changes',
  VALUES_EMPTIED: 'emptied values',
};

export function formatGuards(kind: Kind, checks: readonly GuardCheck[], style: Style): string[] {
  const shown = checks.filter(worthShowing);
  if (!shown.length) return [];
  return ['Guards at or near their limit:', ...shown.map((c) => `  ${line(kind, c, style)}`)];
}

function line(kind: Kind, check: GuardCheck, style: Style): string {
  const { noun } = KINDS[kind];
  const refused = check.verdict === 'refused';
  const verdict = refused ? style.red('refused') : style.yellow('close to its limit');
  if (check.name === 'EMPTY_UPLOAD') return `${WHAT[check.name]} (${check.flag}): no records to send — ${verdict}`;
  const setting = `${check.flag} ${String(check.setting)}`;
  const count = thousands(check.count ?? 0);
  const limit = thousands(check.limit ?? 0);
  if (check.name === 'VALUES_EMPTIED') {
    const field = check.fields?.find((f) => f.field === check.field);
    const held = field?.held === undefined ? '' : ` of the ${field.held === 1 ? `1 ${noun} that` : `${thousands(field.held)} ${noun}s that`} had a value`;
    const others = (check.fields?.length ?? 1) - 1;
    const also = others > 0 ? `; ${others} more field${others === 1 ? '' : 's'} lost values` : '';
    return `${WHAT[check.name]} (${setting}): ${fieldLabel(check.field ?? '')} emptied in ${count}${held}, at most ${limit} allowed — ${verdict}${also}`;
  }
  const fields = check.fields?.length ? `; ${check.fields.map((f) => `${fieldLabel(f.field)} ${thousands(f.count)}`).join(', ')}` : '';
  const did = check.name === 'TOO_MANY_CHANGES' ? 'changed' : 'removed';
  return `${WHAT[check.name]} (${setting}): ${plural(check.count ?? 0, noun)} ${did}, at most ${limit} allowed — ${verdict}${fields}`;
}

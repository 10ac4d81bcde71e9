// The guards on records that stay but are rewritten. A file that is complete but read wrongly — weekday
// columns the reader does not know, a concept column under another name, a surname mapped as the name
// — keeps every key, so the removal guard sees nothing; what it does to the fields is what gives it
// away. TOO_MANY_CHANGES counts the records that change; VALUES_EMPTIED, stricter, the values the
// service holds that the upload empties, field by field. Pure: the field analysis and the limits in,
// the checks and any refusal out.
import { formatDay, type DayHours } from '../contract/hours-text.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import type { ChangeTally, FieldLoss, LossExample } from '../diff/fields.js';
import { DAY_NAMES } from '../map/hours.js';
import { thousands } from '../numbers.js';
import type { FieldCheck, GuardCheck } from './checks.js';
import { allowedOf, describeLimit, limitInWords, type Limit } from './limit.js';

/** A guard that refuses: its check, and what the refusal says and which flag lets this upload through. */
export interface Finding {
  readonly check: GuardCheck;
  readonly refusal?: { readonly message: string; readonly override: string };
}

/** Refusing fields whose examples the message shows (the rest are counted). */
const SHOWN_EXAMPLES = 2;

/** "opening hours", "Monday hours", or the wire name. */
export function fieldLabel(field: string): string {
  if (field === 'opentToGuestsPeriod') return 'opening hours';
  const day = /^opentToGuestsPeriod\.([0-6])$/.exec(field);
  return day ? `${DAY_NAMES[Number(day[1])]} hours` : field;
}

function valueInWords(field: string, value: unknown): string {
  if (field.startsWith('opentToGuestsPeriod.')) return formatDay(value as DayHours);
  return value === undefined ? 'null' : JSON.stringify(value);
}

const more = (shown: number, total: number) => (total > shown ? ', …' : '');
const share = (n: number, of: number) => (of ? ` (${((100 * n) / of).toFixed(1)} %)` : '');

export function judgeChanges(kind: Kind, baselineCount: number, tally: ChangeTally, limit: Limit): Finding {
  const { noun } = KINDS[kind];
  const allowed = allowedOf(limit, baselineCount, true);
  const fields: FieldCheck[] = tally.fields.map((f) => ({ field: f.field, count: f.records }));
  const refused = tally.changed > allowed;
  const check: GuardCheck = {
    name: 'TOO_MANY_CHANGES',
    flag: '--max-changes',
    setting: describeLimit(limit),
    count: tally.changed,
    limit: allowed,
    verdict: refused ? 'refused' : 'passed',
    fields,
  };
  if (!refused) return { check };
  const perField = tally.fields
    .map((f, i) => {
      const of = i === 0 ? ` of ${thousands(baselineCount)} ${noun}s` : '';
      return `${fieldLabel(f.field)} of ${thousands(f.records)}${of} (${f.keys.join(', ')}${more(f.keys.length, f.records)})`;
    })
    .join('; ');
  return {
    check,
    refusal: {
      message: `this upload would change ${thousands(tally.changed)} of ${thousands(baselineCount)} ${noun}s${share(tally.changed, baselineCount)}, more than --max-changes allows (${limitInWords(limit, baselineCount, allowed)}): ${perField}`,
      override: `--max-changes ${tally.changed}`,
    },
  };
}

export function judgeEmptied(kind: Kind, tally: ChangeTally, limit: Limit): Finding {
  const { noun } = KINDS[kind];
  const judged = tally.losses
    .filter((l) => l.records > 0)
    .map((loss) => ({ loss, allowed: allowedOf(limit, loss.held, true) }))
    // Refusals first, the furthest past its limit first; then the nearest to it.
    .sort((a, b) => ratio(b.loss.records, b.allowed) - ratio(a.loss.records, a.allowed) || b.loss.records - a.loss.records);
  const worst = judged[0];
  const refusing = judged.filter((j) => j.loss.records > j.allowed);
  const check: GuardCheck = {
    name: 'VALUES_EMPTIED',
    flag: '--max-emptied',
    setting: describeLimit(limit),
    count: worst?.loss.records ?? 0,
    limit: worst?.allowed ?? null,
    verdict: refusing.length ? 'refused' : 'passed',
    field: worst?.loss.field ?? null,
    fields: judged.map(({ loss, allowed }) => ({ field: loss.field, count: loss.records, held: loss.held, limit: allowed })),
  };
  if (!refusing.length) return { check };
  const perField = refusing
    .map(({ loss, allowed }, i) => {
      const whose = i === 0 ? ` ${noun}s that had ${loss.field.includes('.') ? 'them' : 'one'}` : '';
      const what = `${fieldLabel(loss.field)} in ${thousands(loss.records)} of the ${thousands(loss.held)}${whose} (allowed: ${allowed})`;
      return i < SHOWN_EXAMPLES ? `${what}, e.g. ${examples(loss)}` : what;
    })
    .join('; ');
  const most = Math.max(...refusing.map((j) => j.loss.records));
  const of = limit.kind === 'percent' ? `${describeLimit(limit)} of the records that held a value, at least 1` : `${limit.count}`;
  return {
    check,
    refusal: {
      message: `this upload would empty values the service holds, more than --max-emptied allows in any one field (${of}): ${perField}`,
      override: `--max-emptied ${most}`,
    },
  };
}

function examples(loss: FieldLoss): string {
  const one = (e: LossExample) => `${e.key} ${valueInWords(loss.field, e.before)} → ${valueInWords(loss.field, e.after)}`;
  return loss.examples.map(one).join(', ') + more(loss.examples.length, loss.records);
}

const ratio = (count: number, allowed: number) => (allowed === 0 ? (count ? Infinity : 0) : count / allowed);

// The guards' limits: a count ("37") or a share ("25%", "2.5%") of what the guard measures against.
// Parsing returns a value; a value that is neither is a usage error, caught before anything is read.
import { UsageError } from '../errors.js';
import { thousands } from '../numbers.js';

export type Limit = { readonly kind: 'count'; readonly count: number } | { readonly kind: 'percent'; readonly percent: number };
/** The older name, from when the removal guard was the only one with a limit. */
export type RemovalLimit = Limit;

/** Each limit's flag and what its share is a share of. */
const FLAGS = {
  '--max-removals': { of: 'the baseline' },
  '--max-changes': { of: 'the baseline' },
  '--max-emptied': { of: 'the records that hold a value in the field' },
} as const;
export type LimitFlag = keyof typeof FLAGS;

export function parseLimit(flag: LimitFlag, text: string): Limit {
  const value = text.trim();
  const bad = (): never => {
    throw new UsageError(
      'BAD_FLAG',
      `${flag} '${text}' is not a whole number of records or a percentage from 0% to 100%`,
      `give a whole number of records (${flag} 37) or a share of ${FLAGS[flag].of} from 0% to 100% (${flag} 25%)`,
    );
  };
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(value);
  if (percent) {
    const p = Number(percent[1]);
    if (!(p >= 0 && p <= 100)) bad();
    return { kind: 'percent', percent: p };
  }
  if (!/^\d+$/.test(value)) bad();
  const count = Number(value);
  if (!Number.isSafeInteger(count)) bad();
  return { kind: 'count', count };
}

export const parseMaxRemovals = (text: string): Limit => parseLimit('--max-removals', text);

/**
 * How many records the limit allows out of `base`. A share is rounded down, with a hair of tolerance
 * so 10% of 30 is 3, not 2.9999999. `atLeastOne`: the change guards let one record through even on a
 * small base (docs/decisions.md), the removal guard keeps its rule.
 */
export function allowedOf(limit: Limit, base: number, atLeastOne = false): number {
  if (limit.kind === 'count') return limit.count;
  const share = Math.floor((limit.percent * base) / 100 + 1e-9);
  return atLeastOne && limit.percent > 0 ? Math.max(1, share) : share;
}

/** How many removals the limit allows out of a baseline of this size. */
export const allowedRemovals = (limit: Limit, baselineCount: number): number => allowedOf(limit, baselineCount);

/** The limit as it is written on the command line: "37" or "25%". */
export function describeLimit(limit: Limit): string {
  return limit.kind === 'count' ? `${limit.count}` : `${limit.percent}%`;
}

/** "25% of 30, that is 7", or "7" for a count. */
export function limitInWords(limit: Limit, base: number, allowed: number): string {
  return limit.kind === 'percent' ? `${describeLimit(limit)} of ${thousands(base)}, that is ${allowed}` : `${allowed}`;
}

/** The four guard limits a run is judged by, passed whole from the flags (or a target, or a saved plan) to the judge. */
export interface Limits {
  /** --max-removals */
  readonly maxRemovals: Limit;
  /** --max-changes */
  readonly maxChanges: Limit;
  /** --max-emptied */
  readonly maxEmptied: Limit;
  /** --allow-empty */
  readonly allowEmpty: boolean;
}

/** The limits as a saved plan records them, each written as on the command line: `apply` judges by the same. */
export function limitsAsWritten(limits: Limits): { maxRemovals: string; maxChanges: string; maxEmptied: string; allowEmpty: boolean } {
  return {
    maxRemovals: describeLimit(limits.maxRemovals),
    maxChanges: describeLimit(limits.maxChanges),
    maxEmptied: describeLimit(limits.maxEmptied),
    allowEmpty: limits.allowEmpty,
  };
}

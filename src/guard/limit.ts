// --max-removals: a count ("37") or a share of the baseline ("25%", "2.5%"). Parsing returns a value;
// a value that is neither is a usage error, caught before anything is read.
import { UsageError } from '../errors.js';

export type RemovalLimit = { readonly kind: 'count'; readonly count: number } | { readonly kind: 'percent'; readonly percent: number };

export function parseMaxRemovals(text: string): RemovalLimit {
  const value = text.trim();
  const bad = (): never => {
    throw new UsageError(
      'BAD_MAX_REMOVALS',
      `--max-removals '${text}' is not a whole number of records or a percentage from 0% to 100%`,
      'give a whole number of records (--max-removals 37) or a share of the baseline from 0% to 100% (--max-removals 25%)',
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

/** How many removals the limit allows out of a baseline of this size. */
export function allowedRemovals(limit: RemovalLimit, baselineCount: number): number {
  if (limit.kind === 'count') return limit.count;
  // Rounded down, with a hair of tolerance so 10% of 30 is 3, not 2.9999999.
  return Math.floor((limit.percent * baselineCount) / 100 + 1e-9);
}

export function describeLimit(limit: RemovalLimit): string {
  return limit.kind === 'count' ? `${limit.count}` : `${limit.percent}%`;
}

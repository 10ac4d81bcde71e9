// The one rule for keys in a notification, whatever its format: a notification leaves the company (a
// chat service stores it), so a key that could be a person's email or name is never listed. Keys are
// listed only when every one of them looks like a code; otherwise the list is withheld and only the
// count is sent. All or nothing: one address among codes would still be an address.

export interface ListedKeys {
  /** Exact, whatever is listed. */
  readonly count: number;
  /** At most `MAX_LISTED` keys; empty when withheld. */
  readonly keys: readonly string[];
  /** Why the keys are not listed: they look like emails or names. */
  readonly withheld: 'personal' | null;
}

/** Keys a notification lists at most; the count is always exact. */
export const MAX_LISTED = 50;

/**
 * A key that looks like a code: a digit in it, no `@`, no space, no run of more than five letters
 * (`E000123`, `STORE-0042`, `100`). `anna.schmidt`, `a.s@example.com` and `Anna Schmidt` are not.
 */
export function looksLikeCode(key: string): boolean {
  return /\p{N}/u.test(key) && !/[@\s]/u.test(key) && !/\p{L}{6,}/u.test(key);
}

export function listableKeys(keys: readonly string[]): ListedKeys {
  if (!keys.every(looksLikeCode)) return { count: keys.length, keys: [], withheld: 'personal' };
  return { count: keys.length, keys: keys.slice(0, MAX_LISTED), withheld: null };
}

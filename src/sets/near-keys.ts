// "Did you mean": for a key that is not in the recorded set, the recorded keys it may be a slip of —
// the same ignoring case, ignoring leading zeros, or one character typed wrong, left out or added.
// Only ever a suggestion in an error: the tool never removes a key it was not given.

/** Whether two keys differ by at most one edit (a character replaced, inserted or deleted). */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const unpadded = (key: string) => key.replace(/^0+(?=\d)/, '');

/** At most `max` recorded keys close to `key`, the closest kinds of slip first. */
export function nearKeys(key: string, recorded: Iterable<string>, max = 3): string[] {
  const lower = key.toLowerCase();
  const bare = unpadded(key);
  const sameish: string[] = [];
  const typo: string[] = [];
  for (const candidate of recorded) {
    if (candidate === key) continue;
    if (candidate.toLowerCase() === lower || unpadded(candidate) === bare) sameish.push(candidate);
    else if (key.length >= 3 && typo.length < max && oneEditApart(candidate, key)) typo.push(candidate);
    if (sameish.length >= max) break;
  }
  return [...sameish, ...typo].slice(0, max);
}

// "Nothing recorded yet", said one way by every command that builds on the recorded uploads (restore,
// export, remove, merge, apply): NO_HISTORY, exit 2. The fix is always where the command looks (the
// address, the state store, the target) or a first complete upload; no guard was consulted, so it is
// not a refusal (exit 4). Why this code: docs/decisions.md.
import { KINDS, type Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';

/**
 * @param where the service address (as recorded) and the store's label, when known
 * @param needs what the command would have built on it: "to restore", "to remove keys from"…
 */
export function nothingRecorded(kind: Kind, where: { baseUrl?: string | undefined; store?: string | undefined }, needs: string): UsageError {
  const to = where.baseUrl ? ` to ${where.baseUrl.replace(/\/$/, '')}` : '';
  const inStore = where.store ? ` in ${where.store}` : '';
  return new UsageError(
    'NO_HISTORY',
    `no upload of ${KINDS[kind].noun}s${to} is recorded${inStore}, so there is nothing ${needs}`,
    `check --base-url, --state and --target (\`upload history ${kind}\` lists what is recorded), or upload the complete set once first (upload ${kind} FILE)`,
  );
}

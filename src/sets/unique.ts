// A set built from two sources — the file and the recorded upload (--merge), or the recorded upload
// alone with keys taken out, or with removals held back — must be as unique as a file is: one key, and
// for team members one email (ignoring case), per record. The file was checked on its own; this checks
// the whole set that will be sent, so a new hire given the email of someone kept is stopped here, not
// by the service.
import { KINDS, type Kind } from '../contract/kinds.js';
import type { RecordSet } from './index.js';

export interface Clash {
  readonly field: string;
  /** The value as the later record writes it. */
  readonly value: string;
  /** The keys of the two records, in the order they are sent. */
  readonly first: string;
  readonly second: string;
}

/** Clashes listed at most; a set with more is named by its first ones. */
const MAX_CLASHES = 20;

export function setClashes(kind: Kind, set: RecordSet): Clash[] {
  const keyField = KINDS[kind].keyField;
  const clashes: Clash[] = [];
  const keys = new Map<string, string>();
  const emails = new Map<string, string>();
  for (let i = 0; i < set.keys.length && clashes.length < MAX_CLASHES; i++) {
    const key = set.keys[i]!;
    const seen = keys.get(key);
    if (seen !== undefined) clashes.push({ field: keyField, value: key, first: seen, second: key });
    else keys.set(key, key);
    if (kind !== 'team-members') continue;
    const email = (JSON.parse(set.bodies[i]!) as { email?: unknown }).email;
    if (typeof email !== 'string' || email === '') continue;
    const folded = email.toLowerCase();
    const holder = emails.get(folded);
    if (holder !== undefined && holder !== key) clashes.push({ field: 'email', value: email, first: holder, second: key });
    else emails.set(folded, key);
  }
  return clashes;
}

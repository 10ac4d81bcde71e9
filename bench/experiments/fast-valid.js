// EXPERIMENT: a hand-written check that agrees with the zod wire schemas on the records mapRecord
// builds (it says "valid" only where zod would; anything else falls back to zod, which stays the
// source of every message). Only the accept side needs to be fast.
import { HOUR_BOUNDS, isEmail } from '../../dist/contract/schemas.js';

const S = HOUR_BOUNDS.since;
const T = HOUR_BOUNDS.to;
const nonEmpty = (v) => typeof v === 'string' && /\S/.test(v);
const nullableNonEmpty = (v) => v === null || nonEmpty(v);
const hourOk = (v, b) => typeof v === 'number' && Number.isFinite(v) && v >= b.min && v <= b.max;

function keysExactly(o, n) {
  let k = 0;
  for (const _ in o) k++;
  return k === n;
}

export function teamMemberValid(c) {
  return keysExactly(c, 5) && nonEmpty(c.employeeID) && typeof c.email === 'string' && isEmail(c.email) && nonEmpty(c.name) && nullableNonEmpty(c.roleCode) && nullableNonEmpty(c.parentKey);
}

export function storeCardValid(c) {
  if (!keysExactly(c, 4) || !nonEmpty(c.nodeKey) || typeof c.email !== 'string' || !isEmail(c.email)) return false;
  const code = c.storeConceptCode;
  if (code !== null && !(typeof code === 'number' && Number.isFinite(code))) return false;
  const p = c.opentToGuestsPeriod;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return false;
  for (const day in p) {
    if (day.length !== 1 || day < '0' || day > '6') return false;
    const d = p[day];
    if (d === undefined) continue;
    if (d === null || typeof d !== 'object' || !keysExactly(d, 2) || !hourOk(d.since, S) || !hourOk(d.to, T) || !(d.since < d.to)) return false;
  }
  return true;
}

/** A stand-in for Validator's zod schema: the fast check first, zod when it says no. */
export function fastSchema(kind, zodSchema) {
  const valid = kind === 'team-members' ? teamMemberValid : storeCardValid;
  return { safeParse: (c) => (valid(c) ? { success: true, data: c } : zodSchema.safeParse(c)) };
}

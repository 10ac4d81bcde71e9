// A refusal for missing rights that says which role the person lacks (docs/state.md, "Four eyes: who
// planned, who approved"). The roles are found by what they may do, not by their names: the group roles
// that hold the right in this database (upload_planner, upload_approver, upload_sender as documented,
// or whatever the administrator called them), so the GRANT the message gives is one that works here.
import { UsageError } from '../errors.js';
import type { Query } from './pg-session.js';

/** What a run needs a right for, and the right that shows a role has it. */
const NEEDS = {
  plan: { what: 'make plans', documented: 'upload_planner', check: `has_any_column_privilege(r.oid, 'upload_plans', 'INSERT')` },
  approve: { what: 'approve plans', documented: 'upload_approver', check: `has_any_column_privilege(r.oid, 'upload_approvals', 'INSERT')` },
  send: { what: 'send and record uploads', documented: 'upload_sender', check: `has_table_privilege(r.oid, 'upload_leases', 'INSERT')` },
} as const;

export type Need = keyof typeof NEEDS;

/**
 * The store's STATE_UNUSABLE for a permission the role lacks (SQLSTATE 42501), made to name the role
 * to grant; any other failure is returned as it was.
 */
export async function lackingRole(q: Query, label: string, need: Need, err: unknown): Promise<unknown> {
  const cause = (err as { cause?: { code?: string } } | undefined)?.cause;
  if ((err as { code?: string }).code !== 'STATE_UNUSABLE' || cause?.code !== '42501') return err;
  const { what, documented, check } = NEEDS[need];
  let me: string;
  let groups: string[];
  try {
    me = (await q<{ me: string }>('SELECT session_user AS me')).rows[0]!.me;
    // Roles nobody logs in as that hold the right: the groups a person is made a member of.
    const { rows } = await q<{ name: string }>(
      `SELECT r.rolname AS name FROM pg_roles r WHERE NOT r.rolcanlogin AND r.rolname !~ '^pg_' AND ${check} ORDER BY r.rolname`,
    );
    groups = rows.map((r) => r.name);
  } catch {
    // Asking failed too: the database's own words stand.
    return err;
  }
  const quoted = (name: string) => (/^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`);
  const message = `role ${me} may not ${what} in ${label} (${(err as Error).message.replace(/^the role in .*? may not do what the tool needs \((.*)\)$/, '$1')})`;
  const hint = groups.length
    ? `role ${me} is not a member of ${groups.join(' or ')}: as an administrator, run GRANT ${quoted(groups[0]!)} TO ${quoted(me)}`
    : `no role in this database may ${what}: as an administrator, create ${documented} with the grants in docs/state.md (section "Four eyes: who planned, who approved"), then GRANT ${documented} TO ${quoted(me)}`;
  return new UsageError('STATE_UNUSABLE', message, hint, { cause: (err as Error).cause ?? err });
}

// The policy of an address and the plans kept awaiting approval, on PostgreSQL (docs/state.md, "The
// policy of an address"). The database itself keeps the rule: who set a policy is stamped by a
// trigger (session_user), anyone may record a stricter one only through upload_strengthen_policy (a
// SECURITY DEFINER function that compares it with the recorded one), only a role with UPDATE on
// upload_policies (the store's administrator) may write a weaker one, and a trigger on the history and
// the intents refuses an upload of an address whose policy asks approvals without them — so a client
// that skips the tool's checks cannot record history as if they had passed.
import { GuardRefusal, type UploadError } from '../errors.js';
import type { Policy, RecordedPolicy, StateKey, WaitingPlan } from './types.js';

export const POLICY_SQL = `
CREATE TABLE IF NOT EXISTS upload_policies (
  base_url text        PRIMARY KEY,   -- the normalised service address
  policy   jsonb       NOT NULL,      -- protected, approvals, approvalHours, autoApply
  set_by   text        NOT NULL DEFAULT session_user,
  set_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS upload_waiting (
  id         bigserial   PRIMARY KEY,
  base_url   text        NOT NULL,
  kind       text        NOT NULL,
  plan_id    text        NOT NULL,
  digest     text        NOT NULL,
  document   text        NOT NULL,   -- the plan, as a plan file holds it
  body       bytea       NOT NULL,   -- its exact bytes
  planned_by text        NOT NULL DEFAULT session_user,
  planned_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (base_url, kind, plan_id)
);
CREATE OR REPLACE FUNCTION upload_policy_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.set_by := session_user;
  NEW.set_at := now();
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER upload_policy_stamp BEFORE INSERT OR UPDATE ON upload_policies
  FOR EACH ROW EXECUTE FUNCTION upload_policy_stamp();
CREATE OR REPLACE FUNCTION upload_limit_at_least(n text, o text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT o IS NULL OR (n IS NOT NULL AND (
         ((right(n, 1) = '%') = (right(o, 1) = '%') AND rtrim(n, '%')::numeric <= rtrim(o, '%')::numeric)
      OR (right(n, 1) <> '%' AND right(o, 1) = '%')))
$$;
CREATE OR REPLACE FUNCTION upload_policy_at_least(n jsonb, o jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT (n->>'approvals')::int >= (o->>'approvals')::int
     AND upload_limit_at_least(n->'limits'->>'maxRemovals', o->'limits'->>'maxRemovals')
     AND upload_limit_at_least(n->'limits'->>'maxChanges', o->'limits'->>'maxChanges')
     AND upload_limit_at_least(n->'limits'->>'maxEmptied', o->'limits'->>'maxEmptied')
     AND ((o->>'protected')::boolean IS NOT TRUE OR (n->>'protected')::boolean IS TRUE)
     AND ((o->>'approvals')::int = 0 OR (
          (n->>'approvalHours')::float8 <= (o->>'approvalHours')::float8
      AND (coalesce(jsonb_typeof(n->'autoApply'), 'null') = 'null' OR (
               coalesce(jsonb_typeof(o->'autoApply'), 'null') = 'object'
           AND (n->'autoApply'->>'maxAdded')::float8 <= (o->'autoApply'->>'maxAdded')::float8
           AND (n->'autoApply'->>'maxRemoved')::float8 <= (o->'autoApply'->>'maxRemoved')::float8
           AND ((jsonb_typeof(n->'autoApply'->'maxChanged') = jsonb_typeof(o->'autoApply'->'maxChanged')
                 AND rtrim(n->'autoApply'->>'maxChanged', '%')::float8 <= rtrim(o->'autoApply'->>'maxChanged', '%')::float8)
                OR rtrim(n->'autoApply'->>'maxChanged', '%')::float8 = 0)))))
$$;
CREATE OR REPLACE FUNCTION upload_strengthen_policy(address text, stricter jsonb) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE recorded jsonb;
BEGIN
  SELECT policy INTO recorded FROM upload_policies WHERE base_url = address FOR UPDATE;
  IF recorded IS NOT NULL AND NOT upload_policy_at_least(stricter, recorded) THEN
    RAISE EXCEPTION 'the policy recorded for % asks more than this one; only the store''s administrator may weaken it', address
      USING ERRCODE = '42501';
  END IF;
  INSERT INTO upload_policies (base_url, policy) VALUES (address, stricter)
    ON CONFLICT (base_url) DO UPDATE SET policy = EXCLUDED.policy;
END $$;
CREATE OR REPLACE FUNCTION upload_check_approvals() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  rule jsonb;
  story jsonb;
  approved integer;
BEGIN
  SELECT policy INTO rule FROM upload_policies WHERE base_url = NEW.base_url;
  IF coalesce((rule->>'approvals')::integer, 0) = 0 THEN RETURN NEW; END IF;
  IF TG_TABLE_NAME = 'upload_intents' THEN story := NEW.meta->'approval'; ELSE story := NEW.approval; END IF;
  IF story IS NULL OR jsonb_typeof(story) <> 'object' THEN
    RAISE EXCEPTION 'the policy of % asks % approval(s), and this upload records none', NEW.base_url, rule->>'approvals'
      USING ERRCODE = '42501', HINT = 'plan, approve and apply (docs/review-then-apply.md)';
  END IF;
  IF jsonb_typeof(story->'policy') = 'object' THEN
    IF coalesce(jsonb_typeof(rule->'autoApply'), 'null') <> 'object' THEN
      RAISE EXCEPTION 'the policy of % allows no upload approved by policy', NEW.base_url USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
  END IF;
  SELECT count(DISTINCT a.approved_by) INTO approved FROM upload_approvals a
   WHERE a.base_url = NEW.base_url AND a.kind = NEW.kind AND a.digest = story->>'digest'
     AND a.approved_at > now() - make_interval(secs => (rule->>'approvalHours')::float8 * 3600)
     AND a.approved_by NOT IN (SELECT p.planned_by FROM upload_plans p WHERE p.base_url = NEW.base_url AND p.kind = NEW.kind AND p.digest = story->>'digest')
     AND EXISTS (SELECT 1 FROM upload_plans p WHERE p.base_url = NEW.base_url AND p.kind = NEW.kind AND p.digest = story->>'digest');
  IF approved < (rule->>'approvals')::integer THEN
    RAISE EXCEPTION 'the policy of % asks % approval(s) of the plan by others than its planner, and it has %', NEW.base_url, rule->>'approvals', approved
      USING ERRCODE = '42501';
  END IF;
  IF TG_TABLE_NAME = 'upload_generations' AND EXISTS (
       SELECT 1 FROM upload_generations g WHERE g.base_url = NEW.base_url AND g.kind = NEW.kind
          AND g.generation <> NEW.generation AND g.approval->>'digest' = story->>'digest') THEN
    RAISE EXCEPTION 'the plan % was applied already', story->>'digest' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER upload_generations_approvals BEFORE INSERT OR UPDATE OF approval, sha256 ON upload_generations
  FOR EACH ROW EXECUTE FUNCTION upload_check_approvals();
CREATE OR REPLACE TRIGGER upload_intents_approvals BEFORE INSERT ON upload_intents
  FOR EACH ROW EXECUTE FUNCTION upload_check_approvals();`;

export const POLICY_TABLES = ['upload_policies', 'upload_waiting'];

type Query = <R extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<{ rows: R[] }>;

/** A statement the database refused for want of a right (SQLSTATE 42501), as the store reports it. */
function refusedRight(err: unknown): boolean {
  return ((err as UploadError).cause as { code?: string } | undefined)?.code === '42501';
}

export async function readPolicy(q: Query, address: string): Promise<RecordedPolicy | undefined> {
  const { rows } = await q<{ policy: Policy; set_by: string; set_at: string }>('SELECT policy, set_by, set_at FROM upload_policies WHERE base_url = $1', [
    address,
  ]);
  const row = rows[0];
  return row ? { address, policy: row.policy, setBy: row.set_by, setAt: new Date(row.set_at).toISOString() } : undefined;
}

export async function policyAddresses(q: Query): Promise<string[]> {
  return (await q<{ base_url: string }>('SELECT base_url FROM upload_policies ORDER BY base_url')).rows.map((r) => r.base_url);
}

/** Stricter: through the database's function, which anyone may call. Weaker: a direct write, which only the administrator may make. */
export async function writePolicy(q: Query, address: string, policy: Policy, weaker: boolean, how: 'strengthen' | 'set', label: string): Promise<void> {
  const me = async () => (await q<{ who: string }>('SELECT session_user AS who')).rows[0]!.who;
  const refuse = async (err: unknown) =>
    new GuardRefusal(
      'POLICY_WEAKER',
      `the policy recorded for ${address} in ${label} asks more than this one, and only the store's administrator (a role with UPDATE on upload_policies: the table's owner, or a member of upload_admin as docs/state.md grants) may weaken it; ${await me()} may only record a stricter one; nothing was recorded`,
      'ask the administrator to run: upload policy set with the same target',
      { cause: err },
    );
  try {
    if (weaker && how === 'set')
      await q('INSERT INTO upload_policies (base_url, policy) VALUES ($1, $2) ON CONFLICT (base_url) DO UPDATE SET policy = EXCLUDED.policy', [
        address,
        JSON.stringify(policy),
      ]);
    else await q('SELECT upload_strengthen_policy($1, $2::jsonb)', [address, JSON.stringify(policy)]);
  } catch (err) {
    if (refusedRight(err)) throw await refuse(err);
    throw err;
  }
}

export async function keepPlan(q: Query, key: StateKey, plan: { planId: string; digest: string; document: string }, body: Buffer): Promise<void> {
  await q(
    'INSERT INTO upload_waiting (base_url, kind, plan_id, digest, document, body) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (base_url, kind, plan_id) DO NOTHING',
    [key.baseUrl, key.kind, plan.planId, plan.digest, plan.document, body],
  );
}

export async function listWaiting(q: Query, key: StateKey): Promise<WaitingPlan[]> {
  const { rows } = await q<{ plan_id: string; digest: string; document: string; planned_by: string; planned_at: string }>(
    'SELECT plan_id, digest, document, planned_by, planned_at FROM upload_waiting WHERE base_url = $1 AND kind = $2 ORDER BY id',
    [key.baseUrl, key.kind],
  );
  return rows.map((r, i) => ({
    number: i + 1,
    planId: r.plan_id,
    digest: r.digest,
    document: r.document,
    planner: r.planned_by,
    plannedAt: new Date(r.planned_at).toISOString(),
  }));
}

export async function readWaitingBody(q: Query, key: StateKey, planId: string): Promise<Buffer> {
  const { rows } = await q<{ body: Buffer }>('SELECT body FROM upload_waiting WHERE base_url = $1 AND kind = $2 AND plan_id = $3', [
    key.baseUrl,
    key.kind,
    planId,
  ]);
  if (!rows[0]) throw new Error(`the kept plan ${planId} is not in the store`);
  return rows[0].body;
}

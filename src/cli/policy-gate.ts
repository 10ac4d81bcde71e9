// The policy in the store, before a run that writes (docs/review-then-apply.md, "The policy lives in
// the store"): the run's state store is opened for its address and the policy recorded there is laid
// over what the config asks — the stricter of the two, whether or not there is a config file. A run
// whose target asks more than the store records records the stronger policy, so that the next run,
// config or not, obeys it too.
import type { Settings } from '../config/settings.js';
import { GuardRefusal, UsageError } from '../errors.js';
import type { Flags } from './flags.js';
import type { AutoApply, Policy, RecordedPolicy, StateStore } from '../state/types.js';
import type { FourEyes } from '../pipeline/approval.js';
import type { Targeted } from './targets.js';

export interface StorePolicy {
  readonly address: string;
  readonly store: StateStore;
  readonly recorded: RecordedPolicy | undefined;
  /** What the config target asks (undefined: no target, or nothing protective). */
  readonly config: Policy | undefined;
  /** The stricter of the two (and --approvals). */
  readonly effective: Policy | undefined;
  /** Said to the person: what was recorded. */
  readonly notices: readonly string[];
}

/** The address and store a run would use, or undefined when it has neither (a dry run with no address). */
export async function readStorePolicy(
  chosen: Targeted,
  open: (spec: string) => Promise<StateStore>,
  record: boolean,
  /** The address the command's argument names (a saved plan's), when no flag, target or variable does. */
  named?: string,
): Promise<StorePolicy | undefined> {
  const base = chosen.settings.baseUrl.value ?? named;
  const spec = chosen.settings.state.value;
  if (typeof base !== 'string' || typeof spec !== 'string' || spec === '') return undefined;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    // A bad address is refused, as ever, by the run itself.
    return undefined;
  }
  const [{ policyAddress, policyOfTarget }, { stricterPolicy, samePolicy, describePolicy }] = await Promise.all([
    import('../plans/policy.js'),
    import('../guard/policy.js'),
  ]);
  const store = await open(spec);
  let address = policyAddress(url);
  let recorded = await store.policy(address);
  if (!recorded) {
    // Another spelling of the same service (a name and the IP it resolves to, `localhost.`) is the same
    // address (../config/address.ts): its policy is this run's, and a stronger one is recorded there.
    const { resolverForRun, sameService } = await import('../config/address.js');
    const resolve = resolverForRun();
    for (const other of await store.policyAddresses()) {
      if (other !== address && (await sameService(other, address, resolve))) {
        address = other;
        recorded = await store.policy(other);
        break;
      }
    }
  }
  const config = policyOfTarget(chosen.target?.target);
  const notices: string[] = [];
  const wanted = stricterPolicy(config, recorded?.policy);
  if (record && config && wanted && (!recorded || !samePolicy(wanted, recorded.policy))) {
    recorded = await store.setPolicy(address, wanted, 'strengthen');
    notices.push(
      `Recorded in ${store.label} the policy of ${address}, from the target '${chosen.target!.name}': ${describePolicy(recorded.policy)}. Every run that opens this store for this address obeys it, config file or not.`,
    );
  }
  const fromFlag: Policy | undefined =
    chosen.flags.approvals !== undefined && chosen.fourEyes
      ? { protected: false, approvals: chosen.fourEyes.approvals, approvalHours: chosen.fourEyes.hours, autoApply: null }
      : undefined;
  const effective = stricterPolicy(stricterPolicy(config, recorded?.policy), fromFlag);
  return { address, store, recorded, config, effective, notices };
}

/**
 * An address the store records as protected, in a run with no target: it is written only to an
 * address named on the command line (--base-url), never one an environment variable supplied, as a
 * protected target is only ever chosen by --target.
 */
export function checkNamedAddress(p: StorePolicy, settings: Targeted['settings']): void {
  const from = settings.baseUrl.from;
  if (from === '--base-url') return;
  throw new UsageError(
    'PROTECTED_TARGET',
    `${p.address} is protected by the policy recorded in ${p.store.label}, and this run's address came from ${from}, not the command line; nothing was read or sent`,
    `name it on the command line: --base-url ${p.address}`,
  ).withFixes({ kind: 'flags', args: ['--base-url', p.address] });
}

const FLAG_OF = { maxRemovals: '--max-removals', maxChanges: '--max-changes', maxEmptied: '--max-emptied' } as const;

/**
 * The guard floors: a limit the policy records is the most a run at the address may allow. One that
 * came from the target, a variable or the default is lowered to it (and says so in its source); one
 * given on the command line that allows more is refused (POLICY_WEAKER), never silently lowered.
 */
export async function withFloors(p: StorePolicy, settings: Settings, given: (flag: string) => boolean): Promise<{ settings: Settings; flags: Partial<Flags> }> {
  const { FLOOR_KEYS, tighterLimit } = await import('../guard/policy.js');
  let next = settings;
  const flags: Record<string, string> = {};
  for (const key of FLOOR_KEYS) {
    const floor = p.effective?.limits?.[key];
    const current = String(settings[key].value);
    if (floor === undefined || tighterLimit(current, floor) === current) continue;
    if (given(key))
      throw new GuardRefusal(
        'POLICY_WEAKER',
        `${FLAG_OF[key]} ${current} allows more than the policy recorded in ${p.store.label} lets any run at ${p.address} allow (${floor}); nothing was read or sent`,
        `allow at most that: ${FLAG_OF[key]} ${floor} (a larger limit takes the store's administrator: upload policy set)`,
      ).withFixes({ kind: 'flags', args: [FLAG_OF[key], floor] });
    next = { ...next, [key]: { value: floor, from: `the policy in ${p.store.label}` } };
    flags[key] = floor;
  }
  return { settings: next, flags };
}

/** The rule four eyes applies: the effective policy's approvals, validity and autoApply. */
export function ruleOf(policy: Policy | undefined): FourEyes | undefined {
  return policy?.approvals ? { approvals: policy.approvals, hours: policy.approvalHours, autoApply: policy.autoApply } : undefined;
}

const sameBounds = (a: AutoApply, b: AutoApply | null | undefined): boolean =>
  !!b && a.maxAdded === b.maxAdded && a.maxRemoved === b.maxRemoved && String(a.maxChanged) === String(b.maxChanged);

/** `upload config`'s protective settings: the effective value of each and where it came from; a store that cannot be read is said, not fatal. */
export async function protection(
  run: Pick<Targeted, 'settings' | 'target' | 'flags'>,
  open: (spec: string) => Promise<StateStore>,
): Promise<{ lines: string[]; data: Record<string, { value: unknown; from: string }> | null }> {
  const { policyOfTarget } = await import('../plans/policy.js');
  const config = policyOfTarget(run.target?.target);
  let gate: StorePolicy | undefined;
  let unread = '';
  try {
    gate = await readStorePolicy({ ...run, config: undefined, fourEyes: undefined }, open, false);
  } catch (err) {
    unread = ` (the state store could not be read: ${(err as Error).message})`;
  }
  const data = policySources(gate, config);
  const lines = [`Protective settings (the stricter of the config and the policy the state store records for the address)${unread}:`];
  const { describeBounds } = await import('../guard/policy.js');
  const shown = (key: string, v: unknown) =>
    v === null ? '(none)' : key === 'autoApply' ? describeBounds(v as AutoApply) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : JSON.stringify(v);
  for (const [key, s] of Object.entries(data)) lines.push(`  ${key.padEnd(14)}  ${shown(key, s.value)}  ← ${s.from}`);
  return { lines, data };
}

/** Where each protective setting comes from, for `upload config`: the config, the store, both, or neither. */
export function policySources(p: StorePolicy | undefined, config: Policy | undefined): Record<string, { value: unknown; from: string }> {
  const effective = p?.effective ?? config;
  const recorded = p?.recorded?.policy;
  const from = (key: keyof Policy, asks: (x: Policy) => boolean): string => {
    const inConfig = config !== undefined && asks(config);
    const inStore = recorded !== undefined && asks(recorded);
    return inConfig && inStore
      ? 'both'
      : inConfig
        ? 'config'
        : inStore
          ? `store (${p!.store.label}, set by ${p!.recorded!.setBy} at ${p!.recorded!.setAt})`
          : 'default';
  };
  const e = effective;
  const floors = Object.fromEntries(
    (['maxRemovals', 'maxChanges', 'maxEmptied'] as const)
      .filter((k) => e?.limits?.[k] !== undefined)
      .map((k) => [`${k} (floor)`, { value: e!.limits![k], from: from('limits', (x) => x.limits?.[k] === e!.limits![k]) }]),
  );
  return {
    ...floors,
    protected: { value: e?.protected ?? false, from: from('protected', (x) => x.protected) },
    approvals: { value: e?.approvals ?? 0, from: from('approvals', (x) => x.approvals > 0 && x.approvals === e?.approvals) },
    approvalHours: {
      value: e?.approvals ? e.approvalHours : null,
      from: from('approvalHours', (x) => x.approvals > 0 && x.approvalHours === e?.approvalHours),
    },
    autoApply: {
      value: e?.approvals ? e.autoApply : null,
      from: from('autoApply', (x) => x.approvals > 0 && x.autoApply !== null && sameBounds(x.autoApply, e?.autoApply)),
    },
  };
}

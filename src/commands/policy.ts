// `upload policy show|set`: the protective settings an address's state store records
// (docs/review-then-apply.md, "The policy lives in the store"). Every run that opens the store for the
// address obeys them, config file or not; a run whose target asks more records the stronger policy by
// itself, and only the store's administrator may record a weaker one, with `set`.
import { defineCommand } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';

export default defineCommand({
  description: `show: what the state store records for the service's address — approvals and how long each counts, protected, the autoApply bounds — who recorded it and when. Every run that opens the store for this address obeys it, with or without a config file (the stricter of the config and the store).

set: record the target's protective settings ("protected", "approvals", "approvalHours", "autoApply") as the address's policy, exactly. Anyone may record a stricter policy (a run whose target asks more does so by itself); a weaker one only the store's administrator: on PostgreSQL a role with UPDATE on upload_policies (docs/state.md), on a directory store the owner of its folder (else POLICY_WEAKER, nothing recorded).`,
  examples: [
    '$ upload policy show --target production',
    "$ upload policy set --target production          as the store's administrator, to weaken it",
    '$ upload policy show --base-url https://scheduling.example.com --state postgres://db.example.com/scheduling --json',
  ],
  flags: ['baseUrl', ...GROUPS.store, 'json', ...GROUPS.target],
  run: async ({ args: [action], flags, io, store, say, target }) => {
    const [{ UsageError }, { resolveBaseUrl }, { policyAddress, policyOfTarget, NO_POLICY }, { describeBounds, describePolicy, samePolicy }] =
      await Promise.all([import('../errors.js'), import('../send/config.js'), import('../plans/policy.js'), import('../guard/policy.js')]);
    if (action !== 'show' && action !== 'set')
      throw new UsageError(
        'BAD_USAGE',
        `'${String(action ?? '')}' is not an action of upload policy`,
        `use upload policy show${target ? ` --target ${target.name}` : ''}, or upload policy set --target NAME`,
      );
    const baseUrl = resolveBaseUrl(flags.settings.baseUrl, io.env);
    const opened = await store(String(flags.settings.state.value));
    const address = policyAddress(baseUrl);
    if (action === 'set') {
      if (!target)
        throw new UsageError(
          'BAD_USAGE',
          'upload policy set records the protective settings of a target of the config file, and this run names none',
          'name it: --target NAME',
        );
      const wanted = policyOfTarget(target.target) ?? NO_POLICY;
      const before = await opened.policy(address);
      if (before && samePolicy(before.policy, wanted))
        say(`The policy of ${address} in ${opened.label} is already the target '${target.name}''s: ${describePolicy(wanted)}.`);
      else {
        const after = await opened.setPolicy(address, wanted, 'set');
        say(
          `Recorded in ${opened.label} the policy of ${address}, from the target '${target.name}': ${describePolicy(after.policy)} (was: ${before ? describePolicy(before.policy) : 'none'}).`,
        );
      }
    }
    const recorded = await opened.policy(address);
    if (flags.json !== true) {
      const lines = recorded
        ? [
            `Policy of ${address} in ${opened.label}:`,
            `  approvals      ${recorded.policy.approvals ? `${recorded.policy.approvals} (each valid ${recorded.policy.approvalHours} h)` : 'none'}`,
            `  protected      ${recorded.policy.protected ? 'yes' : 'no'}`,
            `  autoApply      ${recorded.policy.autoApply ? describeBounds(recorded.policy.autoApply) : 'none'}`,
            `  guard floors   ${describePolicy(recorded.policy).split('guard floors: ')[1] ?? 'none'}`,
            `  set by         ${recorded.setBy} at ${recorded.setAt}`,
          ]
        : [`No policy is recorded for ${address} in ${opened.label}: runs there obey their config file alone.`];
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    return { data: { address, store: opened.label, policy: recorded?.policy ?? null, setBy: recorded?.setBy ?? null, setAt: recorded?.setAt ?? null } };
  },
});

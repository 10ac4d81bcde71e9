// `upload release <kind>`: the last recorded set without exactly the keys an upload held back
// (--hold-removals), sent through the engine's frame (../operations/release.ts) like `upload remove`.
import { defineCommand, kindArg } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';

export default defineCommand({
  description:
    'Send the last recorded set of store-cards or team-members without the records an upload kept with --hold-removals (the latest upload, or --generation N), through the same diff, guards, confirmation, lock, send and record as any upload; where the target needs approvals, plan it with --dry-run --plan-out and have it approved, as any other upload. Only keys still held are removed: one removed since, or named again by a later file, stays as it is. Nothing held is NOTHING_HELD; nothing is sent.',
  examples: [
    '$ upload release team-members --target staging --dry-run       what it would remove',
    '$ upload release team-members --target staging --yes',
    '$ upload release team-members --target production --dry-run --plan-out release.plan.json   where four eyes are needed',
  ],
  flags: [
    'releaseGeneration',
    'dryRun',
    'planOut',
    ...GROUPS.sending,
    ...GROUPS.guards.filter((f) => f !== 'maxRemovals'),
    ...GROUPS.output,
    ...GROUPS.state,
    ...GROUPS.target,
    ...GROUPS.fourEyes,
    ...GROUPS.after,
  ],
  kind: ([kind]) => kindArg(kind),
  interruptible: true,
  writes: (flags) => (flags.dryRun === true ? undefined : 'direct'),
  run: async ({ args: [kind], flags, io, run }) => {
    const [{ parseRecordedSet }, { count }, { runRelease }] = await Promise.all([
      import('./shared/options.js'),
      import('./shared/parse.js'),
      import('../operations/release.js'),
    ]);
    const options = await parseRecordedSet(kindArg(kind), flags, io);
    const generation = flags.releaseGeneration === undefined ? undefined : count('--generation', flags.releaseGeneration, 1);
    return runRelease({ ...options, generation }, run);
  },
});

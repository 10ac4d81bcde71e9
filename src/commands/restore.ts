// `upload restore <kind>`: an earlier recorded set sent again through the engine's frame (../operations/restore.ts).
import { defineCommand, kindArg } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';

export default defineCommand({
  description:
    'Send an earlier generation of the store again, through the same diff, guards, confirmation and record as any upload. It becomes a new generation that says what it restored. A nightly job will send its own file again on its next run: pause it first.',
  examples: [
    '$ upload restore team-members --dry-run                 what going back one upload would change',
    '$ upload restore team-members --generation 41 --yes',
    '$ upload restore team-members --generation 41 --dry-run --plan-out back.plan.json   where four eyes are needed',
  ],
  flags: [
    'generation',
    'dryRun',
    'planOut',
    ...GROUPS.sending,
    ...GROUPS.guards,
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
    const [{ parseRecordedSet }, { count }, { runRestore }] = await Promise.all([
      import('./shared/options.js'),
      import('./shared/parse.js'),
      import('../operations/restore.js'),
    ]);
    const options = await parseRecordedSet(kindArg(kind), flags, io);
    const generation = flags.generation === undefined ? undefined : count('--generation', flags.generation, 1);
    return runRestore({ ...options, generation }, run);
  },
});

// `upload store-cards|team-members FILE --merge`: the planned set is the last recorded set with the
// file's records added or put in place of those with the same key. The file is read exactly as for a
// full upload; only where the set comes from differs, so the diff, the guards, the question, the lock,
// the STATE_MOVED check, the send and the record are the upload's own.
import { KINDS } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { nothingRecorded } from '../pipeline/nothing-recorded.js';
import { mergeSets, setOf } from '../sets/index.js';
import type { Definition, Planned } from '../pipeline/definition.js';
import { plannedSet } from '../pipeline/encoded.js';
import type { UploadOptions } from '../pipeline/options.js';
import { uploadDefinition } from '../pipeline/upload.js';

export function mergeDefinition(options: UploadOptions): Definition {
  const upload = uploadDefinition(options);
  const noun = `${KINDS[options.kind].noun}s`;
  return {
    ...upload,
    baseline: async (opened, ctx) => {
      const found = await upload.baseline(opened, ctx);
      if (found.baseline?.source !== 'snapshot') {
        const { state } = opened;
        if (!state)
          throw new UsageError(
            'NO_BASE_URL',
            `--merge adds ${options.source}'s records to the last recorded set of ${noun}, and ${found.why}`,
            'pass --base-url https://… or set UPLOAD_BASE_URL (or --target NAME)',
          );
        throw nothingRecorded(options.kind, { baseUrl: state.key.baseUrl, store: state.store.label }, `to merge ${options.source}'s records onto`);
      }
      return found;
    },
    plan: async (opened, against, ctx): Promise<Planned> => {
      const planned = await upload.plan(opened, against, ctx);
      const recorded = against.baseline!.records;
      if (planned.invalid || !planned.file) return { ...planned, what: { operation: 'merge' } };
      // Every recorded record the merge keeps counts as a holder of its values (its changes).
      return {
        ...planned,
        ...plannedSet(options.kind, recorded, mergeSets(recorded, setOf(planned.file.keys, planned.file.bodies))),
        what: { operation: 'merge' },
      };
    },
  };
}

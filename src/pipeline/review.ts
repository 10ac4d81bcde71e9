// With --report-html: what the review page shows beyond the report — the planned records, the records
// they were compared with, the body's sha256 — gathered from the frame's steps once they are judged.
// A saved plan's baseline is not loaded for the run (the plan carries its diff), so it is read here.
import { KINDS } from '../contract/kinds.js';
import { generationRecords } from './baseline.js';
import type { Judged } from './outputs.js';
import type { Reviewed } from './reviewed.js';

export async function collectReview(review: Reviewed, { def, opened, against, planned }: Judged): Promise<void> {
  const { kind } = opened.target;
  const { file } = planned;
  let keys: readonly string[];
  let bodies: readonly string[];
  if (file) {
    keys = file.keys;
    // The page lists records as text; its rows decode every record anyway (render/html/changes.ts).
    bodies = file.bodies.first(file.bodies.length);
  } else {
    const { decodeCanonical } = await import('../diff/snapshot.js');
    const records = decodeCanonical(Buffer.concat((await planned.payload()).chunks.map((c) => Buffer.from(c))), KINDS[kind].keyField);
    if (!records) return;
    keys = [...records.keys()];
    bodies = [...records.values()];
  }
  const { state, head } = opened;
  const baseline = against.baseline?.records ?? (state && head && against.against.source === 'snapshot' ? await generationRecords(state, head) : undefined);
  review.records = { kind, baseline, keys, bodies };
  if (!planned.invalid) review.sha256 = await (await planned.payload()).digest();
  review.plan =
    (planned.what.operation === 'apply' ? planned.what.savedPlan : undefined) ??
    (def.dryRun && def.outputs?.planOut !== undefined ? def.outputs.planOut : null);
}

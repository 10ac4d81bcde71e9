// `upload history` for a person: one line per upload, newest first, failed attempts under the upload
// they were compared with.
import { plural, thousands } from '../numbers.js';
import { KINDS } from '../contract/kinds.js';
import type { FailedAttempt, HistoryReport } from '../operations/history.js';
import { describeApproval, describeOperation } from '../state/operation.js';
import { saidLines } from './service-said.js';

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const n = (x: number | null) => (x === null ? '?' : thousands(x));

/** The first few keys, and how many more. */
function examples(keys: readonly string[], shown = 5): string {
  return keys.slice(0, shown).join(', ') + (keys.length > shown ? `, and ${keys.length - shown} more` : '');
}

function failedLines(a: FailedAttempt): string[] {
  return [
    `      ✗ ${when(a.time)}  ${a.user}@${a.host}  ${a.source}  ${plural(a.records, 'record')}: ${a.outcome}${a.error ? ` (${a.error}${a.status ? `, HTTP ${a.status}` : ''})` : ''}`,
    ...saidLines(a.said).map((l) => `          ${l}`),
  ];
}

export function formatHistory(h: HistoryReport): string[] {
  const noun = `${KINDS[h.kind].noun}s`;
  if (!h.generations.length && !h.failedBefore.length && !h.pending) return [`No upload of ${noun} to ${h.baseUrl} is recorded in ${h.store}.`];
  const lines = [`Uploads of ${noun} to ${h.baseUrl}, newest first (state: ${h.store}):`];
  const p = h.pending;
  if (p) {
    lines.push(`  #${p.generation}? ${when(p.intendedAt)}  ${p.user}@${p.host}  ${p.source}  ${plural(p.records, 'record')}  sent, not confirmed`);
    lines.push(`        the service may hold it: settle with \`upload state resolve ${h.kind} --sent\` or \`--previous\``);
  }
  for (const g of h.generations) {
    const changes = g.added === null ? 'changes unknown (snapshot not kept)' : `+${n(g.added)} −${n(g.removed)} ~${n(g.changed)}`;
    const held = g.heldRemovals.length ? `  held back ${plural(g.heldRemovals.length, 'removal')}: ${examples(g.heldRemovals)}` : '';
    lines.push(`  #${g.generation}  ${when(g.uploadedAt)}  ${g.user}@${g.host}  ${describeOperation(g)}  ${plural(g.records, 'record')}  ${changes}${held}`);
    if (g.approval) lines.push(`      four eyes: ${describeApproval(g.approval)}`);
    if (g.hoursAsOf) lines.push(`      hours as of ${g.hoursAsOf}: rules bound to dates read for that week`);
    for (const a of g.failed) lines.push(...failedLines(a));
  }
  for (const a of h.failedBefore) lines.push(...failedLines(a));
  return lines;
}

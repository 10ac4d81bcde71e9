// `upload history <kind> --html FILE`: the recorded uploads and the failed attempts between them as
// one self-contained page, sortable and filterable like the review page.
import { KINDS } from '../../contract/kinds.js';
import type { FailedAttempt, HistoryReport } from '../../engine/history.js';
import { describeApproval } from '../../state/operation.js';
import { esc } from './escape.js';
import { page } from './page.js';

const num = (n: number | null) => (n === null ? '?' : n.toLocaleString('en-US'));

function failedRow(a: FailedAttempt, after: string): string {
  return `<tr class="error" data-outcome="${esc(a.outcome)}"><td data-sort="${esc(after)}">✗ failed</td><td class="mono">${esc(a.time)}</td><td>${esc(a.user)}@${esc(a.host)}</td><td>${esc(a.source)}</td><td data-sort="${String(a.records).padStart(12, '0')}">${num(a.records)}</td><td></td><td>${esc(a.outcome)}${a.error ? ` <code>${esc(a.error)}</code>` : ''}${a.status ? ` HTTP ${esc(a.status)}` : ''}</td><td></td></tr>`;
}

export function historyPage(h: HistoryReport, generatedAt: string): string {
  const noun = `${KINDS[h.kind].noun}s`;
  const title = `Uploads of ${noun} to ${h.baseUrl}`;
  const rows: string[] = [];
  for (const g of h.generations) {
    const key = String(g.generation).padStart(9, '0');
    const changes = g.added === null ? 'unknown (snapshot not kept)' : `+${num(g.added)} −${num(g.removed)} ~${num(g.changed)}`;
    const plain = g.restoredFrom !== null ? `restored #${g.restoredFrom}` : g.plan !== null ? `plan ${g.plan}` : 'upload';
    // Four eyes: who planned, approved and applied, as the state store named them.
    const origin = g.approval ? `${plain}; ${describeApproval(g.approval)}` : plain;
    rows.push(
      `<tr data-generation="${g.generation}"><td data-sort="${key}">#${g.generation}</td><td class="mono">${esc(g.uploadedAt)}</td><td>${esc(g.user)}@${esc(g.host)}</td><td>${esc(g.source)}</td><td data-sort="${String(g.records).padStart(12, '0')}">${num(g.records)}</td><td>${esc(changes)}</td><td>${esc(origin)}</td><td class="mono">${esc(g.sha256)}</td></tr>`,
    );
    for (const a of g.failed) rows.push(failedRow(a, key));
  }
  for (const a of h.failedBefore) rows.push(failedRow(a, '000000000'));
  const table = rows.length
    ? `<div class="wrap"><table class="sortable" data-noun="uploads"><thead><tr><th>upload</th><th>when (UTC)</th><th>by</th><th>source</th><th>records</th><th>changes</th><th>how</th><th>sha256</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
    : `<p class="note">No upload of ${esc(noun)} to ${esc(h.baseUrl)} is recorded.</p>`;
  return page(title, [
    `<header><h1>${esc(title)}</h1></header><main>`,
    `<section id="provenance"><h2>Where</h2><dl class="facts"><dt>service</dt><dd>${esc(h.baseUrl)}</dd><dt>kind</dt><dd>${esc(h.kind)}</dd><dt>state store</dt><dd>${esc(h.store)}</dd><dt>page written</dt><dd>${esc(generatedAt)}</dd></dl></section>`,
    `<section id="history"><h2>Uploads, newest first (${num(h.generations.length)})</h2>${table}</section>`,
    `</main><footer>Written by scheduling-upload. This page loads nothing from the network.</footer>`,
  ]);
}

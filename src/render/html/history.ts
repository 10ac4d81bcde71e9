// `upload history <kind> --html FILE`: the recorded uploads and the failed attempts between them as
// one self-contained page, sortable and filterable like the review page.
import { KINDS } from '../../contract/kinds.js';
import type { FailedAttempt, HistoryReport } from '../../operations/history.js';
import { esc } from './escape.js';
import { page } from './page.js';
import { saidLines } from '../service-said.js';
import { uploadWords } from '../upload-words.js';

const num = (n: number | null) => (n === null ? '?' : n.toLocaleString('en-US'));

/** A failed attempt: what happened in words, the service's own reasons, the codes in the details. */
function failedRow(a: FailedAttempt, after: string): string {
  const said = saidLines(a.said);
  const reasons = said.length ? `<ul class="said">${said.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>` : '';
  const details = `${esc(a.source)} · ${esc(a.outcome)}${a.error ? ` <code>${esc(a.error)}</code>` : ''}${a.status ? ` HTTP ${esc(a.status)}` : ''}`;
  return `<tr class="error" data-outcome="${esc(a.outcome)}"><td data-sort="${esc(after)}">✗ not uploaded</td><td class="mono">${esc(a.time)}</td><td>${esc(a.user)}@${esc(a.host)}</td><td>${esc(FAILED_WORDS[a.outcome] ?? 'The upload did not go through')}${reasons}</td><td data-sort="${String(a.records).padStart(12, '0')}">${num(a.records)}</td><td></td><td class="details">${details}</td></tr>`;
}

/** A failed attempt's outcome, said for the person reading the history. */
const FAILED_WORDS: Readonly<Record<string, string>> = {
  rejected: 'The service refused the list; nothing changed there',
  unreachable: 'The service could not be reached; nothing changed there',
  unknown: 'Sent, but no answer came: the service may have taken it',
  unverified: 'Sent, but the answer did not match what was sent',
  interrupted: 'Stopped while sending',
};

export function historyPage(h: HistoryReport, generatedAt: string): string {
  const noun = `${KINDS[h.kind].noun}s`;
  const title = `Uploads of ${noun} to ${h.baseUrl}`;
  const rows: string[] = [];
  for (const g of h.generations) {
    const key = String(g.generation).padStart(9, '0');
    const changes = g.added === null ? 'unknown (snapshot not kept)' : `+${num(g.added)} −${num(g.removed)} ~${num(g.changed)}`;
    const words = uploadWords(g, h.kind);
    const what = `${esc(words[0])}${
      words.length > 1
        ? `<ul class="also">${words
            .slice(1)
            .map((w) => `<li>${esc(w)}</li>`)
            .join('')}</ul>`
        : ''
    }`;
    // The tool's own names (operation, file, plan, body hash) only here, for whoever needs them.
    const details = [
      `operation <code>${esc(g.operation)}</code>`,
      `source <span class="mono">${esc(g.source)}</span>`,
      ...(g.restoredFrom !== null ? [`restoredFrom <code>${esc(g.restoredFrom)}</code>`] : []),
      ...(g.plan !== null ? [`plan <span class="mono">${esc(g.plan)}</span>`] : []),
      ...(g.heldRemovals.length ? [`heldRemovals <code>${esc(g.heldRemovals.length)}</code>`] : []),
      `sha256 <span class="mono">${esc(g.sha256)}</span>`,
    ].join('<br>');
    rows.push(
      `<tr data-generation="${g.generation}" data-operation="${esc(g.operation)}"><td data-sort="${key}">#${g.generation}</td><td class="mono">${esc(g.uploadedAt)}</td><td>${esc(g.user)}@${esc(g.host)}</td><td class="what">${what}</td><td data-sort="${String(g.records).padStart(12, '0')}">${num(g.records)}</td><td>${esc(changes)}</td><td class="details">${details}</td></tr>`,
    );
    for (const a of g.failed) rows.push(failedRow(a, key));
  }
  for (const a of h.failedBefore) rows.push(failedRow(a, '000000000'));
  const table = rows.length
    ? `<div class="wrap"><table class="sortable" data-noun="uploads"><thead><tr><th>upload</th><th>when (UTC)</th><th>by</th><th>what it was</th><th>records</th><th>changes</th><th>details</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
    : `<p class="note">No upload of ${esc(noun)} to ${esc(h.baseUrl)} is recorded.</p>`;
  return page(title, [
    `<header><h1>${esc(title)}</h1></header><main>`,
    `<section id="provenance"><h2>Where</h2><dl class="facts"><dt>service</dt><dd>${esc(h.baseUrl)}</dd><dt>kind</dt><dd>${esc(h.kind)}</dd><dt>state store</dt><dd>${esc(h.store)}</dd><dt>page written</dt><dd>${esc(generatedAt)}</dd></dl></section>`,
    `<section id="history"><h2>Uploads, newest first (${num(h.generations.length)})</h2>${table}</section>`,
    `</main><footer>Written by scheduling-upload. This page loads nothing from the network.</footer>`,
  ]);
}

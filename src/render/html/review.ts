// `--report-html FILE`: the review page of a run. A pure renderer: the run's report, plus — where the
// run got that far — the records it planned and the baseline it compared with, in; one HTML document
// out. Summaries come first; the long lists follow in chunks the browser lays out only when scrolled
// to, and the tables are complete without the script (which adds sorting and a text filter).
import { KINDS } from '../../contract/kinds.js';
import type { ReviewRecords } from '../../pipeline/reviewed.js';
import { changeRows, recordLine, type ChangeRow } from './changes.js';
import { esc, scriptJson } from './escape.js';
import { page } from './page.js';
import { countCards, guardSection, issuesSection, mappingSection, outcomeBanner, provenanceSection, type Provenance, type ReviewReport } from './sections.js';
import { weekGrid, type Week } from './week.js';

export type { ReviewReport, Provenance } from './sections.js';

/** Rows per table body: the unit the browser skips laying out until it is scrolled into view. */
const CHUNK = 500;
/**
 * Changes written as table rows, for a reader without JavaScript; the script pages through all of
 * them from the page's data (a 100,000-row table of markup would take a browser many seconds to open).
 */
export const STATIC_ROWS = 2000;
/** Weekly grids drawn in the page; every store's hours are in the changes table whatever the number. */
export const GRID_LIMIT = 200;

export interface ReviewPageInput {
  readonly report: ReviewReport;
  readonly records: ReviewRecords | undefined;
  readonly provenance: Provenance;
}

const num = (n: number) => n.toLocaleString('en-US');

function fieldList(row: ChangeRow, side: 'before' | 'after'): string {
  if (row.change === 'changed') return `<ul class="lines">${row.fields.map((f) => `<li><code>${esc(f.field)}</code>: ${esc(f[side])}</li>`).join('')}</ul>`;
  const record = row[side];
  return record ? esc(recordLine(record)) : '';
}

function changeRow(row: ChangeRow): string {
  const fields = fieldNames(row);
  return `<tr data-change="${row.change}" data-key="${esc(row.key)}"><td>${row.change}</td><td class="key">${esc(row.key)}</td><td>${esc(row.label)}</td><td>${esc(fields)}</td><td>${fieldList(row, 'before')}</td><td>${fieldList(row, 'after')}</td></tr>`;
}

/** A row as the script's data: change, key, label, fields, and the before and after lines as [field, value]. */
type DataRow = [string, string, string, string, [string, string][], [string, string][]];

function dataRow(row: ChangeRow): DataRow {
  const side = (s: 'before' | 'after'): [string, string][] => {
    if (row.change === 'changed') return row.fields.map((f) => [f.field, f[s]]);
    const record = row[s];
    return record ? [['', recordLine(record)]] : [];
  };
  return [row.change, row.key, row.label, fieldNames(row), side('before'), side('after')];
}

function fieldNames(row: ChangeRow): string {
  return row.change === 'changed' ? row.fields.map((f) => f.field).join(', ') : row.change === 'added' ? '(new record)' : '(whole record)';
}

function changesSection(records: ReviewRecords | undefined, rows: readonly ChangeRow[]): string {
  if (!records) return `<section id="changes"><h2>Changes</h2><p class="note">The run stopped before it had records to compare.</p></section>`;
  const noBaseline =
    records.baseline === undefined
      ? '<p class="note">There was no baseline: every record is listed as added, as nothing is known to be on the service.</p>'
      : '';
  if (!rows.length) return `<section id="changes"><h2>Changes</h2>${noBaseline}<p class="note">No record is added, removed or changed.</p></section>`;
  const by = (c: ChangeRow['change']) => rows.filter((r) => r.change === c).length;
  const radio = (id: string, label: string, checked = false) =>
    `<input type="radio" name="show" id="show-${id}" value="${id}"${checked ? ' checked' : ''}><label for="show-${id}">${label}</label>`;
  const statics = rows.slice(0, STATIC_ROWS);
  const bodies: string[] = [];
  for (let i = 0; i < statics.length; i += CHUNK)
    bodies.push(
      `<tbody class="chunk">${statics
        .slice(i, i + CHUNK)
        .map(changeRow)
        .join('')}</tbody>`,
    );
  const cut =
    rows.length > STATIC_ROWS
      ? `<p class="note static-only">The first ${num(STATIC_ROWS)} of ${num(rows.length)} changes are listed here; with JavaScript on, the table pages through all of them. <code>--diff-out FILE</code> writes every change as CSV.</p>`
      : '';
  const noun = KINDS[records.kind].keyField;
  return (
    `<section id="changes"><h2>Changes (${num(rows.length)})</h2>${noBaseline}${cut}<div class="filters">` +
    radio('all', `all ${num(rows.length)}`, true) +
    radio('added', `added ${num(by('added'))}`) +
    radio('removed', `removed ${num(by('removed'))}`) +
    radio('changed', `changed ${num(by('changed'))}`) +
    `<div class="wrap"><table class="changes" data-noun="changes" data-rows="changes-data"><thead><tr><th>change</th><th>${esc(noun)}</th><th>${records.kind === 'team-members' ? 'name' : 'email'}</th><th>fields</th><th>before</th><th>after</th></tr></thead>${bodies.join('')}</table></div></div>` +
    `<script type="application/json" id="changes-data">${scriptJson(rows.map(dataRow))}</script></section>`
  );
}

function hoursSection(records: ReviewRecords | undefined, rows: readonly ChangeRow[]): string {
  if (records?.kind !== 'store-cards') return '';
  // Changed stores first: they are what a reviewer compares; added ones show their new week.
  const stores = [...rows.filter((r) => r.change === 'changed'), ...rows.filter((r) => r.change === 'added')];
  if (!stores.length) return `<section id="hours"><h2>Opening hours</h2><p class="note">No store is added or changed.</p></section>`;
  const shown = stores.slice(0, GRID_LIMIT);
  const more =
    stores.length > shown.length
      ? `<p class="note">The first ${num(GRID_LIMIT)} of ${num(stores.length)} changed or added stores are drawn; every change of hours is in the changes table, day by day.</p>`
      : '';
  const grids = shown.map((r) =>
    weekGrid(
      `${r.key}${r.label ? ` · ${r.label}` : ''}`,
      r.change as 'added' | 'changed',
      r.change === 'changed' ? ((r.before?.opentToGuestsPeriod ?? {}) as Week) : undefined,
      (r.after?.opentToGuestsPeriod ?? {}) as Week,
    ),
  );
  return `<section id="hours"><h2>Opening hours (${num(stores.length)} stores)</h2><p class="legend">Each day from 06:00 to 06:00 the next morning; the dark line is midnight.<i class="lb"></i>before<i class="la"></i>after</p>${more}<div class="weeks">${grids.join('')}</div></section>`;
}

export function reviewPage(input: ReviewPageInput): string {
  const { report } = input;
  const rows = input.records ? changeRows(input.records) : [];
  const what = report.kind ? `${KINDS[report.kind].noun}s` : 'upload';
  // The outcome is in the title only when it is not what the title already says.
  const plain = report.outcome === (report.dryRun ? 'dry-run' : 'uploaded');
  const title = `${report.dryRun ? 'Dry run' : 'Upload'} of ${what}${report.source ? ` from ${report.source}` : ''}${plain ? '' : `: ${report.outcome}`}`;
  const nav = ['outcome', 'guards', 'provenance', 'mapping', 'changes', ...(input.records?.kind === 'store-cards' ? ['hours'] : []), 'issues']
    .map((id) => `<a href="#${id}">${id}</a>`)
    .join('');
  return page(title, [
    `<header><h1>${esc(title)}</h1><nav>${nav}</nav></header><main>`,
    outcomeBanner(report),
    countCards(report),
    guardSection(report),
    provenanceSection(report, input.provenance),
    mappingSection(report),
    changesSection(input.records, rows),
    hoursSection(input.records, rows),
    issuesSection(report),
    `</main><footer>Written by scheduling-upload. This page loads nothing from the network; its data is the run's report and records.</footer>`,
  ]);
}

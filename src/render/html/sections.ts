// Parts of the review page that render the report's own keys: the outcome, the guards' verdicts, the
// provenance, the mapping and the issues. Every value goes through esc().
import type { UploadReport } from '../../report/report.js';
import { describeBounds } from '../../guard/policy.js';
import { esc } from './escape.js';
import { fieldWords } from '../field-words.js';

/** The report as the page reads it: the keys every run has, and those some commands add. */
export type ReviewReport = Readonly<UploadReport> & {
  readonly heldRemovals?: unknown;
  readonly operation?: unknown;
  readonly target?: unknown;
};

const SUCCESS = new Set(['uploaded', 'dry-run']);
const num = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

export function outcomeBanner(r: ReviewReport): string {
  const tone = !SUCCESS.has(r.outcome) ? 'bad' : r.exitCode === 0 || r.exitCode === 8 ? 'ok' : 'warn';
  const error = r.error ? `<p><code>${esc(r.error.code)}</code> ${esc(r.error.message)}</p>${r.error.hint ? `<p>→ ${esc(r.error.hint)}</p>` : ''}` : '';
  const response = r.response ? `<p>The service answered ${esc(r.response.status)}: ${esc(r.response.message)}</p>` : '';
  const generation = r.generation !== null ? `<p>Recorded as upload #${esc(r.generation)}.</p>` : '';
  return `<div class="banner ${tone}" id="outcome"><div class="outcome">Outcome: <span data-outcome="${esc(r.outcome)}">${esc(r.outcome)}</span> · exit ${esc(r.exitCode)}${r.dryRun ? ' · dry run (nothing sent)' : ''}</div>${error}${response}${generation}</div>`;
}

export function countCards(r: ReviewReport): string {
  const d = r.diff;
  const errors = Object.values(r.issueCounts).reduce((a, b) => a + b, 0);
  const card = (cls: string, label: string, value: string) => `<div class="card ${cls}"><b>${value}</b>${esc(label)}</div>`;
  return `<div class="cards" id="counts">${[
    card('', 'records read', num(r.records)),
    card('added', 'added', num(d?.added)),
    card('removed', 'removed', num(d?.removed)),
    card('changed', 'changed', num(d?.changed)),
    card('', 'unchanged', num(d?.unchanged)),
    card('', 'issues', num(errors)),
  ].join('')}</div>`;
}

function verdictClass(verdict: string): string {
  if (/^(pass|passed|ok|allowed|within|off|disabled|held)/i.test(verdict)) return 'verdict-ok';
  if (/refus|fail|block|exceed/i.test(verdict)) return 'verdict-refused';
  return 'verdict-other';
}

/** Each guard's verdict, whatever the shape the `guards` key takes: a list, or an object by guard. */
export function guardSection(r: ReviewReport): string {
  // Read as data of any shape: a guard added later shows without a change here.
  const guards: unknown = r.guards;
  const entries: [string, Record<string, unknown>][] = Array.isArray(guards)
    ? (guards as unknown[]).map((g, i) => {
        const o = asObject(g);
        return [text(o.guard ?? o.name ?? o.code, String(i)), o];
      })
    : guards && typeof guards === 'object'
      ? Object.entries(guards as Record<string, unknown>).map(([k, v]) => [k, asObject(v)])
      : [];
  const held = Array.isArray(r.heldRemovals) ? (r.heldRemovals as unknown[]) : [];
  const heldPart = held.length
    ? `<p>Removals held back (${num(held.length)}): <span class="mono">${esc(held.slice(0, 200).join(', '))}${held.length > 200 ? ' …' : ''}</span></p>`
    : '';
  // `upload release`: exactly which held removals this set removes, and whose.
  const released = r.released?.keys ?? [];
  const releasedPart = r.released
    ? `<p>Releases the ${num(released.length)} removals upload #${esc(r.released.generation)} held back: <span class="mono">${esc(released.slice(0, 200).join(', '))}${released.length > 200 ? ' …' : ''}</span></p>`
    : '';
  if (!entries.length) {
    const refusal = r.outcome === 'refused' && r.error ? `<p>Refused: <code>${esc(r.error.code)}</code> ${esc(r.error.message)}</p>` : '';
    return `<section id="guards"><h2>Guards</h2>${refusal}<p class="note">No guard judged this run: it stopped before there was a set to judge${refusal ? '' : ', or its guards spoke when its plan was made'}.</p>${heldPart}${releasedPart}</section>`;
  }
  const rows = entries.map(([name, g]) => {
    const verdict = text(g.verdict ?? g.status ?? g.outcome, g.ok === true ? 'passed' : g.ok === false ? 'refused' : '—');
    return `<tr data-guard="${esc(name)}"><td><code>${esc(name)}</code></td><td class="${verdictClass(verdict)}">${esc(verdict)}</td><td>${guardDetails(g)}</td></tr>`;
  });
  return `<section id="guards"><h2>Guards</h2><div class="wrap"><table><thead><tr><th>guard</th><th>verdict</th><th>details</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${heldPart}${releasedPart}</section>`;
}

const KNOWN = ['guard', 'name', 'verdict', 'status', 'outcome', 'ok', 'flag', 'setting', 'count', 'limit', 'field', 'fields', 'why'];

/** One line for a guard: its flag and setting, what it counted against what it allows, per field; then any other keys. */
function guardDetails(g: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof g.flag === 'string') {
    const setting = typeof g.setting === 'boolean' ? (g.setting ? ' given' : ' not given') : g.setting === undefined ? '' : ` ${text(g.setting, '')}`;
    parts.push(`<code>${esc(g.flag)}</code>${esc(setting)}`);
  }
  if (typeof g.count === 'number')
    parts.push(
      `${esc(g.count)} counted${typeof g.limit === 'number' ? `, at most ${esc(g.limit)} allowed` : ''}${typeof g.field === 'string' ? ` (in ${esc(fieldWords(g.field))}, <code>${esc(g.field)}</code>)` : ''}`,
    );
  if (typeof g.why === 'string') parts.push(esc(g.why));
  if (Array.isArray(g.fields) && g.fields.length) parts.push(`per field: ${detail(g.fields)}`);
  for (const [k, v] of Object.entries(g)) if (!KNOWN.includes(k)) parts.push(`${esc(k)}: ${detail(v)}`);
  return parts.join(' · ');
}

/** A guard's detail: a scalar as it is; a list of per-field counts one `field count (of held, limit N)` each. */
function detail(v: unknown): string {
  if (!Array.isArray(v)) return `<span class="mono">${esc(v)}</span>`;
  const items = v.map((item) => {
    if (item === null || typeof item !== 'object') return esc(item);
    const o = item as Record<string, unknown>;
    const head = typeof o.field === 'string' ? `${esc(fieldWords(o.field))} (<code>${esc(o.field)}</code>) ` : '';
    const rest = Object.entries(o).filter(([k]) => k !== 'field');
    return `${head}${rest.map(([k, x]) => `${esc(k)} ${esc(x)}`).join(', ')}`;
  });
  return items.length ? items.join('; ') : '—';
}

/** A scalar as text; anything else (absent, an object) as the fallback. */
function text(v: unknown, fallback: string): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { verdict: v };
}

export interface Provenance {
  readonly command: string;
  readonly generatedAt: string;
  readonly baseUrl: string | null;
  readonly target: string | null;
  /** The request body's sha256 (a plan's body for apply). */
  readonly sha256: string | null;
  readonly plan: string | null;
}

export function provenanceSection(r: ReviewReport, p: Provenance): string {
  const b = r.baseline;
  const fact = (dt: string, dd: string) => `<dt>${esc(dt)}</dt><dd>${dd}</dd>`;
  const baseline =
    b.source === 'snapshot'
      ? `upload #${esc(b.generation)} by ${esc(b.user)}@${esc(b.host)} at ${esc(b.uploadedAt)}, ${num(b.records)} records`
      : b.source === 'file'
        ? `a file (--baseline), ${num(b.records)} records`
        : 'none: nothing to compare with';
  return `<section id="provenance"><h2>Provenance</h2><dl class="facts">${[
    fact('kind', esc(r.kind ?? '—')),
    fact('source', esc(r.source ?? '—')),
    r.operation !== undefined ? fact('operation', esc(r.operation)) : '',
    fact('service', esc(p.baseUrl ?? '— (none given)')),
    fact('target', esc(p.target ?? '— (none)')),
    fact('baseline', baseline),
    fact('baseline sha256', `<span class="mono">${esc(b.sha256 ?? '—')}</span>`),
    p.plan !== null ? fact('plan', esc(p.plan)) : '',
    r.approval ? fact('four eyes', esc(fourEyesWords(r.approval))) : '',
    fact(p.plan !== null ? 'plan body sha256' : 'body sha256', `<span class="mono">${esc(p.sha256 ?? '— (no body: nothing valid to send)')}</span>`),
    fact('command', `<span class="mono">${esc(p.command)}</span>`),
    fact('page written', esc(p.generatedAt)),
  ].join('')}</dl></section>`;
}

/** "approved by policy (autoApply: at most …)", or who planned and approved it. */
function fourEyesWords(a: NonNullable<ReviewReport['approval']>): string {
  const approved = a.policy
    ? `approved by policy (autoApply: ${describeBounds(a.policy)})`
    : `approved by ${a.approvers.map((p) => p.name).join(', ') || 'nobody yet'}`;
  return `planned by ${a.planner}, ${approved}${a.appliedBy ? `, applied by ${a.appliedBy}` : ''}`;
}

export function mappingSection(r: ReviewReport): string {
  if (!r.mapping.length)
    return `<section id="mapping"><h2>Mapping</h2><p class="note">No column mapping (the records did not come from a file read now).</p></section>`;
  const rows = r.mapping.map(
    (m) =>
      `<tr data-field="${esc(m.field)}"><td>${esc(fieldWords(m.field))}</td><td>${m.columns.map((c) => `<span class="mono">${esc(c)}</span>`).join(' + ')}</td><td>${esc(m.note ?? '')}</td><td class="details"><code>${esc(m.field)}</code></td></tr>`,
  );
  return `<section id="mapping"><h2>Mapping</h2><div class="wrap"><table><thead><tr><th>what</th><th>from column(s)</th><th>read as</th><th>details (wire field)</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

export function issuesSection(r: ReviewReport): string {
  const total = Object.values(r.issueCounts).reduce((a, b) => a + b, 0);
  if (!r.issues.length) return `<section id="issues"><h2>Issues</h2><p class="note">No issues.</p></section>`;
  const where = (line: number | null) => `${r.source ?? ''}${line === null ? '' : `:${line}`}`;
  const rows = r.issues.map(
    (i) =>
      `<tr class="${esc(i.severity)}"><td>${esc(i.severity)}</td><td><code>${esc(i.code)}</code></td><td class="mono" data-sort="${String(i.line ?? 0).padStart(9, '0')}">${esc(where(i.line))}</td><td>${esc(i.column ?? '')}</td><td>${esc(i.field === null ? '' : fieldWords(i.field))}</td><td class="mono">${esc(i.value ?? '')}</td><td>${esc(i.message)}</td><td class="details">${i.field ? `<code>${esc(i.field)}</code>` : ''}</td></tr>`,
  );
  const counts = Object.entries(r.issueCounts)
    .map(([code, n]) => `<code>${esc(code)}</code> ${num(n)}`)
    .join(' · ');
  const truncated = r.issuesTruncated
    ? `<p class="note">The first ${num(r.issues.length)} of ${num(total)} issues are listed; every one is counted above.</p>`
    : '';
  return `<section id="issues"><h2>Issues (${num(total)})</h2><p>${counts}</p>${truncated}<div class="wrap"><table class="sortable" data-noun="issues"><thead><tr><th>severity</th><th>code</th><th>where</th><th>column</th><th>what</th><th>value</th><th>message</th><th>details (wire field)</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

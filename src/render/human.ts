// Human renderings of issues, diffs and outcomes: text in, text out; the caller decides where it goes.
import { plural, thousands } from '../numbers.js';
import { describeBaseline } from '../report/report.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import type { OpenPeriod } from '../contract/schemas.js';
import type { Issue } from '../issues.js';
import type { FieldSource } from '../map/describe.js';
import type { BaselineReport } from '../report/report.js';
import { formatPeriod, formatPeriodChange } from './hours.js';

export interface Style {
  bold(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
}

export const PLAIN: Style = { bold: (s) => s, red: (s) => s, yellow: (s) => s, green: (s) => s, dim: (s) => s };

export const SHOWN_ISSUES = 50;

/** `staff.csv:14 E-mail: email 'bob@' is not an email address…`, with the value when the message lacks it. */
export function formatIssue(source: string, i: Issue, style: Style = PLAIN): string {
  const where = i.line === null ? source : `${source}:${i.line}`;
  const column = i.column ? ` ${style.bold(i.column)}` : '';
  const value = i.value !== null && i.value !== '' && !i.message.includes(i.value) ? ` (value: '${i.value}')` : '';
  return `${where}${column}: ${i.message}${value}`;
}

const byLine = (a: Issue, b: Issue) => (a.line ?? 0) - (b.line ?? 0);

/** A warning that recurs more often than this is shown as one line for all of them. */
export const GROUP_AFTER = 3;

/** Errors, then warnings, each under a heading and in file order; capped, with where the rest are. */
export function formatIssues(source: string, issues: readonly Issue[], style: Style = PLAIN, limit = SHOWN_ISSUES): string[] {
  const lines: string[] = [];
  const warnings = issues.filter((i) => i.severity === 'warning');
  const { grouped, single } = groupRepeated(source, warnings);
  const groups = [
    { label: (n: number) => style.red(style.bold(`${plural(n, 'error')}:`)), list: issues.filter((i) => i.severity === 'error'), summary: [] as string[] },
    { label: (n: number) => style.yellow(style.bold(`${plural(n, 'warning')}:`)), list: single, summary: grouped },
  ];
  for (const { label, list, summary } of groups) {
    if (!list.length && !summary.length) continue;
    lines.push(label(list === single ? warnings.length : list.length));
    for (const line of summary) lines.push(`  ${line}`);
    for (const i of list.sort(byLine).slice(0, limit)) lines.push(`  ${formatIssue(source, i, style)}`);
    if (list.length > limit) lines.push(style.dim(`  … and ${list.length - limit} more (all of them are in --json, and rejected rows in --errors-csv)`));
  }
  return lines;
}

/**
 * Warnings that recur (the same code on many rows) as one line each: "10,000 rows point at 40 unknown
 * stores: DE-006, DE-007, … (first at line 5)". The rest are shown one by one.
 */
function groupRepeated(source: string, warnings: readonly Issue[]): { grouped: string[]; single: Issue[] } {
  const byCode = new Map<string, Issue[]>();
  for (const i of warnings) byCode.set(i.code, [...(byCode.get(i.code) ?? []), i]);
  const grouped: string[] = [];
  const single: Issue[] = [];
  for (const [code, list] of byCode) {
    if (list.length <= GROUP_AFTER || list.some((i) => i.line === null)) {
      single.push(...list);
      continue;
    }
    if (code === 'UNKNOWN_COLUMN') {
      grouped.push(unusedColumns(source, list));
      continue;
    }
    const values = [...new Set(list.map((i) => i.value ?? ''))];
    const shown =
      values
        .slice(0, 5)
        .map((v) => `'${v}'`)
        .join(', ') + (values.length > 5 ? ', …' : '');
    const lines = list.map((i) => i.line!).sort((a, b) => a - b);
    const at = `${source}:${lines.slice(0, 3).join(', ')}${lines.length > 3 ? ', …' : ''}`;
    if (code === 'UNKNOWN_PARENT') {
      grouped.push(
        `${plural(list.length, 'row')} point at ${plural(values.length, 'unknown store')}: ${shown} (${at}); ${list[0]!.message.replace(/^parentKey '[^']*' /, 'each ')}`,
      );
    } else {
      grouped.push(`${plural(list.length, 'row')} (${at}): ${list[0]!.message}${values.length > 1 ? ` — values ${shown}` : ''}`);
    }
  }
  return { grouped, single };
}

/** Unused columns named, not counted as rows: "5 columns are not used: 'A', 'B', … and 2 more (stores.csv:1)". */
export const SHOWN_COLUMNS = 10;

function unusedColumns(source: string, list: readonly Issue[]): string {
  const names = [...new Set(list.map((i) => i.column ?? ''))];
  const shown = names
    .slice(0, SHOWN_COLUMNS)
    .map((n) => `'${n}'`)
    .join(', ');
  const more = names.length > SHOWN_COLUMNS ? ` and ${thousands(names.length - SHOWN_COLUMNS)} more` : '';
  const lines = [...new Set(list.map((i) => i.line))].filter((l) => l !== null);
  return `${plural(names.length, 'column')} ${names.length === 1 ? 'is' : 'are'} not used: ${shown}${more} (${source}:${lines.join(', ')}); map them with --map, or leave them out with --ignore-column to silence this`;
}

/** "+12 −3 ~5 =1,214", or a plain statement that there is nothing to compare with. */
export function formatDiffCounts(diff: Diff): string {
  if (diff.baseline === 'none') return 'no baseline to compare with';
  const n = (x: number | null) => thousands(x ?? 0);
  return `+${n(diff.added)} −${n(diff.removed)} ~${n(diff.changed)} =${n(diff.unchanged)}`;
}

export function formatDiff(diff: Diff, style: Style = PLAIN, against?: { baseline: BaselineReport; kind: Kind }): string[] {
  if (diff.baseline === 'none') return [`Changes: ${formatDiffCounts(diff)}`];
  const what = against ? describeBaseline(against.baseline, against.kind) : diff.baseline === 'file' ? 'the baseline file' : 'the last upload';
  const lines = [`Changes against ${what}: ${formatDiffCounts(diff)} (added, removed, changed, unchanged)`];
  const { added, removed, changed } = diff.examples;
  const more = (shown: number, total: number | null) => ((total ?? 0) > shown ? `, … ${(total ?? 0) - shown} more` : '');
  if (added.length) lines.push(style.green(`  added: ${added.join(', ')}${more(added.length, diff.added)}`));
  if (removed.length) lines.push(style.red(`  removed: ${removed.join(', ')}${more(removed.length, diff.removed)}`));
  for (const c of changed) {
    const fields = c.changes.map(formatChange).join('; ');
    lines.push(style.yellow(`  changed ${c.key}: ${fields}`));
  }
  if ((diff.changed ?? 0) > changed.length) lines.push(style.yellow(`  … ${(diff.changed ?? 0) - changed.length} more changed`));
  return lines;
}

/** "Replace all team members at https://… with these 1,234 team members: +12 −3 ~5 =1,214 against upload #41 …. Upload?" */
export function confirmQuestion(request: {
  kind: Kind;
  count: number;
  where: string;
  diff: Diff;
  against?: BaselineReport;
  action?: 'upload' | 'approve';
}): string {
  const { noun } = KINDS[request.kind];
  const { count } = request;
  const against = request.against && request.against.source !== 'none' ? ` against ${describeBaseline(request.against, request.kind)}` : '';
  if (request.action === 'approve')
    return `Approve this plan to replace all ${noun}s at ${request.where} with ${count === 1 ? 'this' : 'these'} ${plural(count, noun)}: ${formatDiffCounts(request.diff)}${against}? Your name is recorded with it.`;
  return `Replace all ${noun}s at ${request.where} with ${count === 1 ? 'this' : 'these'} ${plural(count, noun)}: ${formatDiffCounts(request.diff)}${against}. Upload?`;
}

/** One field's change in words; opening hours as weekday times, only the days that differ. */
export function formatChange(change: { field: string; before: unknown; after: unknown }): string {
  if (change.field === 'opentToGuestsPeriod') return `hours ${formatPeriodChange(change.before, change.after)}`;
  return `${change.field} ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`;
}

/** A record as it will be sent, on one line, hours in human form. */
export function formatRecord(json: string): string {
  const record = JSON.parse(json) as Record<string, unknown>;
  return Object.entries(record)
    .map(([field, value]) =>
      field === 'opentToGuestsPeriod' ? `hours ${formatPeriod(value as OpenPeriod)}` : `${field} ${value === null ? '—' : JSON.stringify(value)}`,
    )
    .join(', ');
}

/** "employeeID ← Personnel Number", the day columns of the hours on one line. */
export function formatMapping(mapping: readonly FieldSource[]): string[] {
  const lines = mapping
    .filter((m) => !m.field.startsWith('opentToGuestsPeriod.'))
    .map((m) => `${m.field} ← ${m.columns.join(' + ')}${m.note ? ` (${m.note})` : ''}`);
  const days = mapping.filter((m) => m.field.startsWith('opentToGuestsPeriod.'));
  if (days.length) lines.push(`opentToGuestsPeriod ← ${days.map((d) => `${d.note!.slice(0, 3)}: ${d.columns.join(' + ')}`).join(' · ')}`);
  return lines;
}

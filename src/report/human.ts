// Human renderings of issues, diffs and outcomes: text in, text out; the caller decides where it goes.
import { KINDS, type Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import type { Issue } from '../issues.js';

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

/** Errors, then warnings, each under a heading and in file order; capped, with where the rest are. */
export function formatIssues(source: string, issues: readonly Issue[], style: Style = PLAIN, limit = SHOWN_ISSUES): string[] {
  const lines: string[] = [];
  const groups = [
    { label: (n: number) => style.red(style.bold(`${plural(n, 'error')}:`)), list: issues.filter((i) => i.severity === 'error') },
    { label: (n: number) => style.yellow(style.bold(`${plural(n, 'warning')}:`)), list: issues.filter((i) => i.severity === 'warning') },
  ];
  for (const { label, list } of groups) {
    if (!list.length) continue;
    lines.push(label(list.length));
    for (const i of list.sort(byLine).slice(0, limit)) lines.push(`  ${formatIssue(source, i, style)}`);
    if (list.length > limit) lines.push(style.dim(`  … and ${list.length - limit} more (all of them are in --json, and rejected rows in --errors-csv)`));
  }
  return lines;
}

/** The closing lines of an invalid run: the counts, then what to do next. */
export function invalidSummary(
  source: string,
  counts: { rows: number; valid: number; errors: number; warnings: number },
  errorsCsv: string | undefined,
): { message: string; hint: string } {
  const rejected = counts.rows - counts.valid;
  const found = `${plural(counts.errors, 'error')}${counts.warnings ? ` and ${plural(counts.warnings, 'warning')}` : ''}`;
  const rows = counts.rows ? ` in ${plural(counts.rows, 'record')} (${rejected.toLocaleString('en-US')} rejected)` : '';
  return {
    message: `${source}: ${found}${rows}; nothing was sent`,
    hint: errorsCsv
      ? `fix the cells named above (the rejected rows are in ${errorsCsv}, with an errors column) in the file, then run again`
      : 'fix the cells named above in the file, then run again (--errors-csv FILE writes the rejected rows to a file)',
  };
}

export function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/** "+12 −3 ~5 =1,214", or a plain statement that there is nothing to compare with. */
export function formatDiffCounts(diff: Diff): string {
  if (diff.baseline === 'none') return 'no baseline to compare with';
  const n = (x: number | null) => (x ?? 0).toLocaleString('en-US');
  return `+${n(diff.added)} −${n(diff.removed)} ~${n(diff.changed)} =${n(diff.unchanged)}`;
}

export function formatDiff(diff: Diff, style: Style = PLAIN): string[] {
  if (diff.baseline === 'none') return [`Changes: ${formatDiffCounts(diff)}`];
  const lines = [`Changes against the ${diff.baseline === 'file' ? 'baseline file' : 'last upload'}: ${formatDiffCounts(diff)} (added, removed, changed, unchanged)`];
  const { added, removed, changed } = diff.examples;
  const more = (shown: number, total: number | null) => ((total ?? 0) > shown ? `, … ${(total ?? 0) - shown} more` : '');
  if (added.length) lines.push(style.green(`  added: ${added.join(', ')}${more(added.length, diff.added)}`));
  if (removed.length) lines.push(style.red(`  removed: ${removed.join(', ')}${more(removed.length, diff.removed)}`));
  for (const c of changed) {
    const fields = c.changes.map((f) => `${f.field} ${JSON.stringify(f.before)} → ${JSON.stringify(f.after)}`).join('; ');
    lines.push(style.yellow(`  changed ${c.key}: ${fields}`));
  }
  if ((diff.changed ?? 0) > changed.length) lines.push(style.yellow(`  … ${(diff.changed ?? 0) - changed.length} more changed`));
  return lines;
}

/** "Replace all team members at https://… with these 1,234 team members: +12 −3 ~5 =1,214. Upload?" */
export function confirmQuestion(request: { kind: Kind; count: number; where: string; diff: Diff }): string {
  const { noun } = KINDS[request.kind];
  const { count } = request;
  return `Replace all ${noun}s at ${request.where} with ${count === 1 ? 'this' : 'these'} ${plural(count, noun)}: ${formatDiffCounts(request.diff)}. Upload?`;
}

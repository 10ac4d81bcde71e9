// Human renderings of issues, diffs and outcomes: text in, text out; the caller decides where it goes.
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

export function formatIssue(source: string, i: Issue, style: Style = PLAIN): string {
  const where = i.line === null ? source : `${source}:${i.line}`;
  const column = i.column ? ` ${style.bold(i.column)}` : '';
  const label = i.severity === 'error' ? style.red('error') : style.yellow('warning');
  return `${where}${column}: ${label}: ${i.message}`;
}

/** Errors first, then warnings, each in file order; capped, with what to do about the rest. */
export function formatIssues(source: string, issues: readonly Issue[], style: Style = PLAIN, limit = SHOWN_ISSUES): string[] {
  const byLine = (a: Issue, b: Issue) => (a.line ?? 0) - (b.line ?? 0);
  const ordered = [...issues.filter((i) => i.severity === 'error').sort(byLine), ...issues.filter((i) => i.severity === 'warning').sort(byLine)];
  const lines = ordered.slice(0, limit).map((i) => formatIssue(source, i, style));
  if (ordered.length > limit) lines.push(style.dim(`… and ${ordered.length - limit} more (all of them are in --json and --errors-csv)`));
  return lines;
}

export function countIssues(issues: readonly Issue[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const i of issues) if (i.severity === 'error') errors++;
  return { errors, warnings: issues.length - errors };
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

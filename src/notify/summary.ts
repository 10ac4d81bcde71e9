// What a notification says about a run: counts, codes and keys, never a name, an email, a message from
// the file or the service, the token or a notification URL. `text` is one line that Slack and Teams
// incoming webhooks show as it is; the other keys are for machines.
import type { UploadReport } from '../report/types.js';

export type NotifyOn = 'failure' | 'change' | 'always';
export const NOTIFY_ON: readonly NotifyOn[] = ['failure', 'change', 'always'];

/** The report as a notification reads it: the keys every run has, and those some commands add. */
export type NotifiedReport = Readonly<UploadReport> & { readonly heldRemovals?: unknown; readonly operation?: unknown };

export interface RunFacts {
  /** The command that ran: store-cards, team-members, restore, apply, remove, … */
  readonly command: string;
  readonly target: string | null;
  readonly host: string;
  readonly durationMs: number;
}

export interface Notification {
  readonly text: string;
  readonly tool: 'scheduling-upload';
  readonly command: string;
  readonly kind: string | null;
  readonly target: string | null;
  readonly dryRun: boolean;
  readonly outcome: string;
  readonly exitCode: number;
  readonly errorCode: string | null;
  readonly counts: {
    readonly records: number;
    readonly added: number | null;
    readonly removed: number | null;
    readonly changed: number | null;
    readonly unchanged: number | null;
    readonly issues: number;
  };
  readonly guards: readonly GuardVerdict[];
  readonly heldRemovals: { readonly count: number; readonly keys: readonly string[] } | null;
  readonly generation: number | null;
  readonly durationMs: number;
  readonly host: string;
  readonly time: string;
}

export interface GuardVerdict {
  readonly guard: string;
  readonly verdict: string;
  /** The guard's numbers (counts, limits); text it carries (examples, values) is left out. */
  readonly numbers: Readonly<Record<string, number>>;
}

/** A failure is any exit but 0 (success) and 8 (success that changed something). */
export function isFailure(exitCode: number): boolean {
  return exitCode !== 0 && exitCode !== 8;
}

export function shouldNotify(on: NotifyOn, report: NotifiedReport): boolean {
  if (on === 'always') return true;
  if (isFailure(report.exitCode)) return true;
  return on === 'change' && report.unchanged !== true;
}

/** Held keys listed in a notification at most; the count is always exact. */
const HELD_KEYS = 50;

export function notification(report: NotifiedReport, facts: RunFacts, now = new Date()): Notification {
  const d = report.diff;
  const issues = Object.values(report.issueCounts).reduce((a, b) => a + b, 0);
  const held = Array.isArray(report.heldRemovals) ? report.heldRemovals.filter((k): k is string => typeof k === 'string') : null;
  const guards = verdicts(report.guards);
  const counts = {
    records: report.records,
    added: d?.added ?? null,
    removed: d?.removed ?? null,
    changed: d?.changed ?? null,
    unchanged: d?.unchanged ?? null,
    issues,
  };
  return {
    text: textLine(report, facts, counts, guards, held),
    tool: 'scheduling-upload',
    command: facts.command,
    kind: report.kind,
    target: facts.target,
    dryRun: report.dryRun,
    outcome: report.outcome,
    exitCode: report.exitCode,
    errorCode: report.error?.code ?? null,
    counts,
    guards,
    heldRemovals: held ? { count: held.length, keys: held.slice(0, HELD_KEYS) } : null,
    generation: report.generation,
    durationMs: Math.round(facts.durationMs),
    host: facts.host,
    time: now.toISOString(),
  };
}

const n = (x: number | null) => (x === null ? '?' : x.toLocaleString('en-US'));

function textLine(
  report: NotifiedReport,
  facts: RunFacts,
  counts: Notification['counts'],
  guards: readonly GuardVerdict[],
  held: readonly string[] | null,
): string {
  const mark = isFailure(report.exitCode) ? '❌' : '✅';
  const what = `${report.kind ?? facts.command}${report.dryRun ? ' dry run' : ''}`;
  const where = facts.target ? ` to ${facts.target}` : '';
  const code = report.error ? `, ${report.error.code}` : '';
  const diff = counts.added === null ? 'no baseline' : `+${n(counts.added)} −${n(counts.removed)} ~${n(counts.changed)}`;
  const refused = guards.filter((g) => /refus|fail|exceed/i.test(g.verdict)).map((g) => g.guard);
  const parts = [
    `${mark} scheduling-upload ${what}${where}: ${report.outcome} (exit ${report.exitCode}${code})`,
    `${n(counts.records)} records, ${diff}`,
    ...(counts.issues ? [`${n(counts.issues)} issues`] : []),
    ...(refused.length ? [`refused by ${refused.join(', ')}`] : []),
    ...(held?.length ? [`${n(held.length)} removals held`] : []),
    ...(report.generation !== null ? [`upload #${report.generation}`] : []),
    `on ${facts.host}, ${(facts.durationMs / 1000).toFixed(1)} s`,
  ];
  return parts.join(' · ');
}

const NAME_KEYS = ['guard', 'name', 'code'];
const VERDICT_KEYS = ['verdict', 'status', 'outcome'];

/**
 * The guards' verdicts reduced to what cannot carry personal data: the guard's name, its verdict and
 * its numbers. Whatever shape the report's `guards` takes (a list, or an object by guard).
 */
function verdicts(guards: unknown): GuardVerdict[] {
  const entries: [string, unknown][] = Array.isArray(guards)
    ? guards.map((g, i) => [String(i), g])
    : guards && typeof guards === 'object'
      ? Object.entries(guards as Record<string, unknown>)
      : [];
  return entries.map(([key, value]) => {
    const g = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : { verdict: value };
    const word = (keys: string[], fallback: string) => {
      const found = keys.map((k) => g[k]).find((v) => typeof v === 'string' || typeof v === 'boolean');
      return found === undefined ? fallback : String(found);
    };
    const numbers = Object.fromEntries(Object.entries(g).filter((e): e is [string, number] => typeof e[1] === 'number'));
    const verdict = word(VERDICT_KEYS, g.ok === true ? 'passed' : g.ok === false ? 'refused' : 'unknown');
    return { guard: word(NAME_KEYS, key), verdict, numbers };
  });
}

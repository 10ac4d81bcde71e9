// What a notification says about a run: a verdict, the target and the service's host, what the upload
// was, counts, the upload number and the command to run next — never a name, an email, a message from
// the file or the service, the token or a notification URL. Every format (./formats.ts) is made from
// this one value, so what may leave the company is decided here once.
import { KINDS } from '../contract/kinds.js';
import type { UploadReport } from '../report/report.js';
import { describeBounds } from '../guard/policy.js';
import { thousands } from '../numbers.js';
import type { AutoApply } from '../state/types.js';
import { listableKeys, type ListedKeys } from './safe-keys.js';
import { nextStep, type NextStep } from './next-step.js';
import { VERDICT_MARK, verdictOf, type Verdict } from './verdict.js';

import type { NotifyOn } from './choices.js';

export type { NotifyOn } from './choices.js';

/** The report as a notification reads it. */
export type NotifiedReport = Readonly<UploadReport>;

/**
 * What the run was: an upload (a full upload of a file, a merge, a removal of keys, a restore, a plan
 * applied), or one of the commands that only read or copy the state (an export, a state copy, a settling).
 */
export type NotifiedOperation = 'upload' | 'merge' | 'remove' | 'restore' | 'apply' | 'release' | 'export' | 'state' | 'resolve';

export interface RunFacts {
  /** The command that ran: store-cards, team-members, restore, apply, remove, … */
  readonly command: string;
  readonly operation: NotifiedOperation;
  /** The command line as typed, after `upload` (secrets already redacted). */
  readonly argv: readonly string[];
  readonly target: string | null;
  /** The service address's host (never its path or query). */
  readonly service: string | null;
  /** The host the run ran on. */
  readonly host: string;
  readonly durationMs: number;
}

export interface Notification {
  readonly text: string;
  readonly tool: 'scheduling-upload';
  readonly verdict: Verdict;
  /** One line: the mark, where, what and how it ended. */
  readonly headline: string;
  readonly command: string;
  readonly operation: NotifiedOperation;
  readonly kind: string | null;
  readonly target: string | null;
  readonly service: string | null;
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
  readonly heldRemovals: ListedKeys | null;
  /** Four eyes: who planned, approved and applied the plan (as the state store named them); null elsewhere. */
  readonly fourEyes: {
    readonly planner: string;
    readonly approvers: readonly string[];
    readonly appliedBy: string | null;
    /** Sent within the address's autoApply bounds, without a second person. */
    readonly byPolicy?: AutoApply;
  } | null;
  readonly generation: number | null;
  readonly next: NextStep;
  readonly durationMs: number;
  readonly host: string;
  readonly time: string;
}

export interface GuardVerdict {
  readonly guard: string;
  readonly verdict: string;
  /** The guard's numbers (count, limit); text it carries (examples, values) is left out. */
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

export function notification(report: NotifiedReport, facts: RunFacts, now = new Date()): Notification {
  const d = report.diff;
  const verdict = verdictOf(report);
  const held = report.heldRemovals?.length ? listableKeys(report.heldRemovals) : null;
  const counts = {
    records: report.records,
    added: d?.added ?? null,
    removed: d?.removed ?? null,
    changed: d?.changed ?? null,
    unchanged: d?.unchanged ?? null,
    issues: Object.values(report.issueCounts).reduce((a, b) => a + b, 0),
  };
  const errorCode = report.error?.code ?? null;
  const next = nextStep({
    verdict,
    argv: facts.argv,
    command: facts.command,
    kind: report.kind,
    target: facts.target,
    errorCode,
    fix: report.error?.fixes.find((f) => f.kind === 'command')?.args,
    held: held?.count ?? 0,
    dryRun: report.dryRun,
  });
  const headline = headlineOf(verdict, report, facts, errorCode, held?.count ?? 0);
  const a = report.approval;
  const fourEyes = a
    ? { planner: a.planner, approvers: a.approvers.map((p) => p.name), appliedBy: a.appliedBy, ...(a.policy ? { byPolicy: a.policy } : {}) }
    : null;
  const n = (x: number | null) => (x === null ? '?' : thousands(x));
  const diff = counts.added === null ? 'no baseline' : `+${n(counts.added)} −${n(counts.removed)} ~${n(counts.changed)}`;
  const text = [
    headline,
    `${n(counts.records)} records, ${diff}`,
    ...(counts.issues ? [`${n(counts.issues)} issues`] : []),
    ...(report.generation !== null ? [`upload #${report.generation}`] : []),
    ...(fourEyes
      ? [
          `planned by ${fourEyes.planner}, approved by ${fourEyes.byPolicy ? `policy (autoApply: ${describeBounds(fourEyes.byPolicy)})` : fourEyes.approvers.join(', ') || 'nobody yet'}${fourEyes.appliedBy ? `, applied by ${fourEyes.appliedBy}` : ''}`,
        ]
      : []),
    `next: ${next.command}`,
    `on ${facts.host}, ${(facts.durationMs / 1000).toFixed(1)} s`,
  ].join(' · ');
  return {
    text,
    tool: 'scheduling-upload',
    verdict,
    headline,
    command: facts.command,
    operation: facts.operation,
    kind: report.kind,
    target: facts.target,
    service: facts.service,
    dryRun: report.dryRun,
    outcome: report.outcome,
    exitCode: report.exitCode,
    errorCode,
    counts,
    guards: (report.guards ?? []).map((g) => ({ guard: g.name, verdict: g.verdict, numbers: numbersOf(g) })),
    heldRemovals: held,
    fourEyes,
    generation: report.generation,
    next,
    durationMs: Math.round(facts.durationMs),
    host: facts.host,
    time: now.toISOString(),
  };
}

const OPERATION_WORDS: Readonly<Record<NotifiedOperation, string>> = {
  upload: 'full upload',
  merge: 'merge',
  remove: 'removal',
  restore: 'restore',
  apply: 'saved plan applied',
  release: 'release of held removals',
  export: 'export',
  state: 'state copy',
  resolve: 'settling of an unconfirmed upload',
};

/** "⚠️ production (scheduling.example.com): team members full upload succeeded, 40 removals held back (exit 9)" */
function headlineOf(verdict: Verdict, report: NotifiedReport, facts: RunFacts, code: string | null, held: number): string {
  const where = facts.target ? `${facts.target}${facts.service ? ` (${facts.service})` : ''}` : (facts.service ?? 'no service');
  const noun = report.kind ? `${KINDS[report.kind].noun}s` : facts.command;
  const what = `${noun} ${OPERATION_WORDS[facts.operation]}${report.dryRun ? ' dry run' : ''}`;
  const exit = `exit ${report.exitCode}${code ? `, ${code}` : ''}`;
  const result: Record<Verdict, string> = {
    success: report.dryRun ? 'passed, nothing sent' : 'succeeded',
    'held-removals': `succeeded, ${thousands(held)} removal${held === 1 ? '' : 's'} held back`,
    refused: 'refused, nothing sent',
    failed: 'failed',
    unknown: 'outcome unknown: the service may hold the new set',
  };
  return `${VERDICT_MARK[verdict]} ${where}: ${what} ${result[verdict]} (${exit})`;
}

function numbersOf(g: { readonly count: number | null; readonly limit: number | null }): Record<string, number> {
  return Object.fromEntries(Object.entries({ count: g.count, limit: g.limit }).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

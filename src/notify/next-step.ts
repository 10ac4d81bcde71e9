// The exact command the person on call runs next, built from the command line as it was typed (with
// the notification flags, which carry secrets, taken out). A notification without it is a question
// sent to someone who was asleep when the run happened.
import type { Verdict } from './verdict.js';
import { looksLikeCode } from './safe-keys.js';

export interface NextStep {
  /** A command to paste into a shell on the same host. */
  readonly command: string;
  /** What it shows or does, and what to decide from it. */
  readonly why: string;
}

export interface StepFacts {
  readonly verdict: Verdict;
  /** The command as typed, after `upload`. */
  readonly argv: readonly string[];
  readonly command: string;
  readonly kind: string | null;
  readonly target: string | null;
  readonly errorCode: string | null;
  /** The refusal's command, when its fix is one (AWAITING_APPROVAL: the command that approves the kept plan). */
  readonly fix?: readonly string[] | undefined;
  readonly held: number;
  readonly dryRun: boolean;
}

/** Flags that carry a webhook address or choose notifications: never repeated in a suggestion. */
const NOTIFY_FLAGS = ['--notify', '--notify-on', '--notify-format'];
/** Flags a review run leaves out: it asks nothing, sends nothing and is read by a person. */
const SENDING_FLAGS = ['--yes', '-y', '--hold-removals', '--json', '--detailed-exitcode'];

export function nextStep(f: StepFacts): NextStep {
  // export and state read or copy the state: nothing to review, the command again once fixed.
  if (f.command === 'export' || f.command === 'state') {
    return f.verdict === 'success'
      ? { command: again(f), why: 'nothing to do' }
      : { command: again(f), why: 'nothing was sent to the service; fix what the job log names (the store, the file), then run it again' };
  }
  const history = `upload history ${f.kind ?? ''}${f.target ? ` --target ${quote(f.target)}` : ''}`.replace('  ', ' ');
  const review = reviewCommand(f);
  switch (f.verdict) {
    case 'success':
      return { command: history, why: f.dryRun ? 'nothing was sent; the dry run found nothing to stop it' : 'nothing to do; the history shows this upload' };
    case 'held-removals':
      return f.kind
        ? {
            command: releaseCommand(f, f.kind),
            why: `${f.held} records the file leaves out are still on the service (held back); this dry run lists exactly them, and without --dry-run removes exactly them (where the target needs approvals: with --plan-out, approved and applied)`,
          }
        : {
            command: review,
            why: `${f.held} records the file leaves out are still on the service; check them on the review page, and if they are meant to go, run the upload once with --max-removals set to the removals it shows`,
          };
    case 'unknown':
      return { command: again(f), why: 'the service may or may not hold the new set; sending the same set again is safe and settles it' };
    case 'refused':
      return refused(f, review, history);
    case 'failed':
      return failed(f, review, history);
  }
}

function refused(f: StepFacts, review: string, history: string): NextStep {
  switch (f.errorCode ?? '') {
    case 'LOCK_HELD':
      return { command: again(f), why: 'another upload to the same service was running; run again once it has finished' };
    case 'BASELINE_UNCERTAIN':
    case 'STATE_MOVED':
    case 'PLAN_STALE':
      return { command: history, why: 'the recorded uploads changed or one is unsettled; the history shows which (docs/on-call.md)' };
    case 'AWAITING_APPROVAL':
      return {
        command: f.fix ? ['upload', ...f.fix].map((a) => quote(a)).join(' ') : again(f),
        why: 'nothing was sent: the plan is outside the autoApply bounds and is kept in the state store; someone other than the planner approves it with this command (it shows the plan first), then upload apply sends it',
      };
    case 'LEADING_ZEROS_LOST':
      return { command: review, why: 'the file lost the leading zeros of its keys; export it again keeping IDs as text — never raise --max-removals for this' };
    default:
      return { command: review, why: 'nothing was sent; the review page shows what the guard stopped and the flag that allows it if it is meant' };
  }
}

function failed(f: StepFacts, review: string, history: string): NextStep {
  switch (f.errorCode ?? '') {
    case 'UNAUTHORIZED':
      return {
        command: `upload config${f.target ? ` --target ${quote(f.target)}` : ''}`,
        why: 'the service did not accept the token; check where it comes from',
      };
    case 'REJECTED':
      return { command: history, why: "the service refused the set; its reasons are in the history's failed attempt" };
    case 'UNREACHABLE':
    case 'SERVER_ERROR':
    case 'INTERRUPTED':
      return { command: again(f), why: 'nothing was changed on the service; run again once it answers' };
    default:
      if (f.errorCode && /^(BAD_|NO_|UNKNOWN_TARGET|PROTECTED|INSECURE|TOKEN_)/.test(f.errorCode)) {
        return { command: `upload config${f.target ? ` --target ${quote(f.target)}` : ''}`, why: 'the run could not start; the settings show what is missing' };
      }
      return { command: review, why: 'nothing was sent; the review page names each problem by line and column' };
  }
}

/** Flags that say where the records go, carried from the command line into `upload release`. */
const WHERE_FLAGS = ['--base-url', '--state', '--state-dir', '--config'];

/** `upload release KIND --target NAME --dry-run`: what the held removals' release would remove (where the run went). */
function releaseCommand(f: StepFacts, kind: string): string {
  const where: string[] = [];
  if (f.target) where.push('--target', f.target);
  for (let i = 0; i < f.argv.length; i++) {
    const [name] = f.argv[i]!.split('=');
    if (!WHERE_FLAGS.includes(name!)) continue;
    where.push(f.argv[i]!);
    if (!f.argv[i]!.includes('=') && i + 1 < f.argv.length) where.push(f.argv[++i]!);
  }
  return ['upload', ...['release', kind, ...where, '--dry-run'].map(quote)].join(' ');
}

/** The same command again, without the notification flags. */
function again(f: StepFacts): string {
  return line(withoutFlags(f.argv, NOTIFY_FLAGS), f);
}

/** The same command as a dry run that writes a review page. */
function reviewCommand(f: StepFacts): string {
  const args = withoutFlags(f.argv, [...NOTIFY_FLAGS, ...SENDING_FLAGS]);
  if (!args.includes('--dry-run')) args.push('--dry-run');
  if (!args.some((a) => a === '--report-html' || a.startsWith('--report-html='))) args.push('--report-html', 'review.html');
  return line(args, f);
}

function line(args: readonly string[], f: StepFacts): string {
  // `upload remove KIND KEY…` on the command line: keys that could be emails are not repeated.
  if (f.command === 'remove' && args.slice(2).some((a) => !a.startsWith('-') && !looksLikeCode(a))) {
    return `upload history ${f.kind ?? ''}${f.target ? ` --target ${quote(f.target)}` : ''}`;
  }
  return ['upload', ...args.map(quote)].join(' ');
}

const VALUED = new Set(['--notify', '--notify-on', '--notify-format']);

function withoutFlags(argv: readonly string[], drop: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.split('=')[0]!;
    if (!drop.includes(name)) {
      out.push(a);
      continue;
    }
    if (VALUED.has(name) && !a.includes('=')) i++;
  }
  return out;
}

/** POSIX shell quoting, only where needed. */
export function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

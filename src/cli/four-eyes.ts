// The runner's part of four eyes (docs/review-then-apply.md): a target that needs approvals takes no
// direct send (PLAN_REQUIRED names the three commands to run instead), and a guarded target the address
// made this run must be named, or its name typed on a terminal.
import { basename, extname } from 'node:path';
import type { ChosenTarget } from '../config/target.js';
import { nextCommand, shellWord } from '../pipeline/approval.js';
import { GuardRefusal, UsageError } from '../errors.js';
import type { Flags } from './flags.js';
import { interactive, type ProcessIo } from './io.js';
import type { Targeted } from './targets.js';

/** Before a run that writes: refused where approvals are needed and it would send directly; named where the address chose. */
export function checkWrite(writes: 'direct' | 'planned', chosen: Targeted, io: ProcessIo, given: Flags, line: { argv: readonly string[] }): void {
  // Refused even when named: said first, with the way round.
  // An unattended run under autoApply goes on: the engine sends it within the bounds or keeps it waiting (pipeline/auto-apply.ts).
  if (writes === 'direct' && !(chosen.fourEyes?.autoApply && given.yes === true)) checkPlanned(chosen, line.argv);
  checkNamed(chosen.target, interactive(io) && given.yes !== true);
}

/** A direct upload, restore, remove or --merge where approvals are needed: refused, with the way round. */
function checkPlanned(chosen: Targeted, argv: readonly string[]): void {
  const rule = chosen.fourEyes;
  if (!rule) return;
  const name = chosen.target?.name ?? null;
  const stored = chosen.policyFrom;
  const where = name ? `the target '${name}'` : stored ? `this address (by the policy recorded in ${stored})` : 'this service (--approvals)';
  const plan = planName(argv);
  // Each command runs as written: the target named (a protected one must be), --yes where nothing asks;
  // without a target, the store that records the policy, or the approvals the command line asked.
  const named = name && !argv.some((a) => a === '--target' || a.startsWith('--target=')) ? ['--target', name] : [];
  const approvals = name ? [] : stored ? ['--state', stored] : ['--approvals', String(rule.approvals)];
  const first = [...planArgs(argv), '--dry-run', '--plan-out', plan, ...named, ...(stored && argv.includes('--state') ? [] : approvals)];
  const approve = nextCommand('approve', plan, name, approvals);
  const apply = nextCommand('apply', plan, name, approvals);
  const commands = [
    ['upload', ...first].map(shellWord).join(' '),
    `${approve.text}   (someone else${rule.approvals > 1 ? `; ${rule.approvals} people` : ''})`,
    apply.text,
  ];
  throw new GuardRefusal(
    'PLAN_REQUIRED',
    `${where} needs ${rule.approvals} approval${rule.approvals === 1 ? '' : 's'} by someone other than the planner before anything is sent: a direct upload, restore, remove or --merge is refused; nothing was read or sent`,
    `plan, approve, apply:${commands.map((c, i) => `\n     ${i + 1}. ${c}`).join('')}`,
  ).withFixes({ kind: 'command', args: first });
}

/** A guarded target reached by its address, not its name: on a terminal its name is typed; elsewhere it must be named. */
function checkNamed(target: ChosenTarget | undefined, interactive: boolean): void {
  if (target?.how !== 'address' || interactive) return;
  const what = target.target.protected === true ? 'protected' : `needs ${target.target.approvals} approval(s)`;
  throw new UsageError(
    'PROTECTED_TARGET',
    `${target.target.baseUrl} is the address of the target '${target.name}' (${what}), which this run does not name; nothing was read or sent`,
    `name it on the command line: --target ${target.name}`,
  ).withFixes({ kind: 'flags', args: ['--target', target.name] });
}

/** The command as typed (after `upload`), without what a plan's dry run does not take (--yes) or must not show (webhooks). */
function planArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--yes' || a === '-y' || a === '--json' || a.startsWith('--notify=') || a.startsWith('--notify-on=') || a.startsWith('--plan-out=')) continue;
    if (a === '--notify' || a === '--notify-on' || a === '--plan-out') {
      i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** staff.csv → staff.plan.json; a restore or remove → restore.plan.json. */
function planName(argv: readonly string[]): string {
  const [command, file] = argv;
  const source = (command === 'store-cards' || command === 'team-members') && file && file !== '-' ? file : undefined;
  return `${source ? basename(source, extname(source)) : (command ?? 'upload')}.plan.json`;
}

// The command line's part of four eyes (docs/review-then-apply.md): a target that needs approvals takes
// no direct send (PLAN_REQUIRED names the three commands to run instead), a target the address made
// this run must be named or typed, and approving asks like every command that changes something.
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { ChosenTarget } from '../config/target.js';
import { GuardRefusal, UsageError } from '../errors.js';
import type { Flags } from './flags.js';
import type { ProcessIo } from './io.js';
import type { Targeted } from './targets.js';

/** A direct upload, restore, remove or --merge where approvals are needed: refused, with the way round. */
export function checkPlanned(chosen: Targeted, argv: readonly string[]): void {
  const rule = chosen.fourEyes;
  if (!rule) return;
  const name = chosen.target?.name;
  const where = name ? `the target '${name}'` : 'this service (--approvals)';
  const plan = planName(argv);
  const named = name && !argv.some((a) => a === '--target' || a.startsWith('--target=')) ? ` --target ${name}` : '';
  const approvals = name ? '' : ` --approvals ${rule.approvals}`;
  const commands = [
    `${planCommand(argv)} --dry-run --plan-out ${plan}${named}${approvals}`,
    `upload approve ${plan}${named}${approvals}   (someone else${rule.approvals > 1 ? `; ${rule.approvals} people` : ''})`,
    `upload apply ${plan}${named}${approvals}`,
  ];
  throw new GuardRefusal(
    'PLAN_REQUIRED',
    `${where} needs ${rule.approvals} approval${rule.approvals === 1 ? '' : 's'} by someone other than the planner before anything is sent: a direct upload, restore, remove or --merge is refused; nothing was read or sent`,
    `plan, approve, apply:${commands.map((c, i) => `\n     ${i + 1}. ${c}`).join('')}`,
  );
}

/** A guarded target reached by its address, not its name: on a terminal its name is typed; elsewhere it must be named. */
export function checkNamed(target: ChosenTarget | undefined, interactive: boolean): void {
  if (target?.how !== 'address' || interactive) return;
  const what = target.target.protected === true ? 'protected' : `needs ${target.target.approvals} approval(s)`;
  throw new UsageError(
    'PROTECTED_TARGET',
    `${target.target.baseUrl} is the address of the target '${target.name}' (${what}), which this run does not name; nothing was read or sent`,
    `name it on the command line: --target ${target.name}`,
  );
}

/** The command as typed, without what a plan's dry run does not take (--yes) or must not show (webhooks). */
function planCommand(argv: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--yes' || a === '-y' || a === '--json' || a.startsWith('--notify=') || a.startsWith('--notify-on=')) continue;
    if (a === '--notify' || a === '--notify-on' || a === '--plan-out') {
      i++;
      continue;
    }
    out.push(/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`);
  }
  return ['upload', ...out].join(' ');
}

/** staff.csv → staff.plan.json; a restore or remove → restore.plan.json. */
function planName(argv: readonly string[]): string {
  const [command, file] = argv;
  const source = (command === 'store-cards' || command === 'team-members') && file && file !== '-' ? file : undefined;
  return `${source ? basename(source, extname(source)) : (command ?? 'upload')}.plan.json`;
}

/** The address a saved plan names, read early so the run can be the target at that address. */
export function planAddress(path: string): string | undefined {
  try {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { baseUrl?: unknown };
    return typeof doc.baseUrl === 'string' ? doc.baseUrl : undefined;
  } catch {
    // Unreadable or not JSON: the plan's own check says so, with the file's name.
    return undefined;
  }
}

/** Approving asks on a terminal; elsewhere it takes --yes. */
export function approveConfirmation(flags: Flags, io: ProcessIo): 'yes' | 'prompt' {
  if (flags.yes === true) return 'yes';
  if (io.stdin.isTTY === true && io.stderr.isTTY === true) return 'prompt';
  throw new UsageError(
    'NO_CONFIRMATION',
    'approving records your name under this plan, and there is no terminal to ask you',
    'review the plan (upload approve PLAN on a terminal shows it), then run again with --yes',
  );
}

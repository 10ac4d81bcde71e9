// The commands that may send — `upload store-cards|team-members <file>`, `restore`, `apply` — share one
// frame: a terminal UI, Ctrl-C as an orderly stop, flags → options → the engine → its report. Failures
// come back with the report; the entry point (./main.ts) turns them into an outcome and an exit code.
import type { Kind } from '../contract/kinds.js';
import { Interrupted } from '../errors.js';
import { displayName } from '../read/index.js';
import { confirmQuestion } from '../report/human.js';
import { renderEvent } from '../report/render.js';
import type { RunContext } from '../engine/context.js';
import type { RunFacts, RunResult } from '../engine/result.js';
import type { Flags } from './flags.js';
import type { RunIo } from './io.js';
import { count, parseGuards, parseSending, parseState, parseUploadOptions, planOutOf } from './options.js';
import { DEFAULTS } from '../engine/options.js';
import { resolveBaseUrl } from '../send/config.js';
import type { CommandResult } from './result.js';
import { terminalUi } from './terminal.js';
import { afterRun, prepareAfterRun, type AfterRun } from './after-run.js';
import { withTarget, type CommandLine, type TargetedFlags } from './targets.js';

/** What a command is to the frame: its name, kind, whether it sends, and where its address comes from. */
interface FrameSpec {
  readonly command: string;
  readonly kind: Kind | undefined;
  /** It writes: sends (or records an approval). A dry run only reads. */
  readonly writes: boolean;
  /** Four eyes: a command that sends directly is refused where approvals are needed (PLAN_REQUIRED). */
  readonly direct: boolean;
  /** The address when it is not the flags' (a saved plan's). */
  readonly address?: string | undefined;
}

async function frame(
  spec: FrameSpec,
  given: Flags,
  io: RunIo,
  line: CommandLine,
  blank: RunFacts,
  run: (ctx: RunContext, flags: TargetedFlags) => Promise<RunResult>,
): Promise<CommandResult> {
  const json = given.json === true;
  const detailedExitcode = given.detailedExitcode === true;
  // The target's settings under the command line's, and what to do once the outcome is final.
  let flags: TargetedFlags;
  let after: AfterRun;
  let notice: string | undefined;
  try {
    const chosen = await withTarget(given, io, line, spec.kind, { address: spec.address });
    flags = { ...chosen.flags, targetName: chosen.target?.name, fourEyes: chosen.fourEyes };
    notice = chosen.notice;
    const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true && given.yes !== true;
    if (spec.writes) {
      const { checkNamed, checkPlanned } = await import('./four-eyes.js');
      // Refused even when named: said first, with the way round.
      if (spec.direct) checkPlanned(chosen, line.argv);
      checkNamed(chosen.target, interactive);
    }
    after = await prepareAfterRun(spec.command, flags, io, chosen.target, line.argv);
  } catch (failure) {
    return { facts: blank, failure, json };
  }
  // A protected target, or one the address made this run, is confirmed by typing its name.
  const typed = after.target && (after.target.target.protected === true || after.target.how === 'address') ? after.target.name : undefined;
  const baseUrl = flags.baseUrl ?? io.env.UPLOAD_BASE_URL ?? null;
  const interrupt = onInterrupt();
  const ui = await terminalUi({
    color: flags.noColor !== true,
    quiet: flags.quiet === true || json,
    stderr: io.stderr,
    stdin: io.stdin,
    env: io.env,
    signal: interrupt.signal,
    redact: io.secrets.redact,
  });
  if (notice) ui.notice(notice);
  try {
    const { facts, failure } = await run(
      {
        env: io.env,
        stdin: io.stdin,
        signal: interrupt.signal,
        tuning: io.tuning,
        review: after.html?.review,
        emit: (event) => renderEvent(ui, event),
        confirm: (request) => ui.confirm(confirmQuestion(request), typed),
      },
      flags,
    );
    return { facts, failure, ui, json, detailedExitcode, afterRun: ended(after, baseUrl, ui, io) };
  } catch (failure) {
    return { facts: blank, failure, ui, json, afterRun: ended(after, baseUrl, ui, io) };
  } finally {
    ui.done();
    interrupt.dispose();
  }
}

export function uploadAction(kind: Kind, file: string, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const writes = given.dryRun !== true;
  return frame({ command: kind, kind, writes, direct: writes }, given, io, line, { kind, source: displayName(file), dryRun: !writes }, async (ctx, flags) => {
    const options = await parseUploadOptions(kind, file, flags, io);
    if (options.merge) {
      const [{ runFrame }, { mergeDefinition }] = await Promise.all([import('../engine/frame.js'), import('../engine/merge.js')]);
      return runFrame(mergeDefinition(options), ctx);
    }
    const { runUpload } = await import('../engine/upload.js');
    return runUpload(options, ctx);
  });
}

export function removeAction(kind: Kind, keys: readonly string[], given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const dryRun = given.dryRun === true;
  return frame({ command: 'remove', kind, writes: !dryRun, direct: !dryRun }, given, io, line, { kind, source: null, dryRun }, async (ctx, flags) => {
    const keysFile = typeof flags.keysFile === 'string' ? flags.keysFile : undefined;
    const sending = await parseSending(flags, io, { dryRun, url: 'always', stdin: keysFile === '-' ? 'keys' : undefined });
    const { removeList } = await import('./remove.js');
    const { list, source } = await removeList(keys, keysFile, io);
    const { runRemove } = await import('../engine/remove.js');
    const planOut = await planOutOf(flags, dryRun, sending.baseUrl);
    const options = { kind, keys: list, source, dryRun, ...sending, baseUrl: sending.baseUrl!, ...parseGuards(flags), ...parseState(flags, io) };
    return runRemove({ ...options, planOut, target: flags.targetName ?? null }, ctx);
  });
}

export function restoreAction(kind: Kind, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const dryRun = given.dryRun === true;
  return frame({ command: 'restore', kind, writes: !dryRun, direct: !dryRun }, given, io, line, { kind, source: null, dryRun }, async (ctx, flags) => {
    const sending = await parseSending(flags, io, { dryRun, url: 'always' });
    const generation = flags.generation === undefined ? undefined : count('--generation', flags.generation, 1);
    const { runRestore } = await import('../engine/restore.js');
    const planOut = await planOutOf(flags, dryRun, sending.baseUrl);
    const options = { kind, generation, dryRun, ...sending, baseUrl: sending.baseUrl!, ...parseGuards(flags), ...parseState(flags, io) };
    return runRestore({ ...options, planOut, target: flags.targetName ?? null }, ctx);
  });
}

export async function applyAction(plan: string, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const { planAddress } = await import('./four-eyes.js');
  const spec = { command: 'apply', kind: undefined, writes: true, direct: false, address: planAddress(plan) };
  return frame(spec, given, io, line, { kind: null, source: plan, dryRun: false }, async (ctx, flags) => {
    // The plan names its service; an address given as well must be the same one.
    const sending = await parseSending(flags, io, { dryRun: false, url: 'optional' });
    const { runApply } = await import('../engine/apply.js');
    const { planTargetCheck } = await import('./targets.js');
    const target = flags.targetName ?? null;
    return runApply({ plan, ...sending, token: sending.token!, ...parseState(flags, io), checkTarget: await planTargetCheck(flags, io), target }, ctx);
  });
}

/** `upload approve <plan>`: shown as apply shows it, then an approval recorded (./four-eyes.ts). */
export async function approveAction(plan: string, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const { planAddress, approveConfirmation } = await import('./four-eyes.js');
  const spec = { command: 'approve', kind: undefined, writes: true, direct: false, address: planAddress(plan) };
  return frame(spec, given, io, line, { kind: null, source: plan, dryRun: false }, async (ctx, flags) => {
    const baseUrl = flags.baseUrl === undefined && !io.env.UPLOAD_BASE_URL ? undefined : resolveBaseUrl(flags.baseUrl, io.env);
    const { runApprove } = await import('../engine/approve.js');
    const { planTargetCheck } = await import('./targets.js');
    const confirm = approveConfirmation(flags, io);
    const state = parseState(flags, io);
    const send = { retries: 0, timeoutSeconds: 1, baseUrl, token: undefined, tokenEnv: DEFAULTS.tokenEnv, confirm };
    const target = flags.targetName ?? null;
    return runApprove({ plan, ...send, ...state, host: state.identity.host, checkTarget: await planTargetCheck(flags, io), target }, ctx);
  });
}

/** The post-run point: the review page and the notification, with the final report. */
function ended(after: AfterRun, baseUrl: string | null, ui: { notice(line: string): void }, io: RunIo): NonNullable<CommandResult['afterRun']> {
  return async ({ report }) => {
    if (report) await afterRun(after, report, baseUrl, io, (line) => ui.notice(line));
  };
}

/**
 * The first Ctrl-C (or a SIGTERM, as from `timeout` or a cron supervisor) aborts the run, which then
 * ends as `interrupted` with its report and releases its lock; a second one gets Node's default
 * behaviour and ends the process at once.
 */
function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const dispose = () => signals.forEach((s) => process.off(s, handler));
  function handler(signal: NodeJS.Signals): void {
    if (controller.signal.aborted) {
      dispose();
      process.kill(process.pid, signal);
      return;
    }
    const how = signal === 'SIGINT' ? 'Ctrl-C' : signal;
    controller.abort(
      new Interrupted('INTERRUPTED', `interrupted (${how}) before the upload was sent; nothing was changed on the service`, 'run again when ready'),
    );
  }
  signals.forEach((s) => process.on(s, handler));
  return { signal: controller.signal, dispose };
}

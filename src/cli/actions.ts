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
import { count, parseGuards, parseSending, parseState, parseUploadOptions } from './options.js';
import type { CommandResult } from './result.js';
import { terminalUi } from './terminal.js';
import { afterRun, prepareAfterRun, type AfterRun } from './after-run.js';
import { withTarget, type CommandLine, type TargetedFlags } from './targets.js';

async function frame(
  command: string,
  kind: Kind | undefined,
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
  try {
    const chosen = await withTarget(given, io, line, kind);
    flags = { ...chosen.flags, targetName: chosen.target?.name };
    after = await prepareAfterRun(command, flags, io, chosen.target, line.argv);
  } catch (failure) {
    return { facts: blank, failure, json };
  }
  const protectedName = after.target?.target.protected === true ? after.target.name : undefined;
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
  try {
    const { facts, failure } = await run(
      {
        env: io.env,
        stdin: io.stdin,
        signal: interrupt.signal,
        tuning: io.tuning,
        review: after.html?.review,
        emit: (event) => renderEvent(ui, event),
        // A protected target is confirmed by typing its name, not by a habitual y.
        confirm: (request) => ui.confirm(confirmQuestion(request), protectedName),
      },
      flags,
    );
    return { facts, failure, ui, json, detailedExitcode, afterRun: ended(after, baseUrl, ui, io, interrupt) };
  } catch (failure) {
    return { facts: blank, failure, ui, json, afterRun: ended(after, baseUrl, ui, io, interrupt) };
  } finally {
    ui.done();
  }
}

export function uploadAction(kind: Kind, file: string, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  return frame(kind, kind, given, io, line, { kind, source: displayName(file), dryRun: given.dryRun === true }, async (ctx, flags) => {
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
  return frame('remove', kind, given, io, line, { kind, source: null, dryRun }, async (ctx, flags) => {
    const keysFile = typeof flags.keysFile === 'string' ? flags.keysFile : undefined;
    const sending = await parseSending(flags, io, { dryRun, url: 'always', stdin: keysFile === '-' ? 'keys' : undefined });
    const { removeList } = await import('./remove.js');
    const { list, source } = await removeList(keys, keysFile, io);
    const { runRemove } = await import('../engine/remove.js');
    return runRemove({ kind, keys: list, source, dryRun, ...sending, baseUrl: sending.baseUrl!, ...parseGuards(flags), ...parseState(flags, io) }, ctx);
  });
}

export function restoreAction(kind: Kind, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const dryRun = given.dryRun === true;
  return frame('restore', kind, given, io, line, { kind, source: null, dryRun }, async (ctx, flags) => {
    const sending = await parseSending(flags, io, { dryRun, url: 'always' });
    const generation = flags.generation === undefined ? undefined : count('--generation', flags.generation, 1);
    const { runRestore } = await import('../engine/restore.js');
    return runRestore({ kind, generation, dryRun, ...sending, baseUrl: sending.baseUrl!, ...parseGuards(flags), ...parseState(flags, io) }, ctx);
  });
}

export function applyAction(plan: string, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  return frame('apply', undefined, given, io, line, { kind: null, source: plan, dryRun: false }, async (ctx, flags) => {
    // The plan names its service; an address given as well must be the same one.
    const sending = await parseSending(flags, io, { dryRun: false, url: 'optional' });
    const { runApply } = await import('../engine/apply.js');
    const { planTargetCheck } = await import('./targets.js');
    return runApply({ plan, ...sending, token: sending.token!, ...parseState(flags, io), checkTarget: await planTargetCheck(flags, io) }, ctx);
  });
}

/**
 * The post-run point: the review page and the notification, with the final report. The signal
 * handlers stay until then: a SIGTERM after the outcome is decided (the report written) must not end
 * the process with a signal's exit code that contradicts the report's.
 */
function ended(
  after: AfterRun,
  baseUrl: string | null,
  ui: { notice(line: string): void },
  io: RunIo,
  interrupt: { dispose(): void },
): NonNullable<CommandResult['afterRun']> {
  return async ({ report }) => {
    try {
      if (report) await afterRun(after, report, baseUrl, io, (line) => ui.notice(line));
    } finally {
      interrupt.dispose();
    }
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

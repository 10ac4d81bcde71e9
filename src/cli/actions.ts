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

async function frame(flags: Flags, io: RunIo, blank: RunFacts, run: (ctx: RunContext) => Promise<RunResult>): Promise<CommandResult> {
  const json = flags.json === true;
  const detailedExitcode = flags.detailedExitcode === true;
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
    const { facts, failure } = await run({
      env: io.env,
      stdin: io.stdin,
      signal: interrupt.signal,
      tuning: io.tuning,
      emit: (event) => renderEvent(ui, event),
      confirm: (request) => ui.confirm(confirmQuestion(request)),
    });
    return { facts, failure, ui, json, detailedExitcode };
  } catch (failure) {
    return { facts: blank, failure, ui, json };
  } finally {
    ui.done();
    interrupt.dispose();
  }
}

export function uploadAction(kind: Kind, file: string, flags: Flags, io: RunIo): Promise<CommandResult> {
  return frame(flags, io, { kind, source: displayName(file), dryRun: flags.dryRun === true }, async (ctx) => {
    const { runUpload } = await import('../engine/upload.js');
    return runUpload(await parseUploadOptions(kind, file, flags, io), ctx);
  });
}

export function restoreAction(kind: Kind, flags: Flags, io: RunIo): Promise<CommandResult> {
  const dryRun = flags.dryRun === true;
  return frame(flags, io, { kind, source: null, dryRun }, async (ctx) => {
    const sending = await parseSending(flags, io, { dryRun, url: 'always' });
    const generation = flags.generation === undefined ? undefined : count('--generation', flags.generation, 1);
    const { runRestore } = await import('../engine/restore.js');
    return runRestore({ kind, generation, dryRun, ...sending, baseUrl: sending.baseUrl!, ...parseGuards(flags), ...parseState(flags, io) }, ctx);
  });
}

export function applyAction(plan: string, flags: Flags, io: RunIo): Promise<CommandResult> {
  return frame(flags, io, { kind: null, source: plan, dryRun: false }, async (ctx) => {
    // The plan names its service; an address given as well must be the same one.
    const sending = await parseSending(flags, io, { dryRun: false, url: 'optional' });
    const { runApply } = await import('../engine/apply.js');
    return runApply({ plan, ...sending, token: sending.token!, ...parseState(flags, io) }, ctx);
  });
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

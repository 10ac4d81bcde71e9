// `upload store-cards|team-members <file>`: flags → options → the engine → its report. Failures come
// back with the report; the entry point (./main.ts) turns them into an outcome and an exit code.
import type { Kind } from '../contract/kinds.js';
import { Interrupted } from '../errors.js';
import { displayName } from '../read/index.js';
import { confirmQuestion } from '../report/human.js';
import { renderEvent } from '../report/render.js';
import { emptyReport } from '../report/types.js';
import { runUpload } from '../upload.js';
import type { ProcessIo } from './io.js';
import type { CommandResult } from './result.js';
import { parseUploadOptions } from './options.js';
import { terminalUi } from './terminal.js';

export async function uploadAction(kind: Kind, file: string, flags: Record<string, unknown>, io: ProcessIo): Promise<CommandResult> {
  const json = flags.json === true;
  const interrupt = onInterrupt();
  const ui = await terminalUi({ color: flags.color !== false, quiet: flags.quiet === true || json, stderr: io.stderr, stdin: io.stdin, env: io.env, signal: interrupt.signal });
  try {
    const options = await parseUploadOptions(kind, file, flags, io);
    const { report, failure } = await runUpload(options, {
      env: io.env,
      stdin: io.stdin,
      signal: interrupt.signal,
      emit: (event) => renderEvent(ui, event),
      confirm: (request) => ui.confirm(confirmQuestion(request)),
    });
    return { report, failure, ui, json };
  } catch (failure) {
    return { report: emptyReport(kind, displayName(file), flags.dryRun === true), failure, ui, json };
  } finally {
    ui.done();
    interrupt.dispose();
  }
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
    controller.abort(new Interrupted('INTERRUPTED', `interrupted (${how}) before the upload was sent; nothing was changed on the service`, 'run again when ready'));
  }
  signals.forEach((s) => process.on(s, handler));
  return { signal: controller.signal, dispose };
}

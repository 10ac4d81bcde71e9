// The entry point: the program with its commands (src/commands/, run by ./runner.ts), and the one place that turns a
// command's result — or its failure — into output and an exit code.
import { EXIT, isUploadError, UploadError, type Outcome } from '../errors.js';
import type { RunFacts } from '../report/result.js';
import type { UploadReport } from '../report/report.js';
import { Secrets } from '../send/secrets.js';
import { isCommand, listCommands, loadCommand } from './table.js';
import { processIo, type ProcessIo, type RunIo } from './io.js';
import type { CommandResult, Ended } from './result.js';
import type { Ending } from '../report/assemble.js';

export type { ProcessIo } from './io.js';

/**
 * `upload … --json | head -c1`: the reader went away. What was left to say has nowhere to go; the run's
 * own outcome stands (an upload that succeeded is not turned into a crash with a stack).
 */
function quietOnBrokenPipe<S extends NodeJS.WritableStream>(stream: S): S {
  if (typeof stream.on !== 'function' || stream.listenerCount('error') > 0) return stream;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  return stream;
}

export async function main(argv: readonly string[], processIo_: ProcessIo = processIo()): Promise<number> {
  // The secrets this run must never show belong to it, not to the process (tests run many in one).
  // Copied with its getters, not spread: spreading would open stdin (milliseconds) on every run.
  const io = Object.defineProperties({ secrets: new Secrets() }, Object.getOwnPropertyDescriptors(processIo_)) as RunIo;
  // Passwords given on the command line or in the environment: masked from the first line on.
  io.secrets.keepPasswordsIn(argv);
  io.secrets.keepFromEnvironment(io.env);
  for (const name of ['stdout', 'stderr'] as const) {
    // A stream made on first use (the process's own, a getter) gets its handler then.
    if (!('value' in (Object.getOwnPropertyDescriptor(io, name) ?? {}))) {
      Object.defineProperty(io, name, { enumerable: true, get: () => quietOnBrokenPipe(processIo_[name]) });
    } else quietOnBrokenPipe(io[name]);
  }
  const help = helpAsked(argv);
  if (help && (help.command === undefined || isCommand(help.command))) {
    io.stdout.write(
      help.command === undefined
        ? (await import('./program-help.js')).programHelp(listCommands())
        : (await import('./help.js')).commandHelp(await loadCommand(help.command), help.all),
    );
    return EXIT.ok;
  }
  if (argv.length === 0) {
    // No command at all is a mistake (a cron line cut short), not a request for help: exit 2.
    io.stderr.write((await import('./program-help.js')).programHelp(listCommands()));
    return EXIT.usage;
  }
  let result: CommandResult;
  try {
    // The command's words, read against its flags (./argv.ts): --help above needs none of it.
    const outcome = await (await import('./program.js')).parse(argv, io);
    if (outcome === 'shown') return EXIT.ok;
    result = outcome;
  } catch (err) {
    result = { failure: err, json: argv.includes('--json'), facts: usageFacts(argv) };
  }
  return finish(result, io);
}

/** How a failure ends a run: the outcome, the exit code and the error the report carries. */
export function settle(failure: unknown): { outcome: Outcome; exitCode: number; error: NonNullable<UploadReport['error']>; internal: boolean } {
  if (isUploadError(failure)) {
    return {
      outcome: failure.outcome,
      exitCode: failure.exitCode,
      error: { code: failure.code, message: failure.message, hint: failure.hint ?? null, fixes: failure.fixes, service: failure.said ?? null },
      internal: false,
    };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return {
    outcome: 'internal-error',
    exitCode: EXIT.internal,
    error: { code: 'INTERNAL_ERROR', message, hint: null, fixes: [], service: null },
    internal: true,
  };
}

export async function finish(result: CommandResult, io: RunIo): Promise<number> {
  const { redact } = io.secrets;
  const { facts } = result;
  let exitCode = result.exitCode ?? EXIT.ok;
  let ending: Ending | undefined;
  if (result.failure !== undefined) {
    const settled = settle(result.failure);
    exitCode = settled.exitCode;
    ending = { ...settled, response: result.failure instanceof UploadError ? result.failure.response : undefined };
    if (settled.internal) {
      // A short message (the stack only with UPLOAD_DEBUG=1), redacted like every other output.
      io.stderr.write(`upload: internal error: ${redact(settled.error.message)}\n`);
      const stack = result.failure instanceof Error ? result.failure.stack : undefined;
      if (io.env.UPLOAD_DEBUG && stack) io.stderr.write(`${redact(stack)}\n`);
      else io.stderr.write('This is a bug. Run again with UPLOAD_DEBUG=1 for details, and report it.\n');
    } else {
      const say = result.ui ?? { style: { red: (s: string) => s }, notice: (line: string) => io.stderr.write(`${redact(line)}\n`) };
      say.notice(`${say.style.red('upload:')} ${settled.error.message}`);
      if (settled.error.hint) say.notice(`  → ${settled.error.hint}`);
    }
    // The error's causes (PostgreSQL's, the system's, undici's), which the message only summarises.
    if (io.env.UPLOAD_DEBUG) for (const line of (await import('./debug.js')).debugChain(result.failure, redact)) io.stderr.write(`${line}\n`);
  } else if (facts?.done) {
    // Uploaded with removals held back: a success a nightly job's monitoring must still see (exit 9).
    if (facts.done === 'uploaded' && facts.held?.length) exitCode = EXIT.held;
    ending = { outcome: facts.done, exitCode, error: null };
  }
  let report: UploadReport | undefined;
  if (facts && ending) {
    const { assembleReport, unchangedOf } = await import('../report/assemble.js');
    // --detailed-exitcode: a success that changes (or would change) something says so with 8.
    if (result.detailedExitcode && exitCode === EXIT.ok && facts.done && unchangedOf(facts) !== true) {
      exitCode = EXIT.changes;
      ending = { ...ending, exitCode };
    }
    report = assembleReport(facts, ending);
  }
  // redact() is the last line of defence: no code path puts the token in a report.
  const json = result.failure === undefined && result.data !== undefined ? result.data : report;
  if (result.json && json) io.stdout.write(`${redact(JSON.stringify(json, null, 2))}\n`);
  await afterRun(result, { report, exitCode }, io);
  return exitCode;
}

/**
 * The post-run point: what a command asked to do once its run has ended (a notification, a final
 * file), with the report and the exit code as they stand. It never changes the exit code: a failure
 * here is a warning.
 */
async function afterRun(result: CommandResult, ended: Ended, io: RunIo): Promise<void> {
  if (!result.afterRun) return;
  try {
    await result.afterRun(ended);
  } catch (err) {
    const message = isUploadError(err) ? err.message : err instanceof Error ? err.message : String(err);
    io.stderr.write(`${io.secrets.redact(`upload: warning: after the run: ${message}`)}\n`);
  }
}

/** What is known of a run that never started: a bad command line, or a crash outside a run. */
function usageFacts(argv: readonly string[]): RunFacts {
  const kind = argv.find((a) => a === 'store-cards' || a === 'team-members');
  return { kind: kind ?? null, source: null, dryRun: argv.includes('--dry-run') };
}

/**
 * `--help`, `-h` or `--help-all` (before a `--`), or `upload help [command]`: the help is written from
 * the command files (./help.ts) without building the parser.
 */
function helpAsked(argv: readonly string[]): { command: string | undefined; all: boolean } | undefined {
  const end = argv.indexOf('--');
  const before = end === -1 ? argv : argv.slice(0, end);
  if (before[0] === 'help') return { command: before[1], all: before.includes('--help-all') };
  const all = before.includes('--help-all');
  if (!all && !before.includes('--help') && !before.includes('-h')) return undefined;
  const first = before[0];
  return { command: first === undefined || first.startsWith('-') ? undefined : first, all };
}

// The entry point: the program with its commands (src/commands/, run by ./runner.ts), and the one place that turns a
// command's result — or its failure — into output and an exit code.
import { Command, CommanderError } from 'commander';
import { EXIT, isUploadError, UploadError, type Outcome } from '../errors.js';
import type { RunFacts } from '../engine/result.js';
import type { UploadReport } from '../report/types.js';
import { Secrets } from '../send/secrets.js';
import { versionLine } from '../version.js';
import { EXIT_CODES } from './help.js';
import { addCommand } from './program.js';
import { isCommand, loadCommand, loadCommands } from './table.js';
import { processIo, type ProcessIo, type RunIo } from './io.js';
import type { CommandResult, Ended } from './result.js';
import type { Ending } from '../report/assemble.js';

export type { ProcessIo } from './io.js';

/**
 * `upload … --json | head -c1`: the reader went away. What was left to say has nowhere to go; the run's
 * own outcome stands (an upload that succeeded is not turned into a crash with a stack).
 */
function quietOnBrokenPipe(stream: NodeJS.WritableStream): void {
  if (typeof stream.on !== 'function' || stream.listenerCount('error') > 0) return;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

export async function main(argv: readonly string[], processIo_: ProcessIo = processIo()): Promise<number> {
  // The secrets this run must never show belong to it, not to the process (tests run many in one).
  const io: RunIo = { ...processIo_, secrets: new Secrets() };
  quietOnBrokenPipe(io.stdout);
  quietOnBrokenPipe(io.stderr);
  let pending: Promise<CommandResult> | undefined;
  const run = (result: Promise<CommandResult>) => {
    pending = result;
  };
  const program = new Command('upload')
    .description('Upload the complete set of store cards or team members to the scheduling service, safely.')
    .version(await versionLine(), '-V, --version', 'print the version, with the Node it runs on')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  program.addHelpText(
    'after',
    `
Examples:
  $ upload team-members staff.csv --dry-run      validate and show what would change
  $ upload store-cards stores.xlsx --yes         upload a workbook without a prompt
  $ SANDBOX_TOKEN=dev upload sandbox --port 0    a local copy of the service to rehearse against
  $ upload template team-members > staff.csv     a CSV with every column
${EXIT_CODES}

Documentation: README.md and docs/ in the package.`,
  );
  // Only the command that runs is loaded; the program's --help (or a mistyped command) needs them all.
  const commands = isCommand(argv[0]) ? [[argv[0], await loadCommand(argv[0])] as const] : await loadCommands();
  for (const [name, spec] of commands) addCommand(program, name, spec, io, run, argv);

  if (argv.length === 0) {
    // No command at all is a mistake (a cron line cut short), not a request for help: exit 2.
    io.stderr.write(program.helpInformation());
    return EXIT.usage;
  }
  let result: CommandResult;
  try {
    await program.parseAsync([...argv], { from: 'user' });
    result = pending ? await pending : { exitCode: EXIT.ok };
  } catch (err) {
    const shown = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    if (err instanceof CommanderError && shown.includes(err.code)) return EXIT.ok;
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
      error: { code: failure.code, message: failure.message, hint: failure.hint ?? null, service: failure.said ?? null },
      internal: false,
    };
  }
  if (failure instanceof CommanderError) {
    // commander has printed its own message already.
    return {
      outcome: 'usage-error',
      exitCode: EXIT.usage,
      error: { code: 'BAD_USAGE', message: failure.message.replace(/^error: /, ''), hint: null, service: null },
      internal: false,
    };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return { outcome: 'internal-error', exitCode: EXIT.internal, error: { code: 'INTERNAL_ERROR', message, hint: null, service: null }, internal: true };
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
    } else if (!(result.failure instanceof CommanderError)) {
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

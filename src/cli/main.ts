// The command table and the one place that turns a command's result — or its failure — into output
// and an exit code. Each command is imported only when it runs, so `--help` loads no undici or zod
// and no reader.
import { Command, CommanderError, Option } from 'commander';
import type { Kind } from '../contract/kinds.js';
import { EXIT, isUploadError, UploadError, UsageError, type Outcome } from '../errors.js';
import type { RunFacts } from '../engine/result.js';
import { DEFAULTS } from '../engine/options.js';
import type { UploadReport } from '../report/types.js';
import { Secrets } from '../send/secrets.js';
import { toolVersion } from '../version.js';
import { processIo, type ProcessIo, type RunIo } from './io.js';
import type { CommandResult } from './result.js';
import type { Ending } from '../report/assemble.js';

export type { ProcessIo } from './io.js';

function uploadCommand(
  program: Command,
  kind: 'store-cards' | 'team-members',
  summary: string,
  run: (result: Promise<CommandResult>) => void,
  io: RunIo,
): Command {
  const cmd = program
    .command(`${kind} <file>`)
    .summary(summary)
    .description(
      `${summary}\n\n<file> is a CSV, JSON (array) or NDJSON file, or - for standard input. Every ${kind === 'store-cards' ? 'store card' : 'team member'} on the service is replaced by the file's records.`,
    )
    .option('--dry-run', 'read, validate, diff and guard, but send nothing')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .option('--json', 'write one JSON report to stdout')
    .option('--base-url <url>', 'service address (default: $UPLOAD_BASE_URL)')
    .option('--token-env <name>', 'environment variable holding the token', DEFAULTS.tokenEnv)
    .option('--token-file <path>', 'read the token from a file (- for standard input)')
    .option('--map <file|json>', 'mapping of wire field to column(s), a JSON file or inline JSON starting with {')
    .option('--ignore-column <name>', 'leave this column out (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .addOption(new Option('--time-format <format>', 'how the file writes 8.30: clock (08:30) or decimal (8.3 hours)').choices(['clock', 'decimal']))
    .addOption(new Option('--format <format>', 'input format (default: from the file extension)').choices(['csv', 'json', 'ndjson', 'xlsx']))
    .option('--sheet <name|n>', 'workbook sheet to read, by name or 1-based number (default: the first)')
    .option('--delimiter <char>', 'CSV delimiter: , ; | or tab (default: detected)')
    .option('--encoding <label>', 'text encoding, e.g. windows-1252 (default: UTF-8, or the BOM)')
    .option('--baseline <file>', 'compare against this file instead of the last upload')
    .option('--no-baseline', 'allow an upload with no baseline at all (the removal guard cannot protect it)');
  cmd.on('option:baseline', (file: string) => givenBaseline.set(cmd, file));
  cmd.on('option:no-baseline', () => acknowledged.add(cmd));
  if (kind === 'team-members') cmd.option('--store-cards <file>', "check each parentKey against this store-card file's nodeKeys");
  return cmd
    .option('--max-removals <n|p%>', 'refuse to remove more than this many records, or this share of the baseline', DEFAULTS.maxRemovals)
    .option('--max-changes <n|p%>', 'refuse to change more than this many records, or this share of the baseline', DEFAULTS.maxChanges)
    .option(
      '--max-emptied <n|p%>',
      'refuse to empty more than this many values of any one field, or this share of the records that hold one',
      DEFAULTS.maxEmptied,
    )
    .option('--allow-empty', 'allow uploading no records at all (deletes every record)')
    .option('--retries <n>', 'retries after a passing failure', String(DEFAULTS.retries))
    .option('--timeout <seconds>', 'time to wait for the answer to one attempt', String(DEFAULTS.timeoutSeconds))
    .option('--errors-csv <file>', 'write the rejected rows, with an errors column, to this file')
    .option('--payload-out <file>', 'write the exact request body to this file (also on a dry run)')
    .option('--diff-out <file>', 'write every added, removed and changed record to this CSV file')
    .option('--plan-out <file>', 'with --dry-run: save the plan, to send exactly it later with upload apply')
    .option('--detailed-exitcode', 'exit 8 instead of 0 when the upload changes (or would change) something')
    .option('--state <dir|url>', 'the state store: a directory, or postgres://… (default: $UPLOAD_STATE, else the XDG state directory)')
    .option('--state-dir <dir>', 'the older name of --state')
    .option('--keep <n>', 'keep the snapshots of this many confirmed uploads', String(DEFAULTS.keep))
    .option('--no-color', 'no colour in the output')
    .option('-q, --quiet', 'print only warnings, errors and the outcome')
    .addHelpText('after', uploadExamples(kind))
    .action(async (file: string, flags: Record<string, unknown>) => {
      const { uploadAction } = await import('./actions.js');
      run(uploadAction(kind, file, { ...flags, ...baselineFlags(cmd) }, io));
    });
}

function checkKind(kind: string): Kind {
  if (kind === 'store-cards' || kind === 'team-members') return kind;
  throw new UsageError('BAD_KIND', `'${kind}' is not a kind`, 'use store-cards or team-members');
}

/**
 * --baseline FILE and --no-baseline share commander's attribute (the last one given wins), but they
 * mean different things: the file to compare with, and the consent to upload without one. Both are
 * kept, so `--baseline old.csv --no-baseline` still compares with old.csv.
 */
function baselineFlags(cmd: Command): { baseline?: string; noBaseline: boolean } {
  return { baseline: givenBaseline.get(cmd), noBaseline: acknowledged.has(cmd) };
}
const givenBaseline = new WeakMap<Command, string>();
const acknowledged = new WeakSet<Command>();

function uploadExamples(kind: 'store-cards' | 'team-members'): string {
  const file = kind === 'store-cards' ? 'stores.csv' : 'staff.csv';
  return `
Examples:
  $ upload ${kind} ${file} --dry-run                 check the file, see the mapping and the changes; send nothing
  $ upload ${kind} ${file}                           the same, then confirm and upload
  $ upload ${kind} ${file} --yes --json              unattended (cron): no prompt, one JSON report on stdout
  $ upload ${kind} export.csv --map '{"${kind === 'store-cards' ? 'nodeKey": "Filiale' : 'employeeID": "Personalnummer'}"}'   name a column the tool does not know
  $ upload ${kind} ${file} --max-removals 37         allow exactly the 37 removals you expect
  $ upload ${kind} ${file} --max-changes 120         allow exactly the 120 changed records you expect
${EXIT_CODES}`;
}

const EXIT_CODES = `
Exit codes:
  0 uploaded, or a dry run that found nothing that would stop a real run
  1 internal error (a bug)           2 usage or configuration error
  3 invalid input; nothing sent      4 refused by a safety guard; nothing sent
  5 rejected by the service          6 unreachable, or outcome unknown after retries
  7 the answer does not confirm the upload                 130 interrupted`;

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
    .version(await toolVersion(), '-V, --version')
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
  uploadCommand(program, 'store-cards', 'upload the complete set of store cards', run, io);
  uploadCommand(program, 'team-members', 'upload the complete set of team members', run, io);
  const sendingOptions = (cmd: Command) =>
    cmd
      .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
      .option('--json', 'write one JSON report to stdout')
      .option('--base-url <url>', 'service address (default: $UPLOAD_BASE_URL)')
      .option('--token-env <name>', 'environment variable holding the token', DEFAULTS.tokenEnv)
      .option('--token-file <path>', 'read the token from a file (- for standard input)')
      .option('--retries <n>', 'retries after a passing failure', String(DEFAULTS.retries))
      .option('--timeout <seconds>', 'time to wait for the answer to one attempt', String(DEFAULTS.timeoutSeconds))
      .option('--state <dir|url>', 'the state store (default: $UPLOAD_STATE, else the XDG state directory)')
      .option('--state-dir <dir>', 'the older name of --state')
      .option('--keep <n>', 'keep the snapshots of this many confirmed uploads', String(DEFAULTS.keep))
      .option('--detailed-exitcode', 'exit 8 instead of 0 when the upload changes something')
      .option('--no-color', 'no colour in the output')
      .option('-q, --quiet', 'print only warnings, errors and the outcome');
  program
    .command('history <kind>')
    .summary('list the recorded uploads of store-cards or team-members, newest first')
    .description(
      'The uploads the state store recorded for one service address and kind, newest first, with what each changed and the failed attempts between them.',
    )
    .option('--base-url <url>', 'service address (default: $UPLOAD_BASE_URL)')
    .option('--state <dir|url>', 'the state store (default: $UPLOAD_STATE, else the XDG state directory)')
    .option('--state-dir <dir>', 'the older name of --state')
    .option('--limit <n>', 'show at most this many uploads', '20')
    .option('--json', 'write the history as JSON to stdout')
    .addHelpText(
      'after',
      `
Examples:
  $ upload history team-members --base-url https://scheduling.example.com
  $ upload history store-cards --limit 5 --json`,
    )
    .action(async (kind: string, flags: Record<string, unknown>) => {
      const { historyAction } = await import('./history.js');
      run(historyAction(checkKind(kind), flags, io));
    });
  sendingOptions(
    program
      .command('restore <kind>')
      .summary('upload an earlier recorded set again (default: the one before the latest)')
      .description(
        'Send an earlier generation of the store again, through the same diff, guards, confirmation and record as any upload. It becomes a new generation that says what it restored. A nightly job will send its own file again on its next run: pause it first.',
      )
      .option('--generation <n>', 'the upload to restore (see upload history); default: the one before the latest')
      .option('--dry-run', 'show what the restore would change, send nothing')
      .option('--max-removals <n|p%>', 'refuse to remove more than this many records, or this share of the latest upload', DEFAULTS.maxRemovals)
      .option('--max-changes <n|p%>', 'refuse to change more than this many records, or this share of the latest upload', DEFAULTS.maxChanges)
      .option(
        '--max-emptied <n|p%>',
        'refuse to empty more than this many values of any one field, or this share of the records that hold one',
        DEFAULTS.maxEmptied,
      )
      .option('--allow-empty', 'allow restoring a set with no records at all'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ upload restore team-members --dry-run                 what going back one upload would change
  $ upload restore team-members --generation 41 --yes`,
    )
    .action(async (kind: string, flags: Record<string, unknown>) => {
      const { restoreAction } = await import('./actions.js');
      run(restoreAction(checkKind(kind), flags, io));
    });
  sendingOptions(
    program
      .command('apply <plan>')
      .summary('send exactly a plan saved by --dry-run --plan-out, if the service has not moved since')
      .description(
        'Send the body a dry run saved with --plan-out, byte for byte, after checking that the plan is intact and that no upload happened since it was made (else PLAN_STALE, nothing sent).',
      ),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ upload team-members staff.csv --dry-run --plan-out reviewed.plan.json
  $ upload apply reviewed.plan.json --yes`,
    )
    .action(async (plan: string, flags: Record<string, unknown>) => {
      const { applyAction } = await import('./actions.js');
      run(applyAction(plan, flags, io));
    });
  program
    .command('state [action] [kind]')
    .summary('copy the state to another store (--to), or settle an upload sent but never confirmed (resolve)')
    .description(
      `Without an action: copy everything a state store holds — every base URL and kind, each with its generations, snapshots and audit log — into another store, e.g. from the local directory into PostgreSQL. The target must not hold any of it yet.

resolve <kind> --sent|--previous: an upload whose outcome was never learnt (the answer lost, the lock lost while sending, or a store that could not record it) is recorded as "sent, not confirmed", and every run compared with the recorded uploads refuses (BASELINE_UNCERTAIN) until it is settled. Check on the service which set it holds, then say --sent (it holds that upload: its recorded bytes become the latest) or --previous (it does not).`,
    )
    .option('--to <dir|url>', 'the store to copy into')
    .option('--from <dir|url>', 'the store to copy from (default: $UPLOAD_STATE, else the XDG state directory)')
    .option('--sent', 'resolve: the service holds the unconfirmed upload')
    .option('--previous', 'resolve: the service does not hold it (it still holds the latest recorded upload)')
    .option('--base-url <url>', 'resolve: service address (default: $UPLOAD_BASE_URL)')
    .option('--state <dir|url>', 'resolve: the state store (default: $UPLOAD_STATE, else the XDG state directory)')
    .option('--state-dir <dir>', 'the older name of --state')
    .addHelpText(
      'after',
      `
Examples:
  $ upload state --to postgres://uploader@db.example.com/scheduling
  $ upload state --from /mnt/shared/upload-state --to ~/.local/state/scheduling-upload
  $ upload state resolve team-members --sent        the service holds the upload that was sent but not confirmed`,
    )
    .action(async (action: string | undefined, kind: string | undefined, flags: Record<string, unknown>) => {
      const { stateAction, resolveAction } = await import('./state.js');
      if (action === undefined) run(stateAction(flags, io));
      else if (action === 'resolve') run(resolveAction(checkKind(kind ?? ''), flags, io));
      else
        run(
          Promise.resolve({
            failure: new UsageError(
              'BAD_USAGE',
              `'${action}' is not an action of upload state`,
              'use upload state --to STORE, or upload state resolve KIND --sent|--previous',
            ),
          }),
        );
    });
  program
    .command('sandbox')
    .summary('run the reference service on loopback')
    .description('Run the reference service (a faithful local copy of the scheduling service) for rehearsals and tests. The token is read from SANDBOX_TOKEN.')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'keep the uploaded sets in this directory (default: in memory)')
    .option('--max-body <bytes>', 'largest request body accepted (default: 1073741824, 1 GiB)')
    .option('--allow-remote', 'allow a --host other machines can reach (the sandbox is a loopback rehearsal service)')
    .addHelpText(
      'after',
      `
Examples:
  $ SANDBOX_TOKEN=dev-token upload sandbox --port 0 --data-dir ./sandbox-data
  $ UPLOAD_TOKEN=dev-token upload team-members staff.csv --base-url http://127.0.0.1:PORT --yes`,
    )
    .action(async (flags: Record<string, string | undefined>) => {
      const { sandboxAction } = await import('./sandbox.js');
      run(sandboxAction(flags, io));
    });
  program
    .command('template <kind>')
    .summary('print a CSV template for store-cards or team-members')
    .addHelpText(
      'after',
      `
Examples:
  $ upload template store-cards > stores.csv
  $ upload template team-members > staff.csv`,
    )
    .action(async (kind: string) => {
      const { templateAction } = await import('./template.js');
      run(templateAction(kind, io));
    });

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
      error: { code: failure.code, message: failure.message, hint: failure.hint ?? null },
      internal: false,
    };
  }
  if (failure instanceof CommanderError) {
    // commander has printed its own message already.
    return {
      outcome: 'usage-error',
      exitCode: EXIT.usage,
      error: { code: 'BAD_USAGE', message: failure.message.replace(/^error: /, ''), hint: null },
      internal: false,
    };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return { outcome: 'internal-error', exitCode: EXIT.internal, error: { code: 'INTERNAL_ERROR', message, hint: null }, internal: true };
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
  } else if (facts?.done) {
    ending = { outcome: facts.done, exitCode: EXIT.ok, error: null };
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
  return exitCode;
}

/** What is known of a run that never started: a bad command line, or a crash outside a run. */
function usageFacts(argv: readonly string[]): RunFacts {
  const kind = argv.find((a) => a === 'store-cards' || a === 'team-members');
  return { kind: kind ?? null, source: null, dryRun: argv.includes('--dry-run') };
}

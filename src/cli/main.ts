// The command table. Each command is imported only when it runs, so `--help` loads no undici or zod
// and no reader. This is the one place that turns errors into exit codes.
import { Command, CommanderError, Option } from 'commander';
import { EXIT } from '../errors.js';

export interface ProcessIo {
  readonly argv0?: string;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
}

const processIo = (): ProcessIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });

function uploadCommand(program: Command, kind: 'store-cards' | 'team-members', summary: string, run: (code: Promise<number>) => void, io: ProcessIo): Command {
  const cmd = program
    .command(`${kind} <file>`)
    .summary(summary)
    .description(`${summary}\n\n<file> is a CSV, JSON (array) or NDJSON file, or - for standard input. Every ${kind === 'store-cards' ? 'store card' : 'team member'} on the service is replaced by the file's records.`)
    .option('--dry-run', 'read, validate, diff and guard, but send nothing')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .option('--json', 'write one JSON report to stdout')
    .option('--base-url <url>', 'service address (default: $UPLOAD_BASE_URL)')
    .option('--token-env <name>', 'environment variable holding the token', 'UPLOAD_TOKEN')
    .option('--token-file <path>', 'read the token from a file (- for standard input)')
    .option('--map <file|json>', 'mapping of wire field to column(s), a JSON file or inline JSON starting with {')
    .option('--ignore-column <name>', 'leave this column out (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .addOption(new Option('--time-format <format>', 'how the file writes 8.30: clock (08:30) or decimal (8.3 hours)').choices(['clock', 'decimal']))
    .addOption(new Option('--format <format>', 'input format (default: from the file extension)').choices(['csv', 'json', 'ndjson', 'xlsx']))
    .option('--sheet <name|n>', 'workbook sheet to read, by name or 1-based number (default: the first)')
    .option('--delimiter <char>', 'CSV delimiter: , ; | or tab (default: detected)')
    .option('--encoding <label>', 'text encoding, e.g. windows-1252 (default: UTF-8, or the BOM)')
    .option('--baseline <file>', 'compare against this file instead of the last upload');
  if (kind === 'team-members') cmd.option('--store-cards <file>', "check each parentKey against this store-card file's nodeKeys");
  return cmd
    .option('--max-removals <n|p%>', 'refuse to remove more than this many records, or this share of the baseline', '10%')
    .option('--allow-empty', 'allow uploading no records at all (deletes every record)')
    .option('--retries <n>', 'retries after a passing failure', '4')
    .option('--timeout <seconds>', 'time to wait for the answer to one attempt', '300')
    .option('--errors-csv <file>', 'write the rejected rows, with an errors column, to this file')
    .option('--state-dir <dir>', 'where snapshots, the audit log and locks live')
    .option('--no-color', 'no colour in the output')
    .option('-q, --quiet', 'print only warnings, errors and the outcome')
    .action(async (file: string, flags: Record<string, unknown>) => {
      const { uploadAction } = await import('./upload.js');
      run(uploadAction(kind, file, flags, io));
    });
}

export async function main(argv: readonly string[], io: ProcessIo = processIo()): Promise<number> {
  let result: Promise<number> = Promise.resolve(EXIT.ok);
  const run = (code: Promise<number>) => {
    result = code;
  };
  const program = new Command('upload')
    .description('Upload the complete set of store cards or team members to the scheduling service, safely.')
    .version(await version(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  uploadCommand(program, 'store-cards', 'upload the complete set of store cards', run, io);
  uploadCommand(program, 'team-members', 'upload the complete set of team members', run, io);
  program
    .command('sandbox')
    .summary('run the reference service on loopback')
    .description('Run the reference service (a faithful local copy of the scheduling service) for rehearsals and tests. The token is read from SANDBOX_TOKEN.')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'keep the uploaded sets in this directory (default: in memory)')
    .option('--max-body <bytes>', 'largest request body accepted (default: 1073741824, 1 GiB)')
    .action(async (flags: Record<string, string | undefined>) => {
      const { sandboxAction } = await import('./sandbox.js');
      run(sandboxAction(flags, io));
    });
  program
    .command('template <kind>')
    .summary('print a CSV template for store-cards or team-members')
    .action(async (kind: string) => {
      const { templateAction } = await import('./template.js');
      run(templateAction(kind, io));
    });

  if (argv.length === 0) {
    // No command at all is a mistake (a cron line cut short), not a request for help: exit 2.
    io.stderr.write(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return await result;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      if (argv.includes('--json')) {
        const { usageReport } = await import('./upload.js');
        io.stdout.write(`${JSON.stringify(usageReport(argv, 'BAD_USAGE', err.message.replace(/^error: /, '')))}\n`);
      }
      return EXIT.usage;
    }
    const { reportCrash } = await import('./crash.js');
    return reportCrash(err, argv, io);
  }
}

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

// Every option of every command, declared once: its syntax, its help, its default and its choices. The
// commands take their subsets of it (each command file in src/commands/, from the GROUPS below), the command line is read
// against it (../cli/argv.ts), and what a command receives is typed by it. A test checks that every option shown in any --help is documented.
import { DEFAULTS } from '../pipeline/options.js';
import { HIDDEN_ROWS_CHOICES } from '../read/types.js';

export interface Spec {
  /** The syntax --help shows and ./argv.ts reads: `--name`, `-x, --name`, `--name <value>`, `--no-name`. */
  readonly flags: string;
  readonly help: string;
  /** Shown in --help and handed to the command when the option is not given. */
  readonly default?: string;
  readonly choices?: readonly string[];
  /** May be given more than once; the values are collected in order. */
  readonly repeat?: true;
  readonly required?: true;
  /** Accepted but not shown in --help (an older name kept for the scripts that use it). */
  readonly hidden?: true;
}

export const FLAGS = {
  dryRun: { flags: '-n, --dry-run', help: 'read, validate, diff and guard, but send nothing' },
  yes: { flags: '-y, --yes', help: 'do not ask for confirmation (required without a terminal)' },
  json: { flags: '--json', help: 'write one JSON document (the report, or the history) to stdout' },
  baseUrl: { flags: '--base-url <url>', help: 'service address (default: $UPLOAD_BASE_URL)' },
  tokenEnv: { flags: '--token-env <name>', help: 'environment variable holding the token', default: DEFAULTS.tokenEnv },
  tokenFile: { flags: '--token-file <path>', help: 'read the token from a file (- for standard input)' },
  map: { flags: '--map <file|json>', help: 'mapping of wire field to column(s), a JSON file or inline JSON starting with {' },
  ignoreColumn: { flags: '--ignore-column <name>', help: 'leave this column out (repeatable)', repeat: true },
  timeFormat: {
    flags: '--time-format <format>',
    help: 'how the file writes 8.30: clock (08:30) or decimal (8.3 hours); and 9-5: 12h (09:00-17:00) or 24h (to 05:00 next day); both: clock,12h',
  },
  statusColumn: {
    flags: '--status-column <column>',
    help: "an HR export's status column: keep only the rows whose status --active names, leave the others out (listed)",
  },
  active: {
    flags: '--active <statuses>',
    help: 'with --status-column: the statuses to keep, separated by commas (e.g. Active,"On Leave"); (empty) keeps an empty status cell',
  },
  noStatusColumn: {
    flags: '--no-status-column <column>',
    help: 'this column looks like an employment status but is not one: keep every row, leave the column out (repeatable)',
    repeat: true,
  },
  splitHours: {
    flags: '--split-hours <how>',
    help: 'store cards: a day with two periods (9-12, 14-18) is an error, or with span is sent as 9-18',
    choices: ['error', 'span'],
  },
  hoursAsOf: {
    flags: '--hours-as-of <date>',
    help: 'store cards: read hours bound to dates (Apr 10-15 off, Jun 08:00-14:00) for the week (Monday to Sunday) holding this date, YYYY-MM-DD',
  },
  closedDays: {
    flags: '--closed-days <days>',
    help: 'store cards: the weekdays the file leaves out because the stores are closed then, e.g. Sa,Su',
  },
  format: {
    flags: '--format <format>',
    help: "input format (default: a workbook or text by the file's first bytes, then the extension)",
    choices: ['csv', 'json', 'ndjson', 'xlsx'],
  },
  sheet: { flags: '--sheet <name|n>', help: 'workbook sheet to read, by name or number among the visible sheets (default: the first visible)' },
  headerRow: { flags: '--header-row <n>', help: 'workbook row that names the columns, when a title is above it (default: the first non-blank row)' },
  hiddenRows: {
    flags: '--hidden-rows <mode>',
    help: "upload a workbook's hidden rows, or leave them out (default: each is an error)",
    choices: HIDDEN_ROWS_CHOICES,
  },
  delimiter: { flags: '--delimiter <char>', help: 'CSV delimiter: , ; | or tab (default: detected)' },
  encoding: { flags: '--encoding <label>', help: 'text encoding, e.g. windows-1252 (default: UTF-8, or the BOM)' },
  baseline: { flags: '--baseline <file>', help: 'compare against this file instead of the last upload' },
  noBaseline: { flags: '--no-baseline', help: 'allow an upload with no baseline at all (the removal guard cannot protect it)' },
  merge: { flags: '--merge', help: 'the file holds only records to add or replace (by key); every other record of the last upload is kept' },
  holdRemovals: {
    flags: '--hold-removals',
    help: 'if the removal guard would refuse: send the file plus the recorded records it leaves out, delete nothing, exit 9',
  },
  sameLayout: {
    flags: '--same-layout',
    help: "refuse a file whose header differs from the last upload's (added, removed or renamed columns): for cron jobs",
  },
  keysFile: { flags: '--keys-file <file>', help: 'also remove the keys in this file, one per line (- for standard input)' },
  output: { flags: '-o, --output <file>', help: 'write to this file (default: CSV on standard output)' },
  exportFormat: {
    flags: '--format <format>',
    help: "csv, xlsx or json; for store cards' hours also osm, schema-org or gbp (default: from --output's extension, else csv)",
    choices: ['csv', 'xlsx', 'json', 'osm', 'schema-org', 'gbp'],
  },
  exportGeneration: { flags: '--generation <n>', help: 'an earlier upload (see upload history); default: the latest' },
  storeCards: { flags: '--store-cards <file>', help: "check each parentKey against this store-card file's nodeKeys" },
  maxRemovals: {
    flags: '--max-removals <n|p%>',
    help: 'refuse to remove more than this many records, or this share of the baseline',
    default: DEFAULTS.maxRemovals,
  },
  maxChanges: {
    flags: '--max-changes <n|p%>',
    help: 'refuse to change more than this many records, or this share of the baseline',
    default: DEFAULTS.maxChanges,
  },
  maxEmptied: {
    flags: '--max-emptied <n|p%>',
    help: 'refuse to empty more than this many values of any one field, or this share of the records that hold one',
    default: DEFAULTS.maxEmptied,
  },
  approvals: {
    flags: '--approvals <n>',
    help: 'four eyes without a config: this many other people must approve a plan before it is applied (a target\'s "approvals" sets it)',
  },
  plan: {
    flags: '--plan <n>',
    help: 'approve or apply, without a plan file: the plan kept in the state store with this number (the list says it)',
  },
  allowEmpty: { flags: '--allow-empty', help: 'allow uploading no records at all (deletes every record)' },
  retries: { flags: '--retries <n>', help: 'retries after a passing failure', default: String(DEFAULTS.retries) },
  timeout: { flags: '--timeout <seconds>', help: 'time to wait for the answer to one attempt', default: String(DEFAULTS.timeoutSeconds) },
  errorsCsv: { flags: '--errors-csv <file>', help: 'write the rejected rows, with an errors column, to this file' },
  payloadOut: { flags: '--payload-out <file>', help: 'write the exact request body to this file (also on a dry run)' },
  diffOut: { flags: '--diff-out <file>', help: 'write every added, removed and changed record to this CSV file' },
  planOut: { flags: '--plan-out <file>', help: 'with --dry-run: save the plan, to send exactly it later with upload apply' },
  detailedExitcode: { flags: '--detailed-exitcode', help: 'exit 8 instead of 0 when the upload changes (or would change) something' },
  state: { flags: '--state <dir|url>', help: 'the state store: a directory, or postgres://… (default: $UPLOAD_STATE, else the state folder of this system)' },
  stateDir: { flags: '--state-dir <dir>', help: 'the older name of --state', hidden: true },
  keep: { flags: '--keep <n>', help: 'keep the snapshots of this many confirmed uploads', default: String(DEFAULTS.keep) },
  noColor: { flags: '--no-color', help: 'no colour in the output' },
  quiet: { flags: '-q, --quiet', help: 'print only warnings, errors and the outcome' },
  generation: { flags: '--generation <n>', help: 'the upload to restore (see upload history); default: the one before the latest' },
  releaseGeneration: { flags: '--generation <n>', help: 'the upload whose held removals to release (see upload history); default: the latest' },
  limit: { flags: '--limit <n>', help: 'show at most this many uploads', default: '20' },
  to: { flags: '--to <dir|url>', help: 'the store to copy into' },
  from: { flags: '--from <dir|url>', help: 'the store to copy from (default: $UPLOAD_STATE, else the state folder of this system)' },
  sent: { flags: '--sent', help: 'resolve: the service holds the unconfirmed upload' },
  previous: { flags: '--previous', help: 'resolve: the service does not hold it (it still holds the latest recorded upload)' },
  port: { flags: '--port <port>', help: 'port to listen on (0 picks a free one)', default: '8080' },
  host: { flags: '--host <host>', help: 'address to listen on', default: '127.0.0.1' },
  dataDir: { flags: '--data-dir <dir>', help: 'keep the uploaded sets in this directory (default: in memory)' },
  maxBody: { flags: '--max-body <bytes>', help: 'largest request body accepted (default: 1073741824, 1 GiB)' },
  allowRemote: { flags: '--allow-remote', help: 'allow a --host other machines can reach (the sandbox is a loopback rehearsal service)' },
  config: { flags: '--config <file>', help: 'the config file with the named targets (default: ./upload.config.json, else the per-user one)' },
  target: {
    flags: '--target <name>',
    help: 'a named target of the config: its service, state, token, maps, limits and notifications (default: $UPLOAD_TARGET)',
  },
  reportHtml: { flags: '--report-html <file>', help: 'write a review page of the run: one self-contained HTML file' },
  notify: { flags: '--notify <url>', help: 'after the run, post a JSON summary to this webhook (repeatable; default: $UPLOAD_NOTIFY)', repeat: true },
  notifyOn: { flags: '--notify-on <when>', help: 'when to notify (default: failure, any exit but 0 and 8)', choices: ['failure', 'change', 'always'] },
  notifyFormat: {
    flags: '--notify-format <form>',
    help: 'the notification as slack (text and blocks), teams (an Adaptive Card) or json (default: $UPLOAD_NOTIFY_FORMAT, else json)',
    choices: ['json', 'slack', 'teams'],
  },
  html: { flags: '--html <file>', help: 'also write the history as one self-contained HTML page' },
  kind: { flags: '--kind <kind>', help: 'show the --map for this kind', choices: ['store-cards', 'team-members'] },
} as const satisfies Record<string, Spec>;

export type FlagName = keyof typeof FLAGS;

/** What a flag hands its command: a list for a repeatable one, the text for one with a value, true for a switch. */
type Value<S> = S extends { repeat: true } ? readonly string[] : S extends { flags: `${string}<${string}` } ? string : true;
export type Flags = { readonly [K in FlagName]?: Value<(typeof FLAGS)[K]> };

/**
 * The shared groups a command composes its options from, so that every command that touches a store
 * or the service says --target, --state and --json the same way.
 */
export const GROUPS = {
  /** A named target of the config file: its service, state, token, maps, limits and notifications. */
  target: ['config', 'target'],
  /** Reaching and sending to the service. */
  sending: ['yes', 'baseUrl', 'tokenEnv', 'tokenFile', 'retries', 'timeout'],
  /** The state store, read only. */
  store: ['state', 'stateDir'],
  /** The state store of a command that records an upload. */
  state: ['state', 'stateDir', 'keep'],
  /** The safety guards' limits. */
  guards: ['maxRemovals', 'maxChanges', 'maxEmptied', 'allowEmpty'],
  /** How a run that may send reports. */
  output: ['json', 'detailedExitcode', 'noColor', 'quiet'],
  /** After the run: the review page and the notification. */
  after: ['reportHtml', 'notify', 'notifyOn', 'notifyFormat'],
  /** Four eyes for a service without a config file (a target's "approvals" says it otherwise). */
  fourEyes: ['approvals'],
  /** After a run without a review page: the notification. */
  notify: ['notify', 'notifyOn', 'notifyFormat'],
} as const satisfies Record<string, readonly FlagName[]>;

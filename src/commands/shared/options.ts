// Flags → the typed options of an upload. Every flag is checked here, before any file is read, in the
// order a person fixes them: where to send, with which token, how to confirm, then the input's flags.
import type { Kind } from '../../contract/kinds.js';
import { UsageError } from '../../errors.js';
import { parseIsoDate, today } from '../../map/date-rules.js';
import { loadMapping } from '../../map/mapping-file.js';
import type { Limits, RecordedSetOptions, SendOptions, UploadOptions } from '../../pipeline/options.js';
import { count, parseLimits, parseState, seconds } from './parse.js';
import { parseDelimiterFlag } from '../../read/csv.js';
import { checkEncoding } from '../../read/decode.js';
import { displayName } from '../../read/index.js';
import type { HiddenRows, InputFormat } from '../../read/types.js';
import { resolveBaseUrl, resolveToken } from '../../send/config.js';
import type { Flags } from '../../cli/flags.js';
import { interactive, type RunIo } from '../../cli/io.js';
import type { TargetedFlags } from '../../cli/targets.js';

/**
 * The address, token and confirmation, checked in the order a person fixes them. A dry run sends
 * nothing, so it needs none of them, but those it is given are checked. `stdin` names what else
 * reads standard input (the records), which then cannot carry the token or answer a question.
 */
export async function parseSending(
  flags: TargetedFlags,
  io: RunIo,
  how: { dryRun: boolean; stdin?: string | undefined; url?: 'always' | 'when-sending' | 'optional' },
): Promise<SendOptions> {
  const { dryRun, stdin } = how;
  // As the settings resolved them (../config/settings.ts): a flag, the target's, or the default.
  const { settings } = flags;
  const retries = count('--retries', settings.retries.value, 0);
  const timeoutSeconds = seconds('--timeout', settings.timeout.value);
  const tokenEnv = String(settings.tokenEnv.value);
  const tokenFile = flags.tokenFile;
  const url = how.url ?? 'when-sending';
  const given = flags.baseUrl !== undefined;
  const wantsUrl = url === 'always' || given || (url === 'when-sending' && !dryRun);
  const baseUrl = wantsUrl ? resolveBaseUrl(flags.settings.baseUrl, io.env) : undefined;
  if (stdin !== undefined && tokenFile === '-') {
    throw new UsageError('STDIN_TWICE', `the ${stdin} and the token cannot both come from standard input`, 'put the token in UPLOAD_TOKEN or a --token-file');
  }
  const tokenConfigured = tokenFile !== undefined || io.env[tokenEnv] !== undefined;
  const token = !dryRun || tokenConfigured ? await resolveToken({ tokenEnv, tokenFile }, io.env, () => io.stdin) : undefined;
  if (token) io.secrets.keep(token.value);
  const confirm = flags.yes === true ? 'yes' : interactive(io) && stdin === undefined ? 'prompt' : 'impossible';
  if (!dryRun && confirm === 'impossible') {
    throw new UsageError(
      'NO_CONFIRMATION',
      'this upload replaces every record on the service and there is no terminal to confirm it',
      'review it with --dry-run, then pass --yes',
    ).withFixes({ kind: 'flags', args: ['--dry-run'] }, { kind: 'flags', args: ['--yes'] });
  }
  return { retries, timeoutSeconds, baseUrl, token, tokenEnv, confirm };
}

export async function parseUploadOptions(kind: Kind, file: string, flags: TargetedFlags, io: RunIo): Promise<UploadOptions> {
  const dryRun = flags.dryRun === true;
  const sending = await parseSending(flags, io, { dryRun, stdin: file === '-' ? 'records' : undefined });
  const { baseUrl } = sending;

  const { errorsCsv, payloadOut, diffOut, planOut, encoding, storeCards } = flags;
  // Loaded only for the flags that write files: most runs write none.
  if (errorsCsv !== undefined) await (await import('../../render/errors-csv.js')).checkWritable(errorsCsv);
  if (payloadOut !== undefined) await checkWritable(payloadOut, '--payload-out');
  if (diffOut !== undefined) await checkWritable(diffOut, '--diff-out');
  await planOutOf(flags, dryRun, baseUrl);
  checkEncoding(encoding);
  const delimiter = flags.delimiter === undefined ? undefined : parseDelimiterFlag(flags.delimiter);
  const mapping = loadMapping(flags.map, kind, {
    ignoreColumns: flags.ignoreColumn,
    timeFormat: flags.timeFormat,
    splitHours: flags.splitHours,
    statusColumn: flags.statusColumn,
    active: flags.active,
    noStatusColumns: flags.noStatusColumn,
    closedDays: flags.closedDays,
  });
  const limits = parseLimits(flags);
  const state = parseState(flags, io);
  if (storeCards === '-' && (file === '-' || flags.tokenFile === '-')) {
    throw new UsageError('STDIN_TWICE', '--store-cards - cannot share standard input with the records or the token', 'give --store-cards a file');
  }

  return {
    kind,
    file,
    source: displayName(file),
    dryRun,
    ...sending,
    mapping,
    mappingFlags: mappingFlagsGiven(flags),
    sameLayout: flags.sameLayout === true,
    format: flags.format as InputFormat | undefined,
    delimiter,
    encoding,
    sheet: flags.sheet,
    headerRow: flags.headerRow === undefined ? undefined : count('--header-row', flags.headerRow, 1),
    // The command line's reading (./argv.ts) has checked it is one of the choices (--hidden-rows include|exclude).
    hiddenRows: flags.hiddenRows as HiddenRows | undefined,
    baseline: flags.baseline,
    noBaseline: flags.noBaseline === true,
    ...setFlags(flags),
    storeCards,
    hoursAsOf: hoursAsOf(flags.hoursAsOf),
    limits,
    errorsCsv,
    payloadOut,
    diffOut,
    planOut,
    ...state,
    target: flags.targetName ?? null,
  };
}

/** --hours-as-of: a real day written YYYY-MM-DD, or unset. */
function hoursAsOf(text: string | undefined): string | undefined {
  if (text === undefined || parseIsoDate(text)) return text;
  throw new UsageError(
    'BAD_FLAG',
    `--hours-as-of '${text}' is not a date written YYYY-MM-DD`,
    `pass the day whose week to send, such as --hours-as-of ${today()}`,
  ).withFixes({ kind: 'flags', args: ['--hours-as-of', today()] });
}

/** The flags that say how to read the columns: given, they win over the mapping an earlier upload recorded. */
function mappingFlagsGiven(flags: Flags): string[] {
  const given: [string, unknown][] = [
    ['--map', flags.map],
    ['--ignore-column', flags.ignoreColumn?.length ? flags.ignoreColumn : undefined],
    ['--time-format', flags.timeFormat],
    ['--split-hours', flags.splitHours],
    ['--closed-days', flags.closedDays],
    ['--status-column', flags.statusColumn],
    ['--active', flags.active],
    ['--no-status-column', flags.noStatusColumn?.length ? flags.noStatusColumn : undefined],
  ];
  return given.filter(([, value]) => value !== undefined).map(([name]) => name);
}

/** --plan-out: only on a dry run, with an address, to a file that can be written. */
export async function planOutOf(flags: Flags, dryRun: boolean, baseUrl: URL | undefined): Promise<string | undefined> {
  const { planOut } = flags;
  if (planOut === undefined) return undefined;
  if (!dryRun)
    throw new UsageError(
      'BAD_FLAG',
      '--plan-out saves the plan of a dry run',
      'run with --dry-run --plan-out FILE, review it, then: upload apply FILE',
    ).withFixes({
      kind: 'flags',
      args: ['--dry-run'],
    });
  if (!baseUrl)
    throw new UsageError(
      'NO_BASE_URL',
      '--plan-out needs the service address: a plan is made against what that service last confirmed',
      'pass --base-url https://… or set UPLOAD_BASE_URL',
    );
  await checkWritable(planOut, '--plan-out');
  return planOut;
}

/** private-file's check that a path can be written, loaded only when a flag names a file. */
async function checkWritable(path: string, flag: string): Promise<void> {
  const { checkWritable: check } = await import('../../files/private-file.js');
  await check(path, flag);
}

/**
 * --merge builds on what the service last confirmed, so it takes neither another baseline nor
 * --no-baseline; --hold-removals holds what a file leaves out, which a merge never does.
 */
function setFlags(flags: Flags): { merge: boolean; holdRemovals: boolean } {
  const merge = flags.merge === true;
  const holdRemovals = flags.holdRemovals === true;
  if (merge && (flags.baseline !== undefined || flags.noBaseline === true)) {
    throw new UsageError(
      'BAD_FLAG',
      `--merge adds to the last upload recorded in the state store; it cannot be combined with ${flags.noBaseline === true ? '--no-baseline' : '--baseline'}`,
      'drop that flag: a merge is always compared with, and built on, the last recorded set',
    );
  }
  if (merge && holdRemovals)
    throw new UsageError('BAD_FLAG', '--hold-removals has nothing to hold with --merge: a merge removes no records', 'drop --hold-removals');
  return { merge, holdRemovals };
}

/**
 * restore, remove and release: the options every operation on the recorded set shares, read in the
 * order a person fixes them (address and token, then the plan file, then the limits and the store).
 * `stdin` names what else reads standard input (remove's --keys-file -).
 */
export async function parseRecordedSet(kind: Kind, flags: TargetedFlags, io: RunIo, stdin?: string): Promise<RecordedSetOptions & { readonly limits: Limits }> {
  const dryRun = flags.dryRun === true;
  const sending = await parseSending(flags, io, { dryRun, url: 'always', stdin });
  const planOut = await planOutOf(flags, dryRun, sending.baseUrl);
  return {
    kind,
    dryRun,
    ...sending,
    baseUrl: sending.baseUrl!,
    limits: parseLimits(flags),
    ...parseState(flags, io),
    planOut,
    target: flags.targetName ?? null,
  };
}

// Flags → the typed options of an upload. Every flag is checked here, before any file is read, in the
// order a person fixes them: where to send, with which token, how to confirm, then the input's flags.
import type { Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { parseMaxRemovals } from '../guard/limit.js';
import { loadMapping } from '../map/mapping-file.js';
import { DEFAULTS, type UploadOptions } from '../options.js';
import { parseDelimiterFlag } from '../read/csv.js';
import { checkEncoding } from '../read/decode.js';
import { displayName } from '../read/index.js';
import type { InputFormat } from '../read/types.js';
import { resolveStateDir } from '../record/state.js';
import { checkWritable as checkErrorsCsvWritable } from '../report/errors-csv.js';
import { checkWritable } from '../report/private-file.js';
import { resolveBaseUrl, resolveToken } from '../send/config.js';
import type { ProcessIo } from './io.js';

function count(flag: string, value: unknown, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || String(value).trim() === '') {
    throw new UsageError('BAD_FLAG', `${flag} '${String(value)}' must be a whole number of at least ${min}`, `e.g. ${flag} ${Math.max(min, 3)}`);
  }
  return n;
}

function seconds(flag: string, value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || String(value).trim() === '') {
    throw new UsageError('BAD_FLAG', `${flag} '${String(value)}' must be a number of seconds above 0`, `e.g. ${flag} 60`);
  }
  return n;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export async function parseUploadOptions(kind: Kind, file: string, flags: Record<string, unknown>, io: ProcessIo): Promise<UploadOptions> {
  const retries = count('--retries', flags.retries ?? DEFAULTS.retries, 0);
  const timeoutSeconds = seconds('--timeout', flags.timeout ?? DEFAULTS.timeoutSeconds);
  const dryRun = flags.dryRun === true;
  const baseUrlFlag = text(flags.baseUrl);
  const tokenEnv = text(flags.tokenEnv) ?? DEFAULTS.tokenEnv;
  const tokenFile = text(flags.tokenFile);

  // A dry run sends nothing, so it needs no address, token or confirmation; those it is given are checked.
  const wantsUrl = !dryRun || baseUrlFlag !== undefined || io.env.UPLOAD_BASE_URL;
  const baseUrl = wantsUrl ? resolveBaseUrl(baseUrlFlag, io.env) : undefined;
  if (file === '-' && tokenFile === '-') {
    throw new UsageError('STDIN_TWICE', 'the records and the token cannot both come from standard input', 'put the token in UPLOAD_TOKEN or a --token-file');
  }
  const tokenConfigured = tokenFile !== undefined || io.env[tokenEnv] !== undefined;
  const token = !dryRun || tokenConfigured ? await resolveToken({ tokenEnv, tokenFile }, io.env, io.stdin) : undefined;
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;
  const confirm = flags.yes === true ? 'yes' : interactive && file !== '-' ? 'prompt' : 'impossible';
  if (!dryRun && confirm === 'impossible') {
    throw new UsageError('NO_CONFIRMATION', 'this upload replaces every record on the service and there is no terminal to confirm it', 'review it with --dry-run, then pass --yes');
  }

  const errorsCsv = text(flags.errorsCsv);
  if (errorsCsv !== undefined) await checkErrorsCsvWritable(errorsCsv);
  const payloadOut = text(flags.payloadOut);
  if (payloadOut !== undefined) await checkWritable(payloadOut, '--payload-out');
  const diffOut = text(flags.diffOut);
  if (diffOut !== undefined) await checkWritable(diffOut, '--diff-out');
  const encoding = text(flags.encoding);
  checkEncoding(encoding);
  const delimiter = flags.delimiter === undefined ? undefined : parseDelimiterFlag(String(flags.delimiter));
  const mapping = loadMapping(text(flags.map), kind);
  const maxRemovals = parseMaxRemovals(text(flags.maxRemovals) ?? DEFAULTS.maxRemovals);
  const stateDir = resolveStateDir(text(flags.stateDir), io.env);
  const storeCards = text(flags.storeCards);
  if (storeCards === '-' && (file === '-' || tokenFile === '-')) {
    throw new UsageError('STDIN_TWICE', '--store-cards - cannot share standard input with the records or the token', 'give --store-cards a file');
  }

  return {
    kind,
    file,
    source: displayName(file),
    dryRun,
    confirm,
    baseUrl,
    token,
    tokenEnv,
    mapping,
    format: text(flags.format) as InputFormat | undefined,
    delimiter,
    encoding,
    baseline: text(flags.baseline),
    storeCards,
    maxRemovals,
    allowEmpty: flags.allowEmpty === true,
    retries,
    timeoutSeconds,
    errorsCsv,
    payloadOut,
    diffOut,
    stateDir,
  };
}

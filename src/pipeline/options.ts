// The options of the commands, fully parsed: what the CLI hands the engine. Their defaults are declared
// once, in the settings table (../config/settings.ts), which the CLI fills them in from.
import type { Kind } from '../contract/kinds.js';
import type { Limits } from '../guard/limit.js';
import type { Mapping } from '../map/mapping-file.js';
import type { HiddenRows, InputFormat } from '../read/types.js';
import type { Token } from '../send/config.js';
import type { FourEyes } from './approval.js';

export interface UploadOptions {
  readonly kind: Kind;
  /** The input path, or "-" for standard input. */
  readonly file: string;
  /** The input's name in messages ("stdin" for "-"). */
  readonly source: string;
  readonly dryRun: boolean;
  /** How a real run is confirmed: --yes, a question on the terminal, or not at all (no terminal). */
  readonly confirm: 'yes' | 'prompt' | 'impossible';
  /** Undefined only on a dry run with no address configured. */
  readonly baseUrl: URL | undefined;
  /** Undefined only on a dry run with no token configured. */
  readonly token: Token | undefined;
  readonly tokenEnv: string;
  readonly mapping: Mapping;
  /** The mapping flags given (--map, --time-format …): they win over the mapping recorded for the same header. */
  readonly mappingFlags?: readonly string[];
  /** --same-layout: a header that differs from the last upload's is refused (LAYOUT_NOT_SAME), not only named. */
  readonly sameLayout?: boolean;
  readonly format: InputFormat | undefined;
  readonly delimiter: string | undefined;
  readonly encoding: string | undefined;
  /** --sheet: a workbook's sheet, by name or 1-based number. */
  readonly sheet: string | undefined;
  /** --header-row: a workbook's row that names the columns (a title row above it). */
  readonly headerRow: number | undefined;
  /** --hidden-rows: what to do with a workbook's hidden rows (unset: each is an error). */
  readonly hiddenRows: HiddenRows | undefined;
  readonly baseline: string | undefined;
  /** --no-baseline: the user knows the removal guard cannot protect an upload with no baseline. */
  readonly noBaseline: boolean;
  /** --merge: the file's records are added to (or replace) the last recorded set (../operations/merge.ts). */
  readonly merge: boolean;
  /** --hold-removals: when the removal guard would refuse, keep the omitted records instead (exit 9). */
  readonly holdRemovals: boolean;
  readonly storeCards: string | undefined;
  /** --hours-as-of: the day whose ISO week date-bound hours are read for (YYYY-MM-DD); unset, they are refused. */
  readonly hoursAsOf?: string | undefined;
  readonly limits: Limits;
  readonly retries: number;
  readonly timeoutSeconds: number;
  readonly errorsCsv: string | undefined;
  /** --payload-out: where to write the exact request body. */
  readonly payloadOut: string | undefined;
  /** --diff-out: where to write every change as CSV. */
  readonly diffOut: string | undefined;
  /** --plan-out (dry runs): where to save the plan for `upload apply`. */
  readonly planOut: string | undefined;
  /** Where the state lives: a directory path, or a postgres:// URL (--state, UPLOAD_STATE, --state-dir). */
  readonly state: string;
  /** --keep: how many confirmed uploads keep their snapshots. */
  readonly keep: number;
  /** How the uploader is named in the history (UPLOAD_USER / UPLOAD_HOST, else the OS's names). */
  readonly identity: Identity;
  /** The named target of the config file the run was pointed at (--target), recorded in a saved plan. */
  readonly target?: string | null;
}

export interface Identity {
  readonly user: string;
  readonly host: string;
}

/** What sending needs: where, with which token, how to confirm, how hard to try. */
export interface SendOptions {
  readonly retries: number;
  readonly timeoutSeconds: number;
  /** Undefined only where the command needs none (a dry run with no address, or a saved plan's). */
  readonly baseUrl: URL | undefined;
  /** Undefined only on a dry run with no token configured. */
  readonly token: Token | undefined;
  readonly tokenEnv: string;
  /** How a real run is confirmed: --yes, a question on the terminal, or not at all (no terminal). */
  readonly confirm: 'yes' | 'prompt' | 'impossible';
}

/** Where the state lives, how much of it to keep, and how this run is named in it. */
export interface StateOptions {
  /** A directory path, or a postgres:// URL (--state, UPLOAD_STATE, --state-dir). */
  readonly state: string;
  /** --keep: how many confirmed uploads keep their snapshots. */
  readonly keep: number;
  /** How the uploader is named in the history (UPLOAD_USER / UPLOAD_HOST, else the OS's names). */
  readonly identity: Identity;
  /** The target needs approvals (four eyes): direct sends are refused, saved plans are recorded. */
  readonly fourEyes?: FourEyes | undefined;
}

/**
 * What every operation on the recorded set shares (restore, remove, release): the kind, the address,
 * whether it only plans, and the plan it may save for four eyes.
 */
export interface RecordedSetOptions extends SendOptions, StateOptions {
  readonly kind: Kind;
  readonly dryRun: boolean;
  readonly baseUrl: URL;
  /** --plan-out with --dry-run: save the plan, for `upload approve` and `upload apply`. */
  readonly planOut?: string | undefined;
  /** The config's named target: recorded in a saved plan, and named in the fixes. */
  readonly target?: string | null;
}

export type { Limits } from '../guard/limit.js';

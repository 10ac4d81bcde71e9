// The options of an upload, fully parsed: what the CLI hands the engine. Every default is defined here
// once; the CLI shows them in --help and fills them in.
import type { Kind } from './contract/kinds.js';
import type { RemovalLimit } from './guard/limit.js';
import type { Mapping } from './map/mapping-file.js';
import type { InputFormat } from './read/types.js';
import type { Token } from './send/config.js';

export const DEFAULTS = {
  retries: 4,
  timeoutSeconds: 300,
  maxRemovals: '10%',
  tokenEnv: 'UPLOAD_TOKEN',
} as const;

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
  readonly format: InputFormat | undefined;
  readonly delimiter: string | undefined;
  readonly encoding: string | undefined;
  readonly baseline: string | undefined;
  readonly storeCards: string | undefined;
  readonly maxRemovals: RemovalLimit;
  readonly allowEmpty: boolean;
  readonly retries: number;
  readonly timeoutSeconds: number;
  readonly errorsCsv: string | undefined;
  /** --payload-out: where to write the exact request body. */
  readonly payloadOut: string | undefined;
  /** --diff-out: where to write every change as CSV. */
  readonly diffOut: string | undefined;
  /** The state directory, resolved. */
  readonly stateDir: string;
}

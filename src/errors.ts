// Every failure a user can meet is one of these: a stable `code`, the documented exit code and the
// report outcome. Only the entry point turns them into a process exit code.

export type Outcome =
  | 'uploaded'
  | 'dry-run'
  | 'approved'
  | 'invalid'
  | 'refused'
  | 'rejected'
  | 'unreachable'
  | 'unknown'
  | 'unrecorded'
  | 'unverified'
  | 'usage-error'
  | 'interrupted'
  | 'internal-error';

export const EXIT = {
  ok: 0,
  /** Only with --detailed-exitcode: the run succeeded and the upload changes (or changed) something. */
  changes: 8,
  /** --hold-removals: uploaded, with the removals the guard would have refused held back. */
  held: 9,
  internal: 1,
  usage: 2,
  invalid: 3,
  refused: 4,
  rejected: 5,
  unreachable: 6,
  unverified: 7,
  interrupted: 130,
} as const;

/**
 * Every code a run can stop with, by the error class that carries it (and so by its exit code). The
 * README's docs/report.md lists each one; a test keeps the two in step.
 */
export const ERROR_CODES = {
  usage: [
    'BAD_USAGE',
    'BAD_FLAG',
    'BAD_BASE_URL',
    'INSECURE_BASE_URL',
    'NO_BASE_URL',
    'BAD_CA_FILE',
    'NO_TOKEN',
    'BAD_TOKEN',
    'TOKEN_FILE_UNREADABLE',
    'NO_CONFIRMATION',
    'STDIN_TWICE',
    'BAD_MAPPING',
    'FLAG_FILE_TOO_LARGE',
    'SHEET_NOT_FOUND',
    'FLAG_NOT_FOR_FORMAT',
    'HEADER_ROW_EMPTY',
    'SANDBOX_CANNOT_LISTEN',
    'SANDBOX_DATA_INVALID',
    'SANDBOX_NOT_LOOPBACK',
    'OUTPUT_UNWRITABLE',
    'NO_HISTORY',
    'NO_PENDING',
    'NOTHING_HELD',
    'BAD_GENERATION',
    'PLAN_BASE_URL',
    'STATE_UNREACHABLE',
    'STATE_UNUSABLE',
    'EXPORT_INEXACT',
    // review, notify, targets
    'BAD_NOTIFY_URL',
    'BAD_CONFIG',
    'UNKNOWN_TARGET',
    'PROTECTED_TARGET',
    // trust
    'UNTRUSTED_CONFIG',
    'CONFLICTING_ADDRESS',
    'NOT_A_FILE',
    // plans kept in the store
    'NO_WAITING_PLAN',
    'CHOOSE_PLAN',
  ],
  invalid: [
    'INVALID_RECORDS',
    'CANNOT_READ',
    'NOT_UTF8',
    'MIXED_ENCODING',
    'NOT_UTF16',
    'WRONG_FORMAT',
    'WORKBOOK_TOO_LARGE',
    'WORKBOOK_UNREADABLE',
    'TITLE_ROW',
    'MERGED_HEADER',
    'CSV_SYNTAX',
    'RECORD_TOO_LARGE',
    'DUPLICATE_COLUMN',
    'FORBIDDEN_KEY',
    'JSON_SYNTAX',
    'JSON_TOO_DEEP',
    'NOT_AN_OBJECT',
    'BASELINE_INVALID',
    'STORE_CARDS_INVALID',
    'PLAN_INVALID',
    'UNKNOWN_KEY',
    'DUPLICATE_IN_SET',
  ],
  refused: [
    'EMPTY_UPLOAD',
    'TOO_MANY_REMOVALS',
    'LEADING_ZEROS_LOST',
    'TOO_MANY_CHANGES',
    'VALUES_EMPTIED',
    'NO_BASELINE',
    'LOCK_HELD',
    'LOCK_LOST',
    'DECLINED',
    'SNAPSHOT_CORRUPT',
    'STATE_MOVED',
    'PLAN_STALE',
    'BASELINE_UNCERTAIN',
    'PENDING_DAMAGED',
    // four eyes
    'PLAN_REQUIRED',
    'NOT_APPROVED',
    'SELF_APPROVAL',
    'PLAN_CHANGED',
    'PLAN_USED',
    'PLAN_UNRECORDED',
    'FORGED_RECORD',
    // the policy in the store
    'AWAITING_APPROVAL',
    'POLICY_WEAKER',
    // the file's layout
    'LAYOUT_NOT_SAME',
  ],
  rejected: ['REJECTED', 'UNAUTHORIZED', 'REDIRECT'],
  unreachable: ['UNREACHABLE', 'OUTCOME_UNKNOWN', 'SERVER_ERROR', 'LOCK_LOST_WHILE_SENDING', 'NOT_RECORDED'],
  unverified: ['ANSWER_UNCONFIRMED'],
  interrupted: ['INTERRUPTED'],
  internal: ['INTERNAL_ERROR'],
} as const;

type CodesOf<K extends keyof typeof ERROR_CODES> = (typeof ERROR_CODES)[K][number];
export type ErrorCode = CodesOf<keyof typeof ERROR_CODES>;

/** One entry of a refusing service's `errors[]`, located in the file where its index allows. */
export interface ServiceReason {
  /** The element of the sent array it is about, when the service said. */
  readonly index: number | null;
  /** The field (or JSON path) it is about, when the service said. */
  readonly field: string | null;
  readonly message: string;
  /** The line of the file the record came from, and its key, when the index names a sent record. */
  readonly line: number | null;
  readonly key: string | null;
}

/** What a refusing service said: its `message` and the first entries of its `errors[]`, as plain text. */
export interface ServiceSaid {
  readonly message: string | null;
  readonly errors: readonly ServiceReason[];
  /** How many entries `errors[]` had in all. */
  readonly errorCount: number;
}

/**
 * A fix the tool offers, as data a script (and the suite, which follows each one) can act on:
 * - `flags`: add these arguments to the command as it was run (nothing else changes);
 * - `cell`: write `text` in the cell at `line` (the file's physical line) and `column` (as headed);
 * - `command`: run this command instead (the arguments after `upload`).
 * A hint printed for people says the same in words; a refusal with no fix of these kinds has none.
 */
export type Fix =
  | { readonly kind: 'flags'; readonly args: readonly string[] }
  | { readonly kind: 'cell'; readonly line: number; readonly column: string; readonly text: string }
  | { readonly kind: 'command'; readonly args: readonly string[] };

/**
 * A flag and its value as words of a command line that reads them back as they are: `--flag value`,
 * or `--flag=value` when the value starts with a dash, which a value flag never takes as its next word
 * (`--ignore-column=-Notes`; src/cli/argv.ts). For the `args` of a fix.
 */
export function flagArgs(flag: string, value: string): string[] {
  return value.length > 1 && value.startsWith('-') ? [`${flag}=${value}`] : [flag, value];
}

/**
 * `upload state resolve KIND --sent` / `--previous`: the commands that settle an upload sent but never
 * confirmed, each an alternative only the person can choose between (by looking at the service). The
 * runner adds the run's own store and target flags (src/cli/fix-scope.ts), so each runs as written.
 */
export function resolveFixes(kind: string, ...how: readonly ('--sent' | '--previous')[]): Fix[] {
  return how.map((h) => ({ kind: 'command', args: ['state', 'resolve', kind, h] }));
}

export abstract class UploadError<Code extends ErrorCode = ErrorCode> extends Error {
  abstract readonly exitCode: number;
  /** The fixes this refusal offers, as data (`error.fixes` in --json); see `Fix`. */
  fixes: readonly Fix[] = [];
  /** Attaches the fixes the hint describes in words; returns the error, to be thrown. */
  withFixes(...fixes: readonly Fix[]): this {
    this.fixes = fixes;
    return this;
  }
  abstract readonly outcome: Outcome;
  constructor(
    readonly code: Code,
    message: string,
    /** What the user should do next; printed after the message. */
    readonly hint?: string,
    /**
     * `{ cause }`: the error this one explains (a PostgreSQL or system error, as undici keeps its own),
     * so what the person needs to fix it is not lost in a sentence; UPLOAD_DEBUG=1 prints the chain.
     */
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
  override get name(): string {
    return this.constructor.name;
  }

  /** The service's own reasons, when it answered with any (`message`, `errors[]`). */
  said: ServiceSaid | undefined;

  /** The service's last answer, when it gave one (for the report's `response` and the audit log). */
  get response(): { status: number; message: string } | undefined {
    return undefined;
  }
}

/** Narrows to UploadError with its codes (instanceof on the generic class would give UploadError<any>). */
export function isUploadError(err: unknown): err is UploadError {
  return err instanceof UploadError;
}

/** A bad flag, a missing token or base URL, plain http to a remote host, no way to confirm. */
export class UsageError extends UploadError<CodesOf<'usage'>> {
  readonly exitCode = EXIT.usage;
  readonly outcome = 'usage-error' as const;
}

/** The file could not be read, or its records are invalid. Nothing was sent. */
export class InputError extends UploadError<CodesOf<'invalid'>> {
  readonly exitCode = EXIT.invalid;
  readonly outcome = 'invalid' as const;
}

/** A safety guard refused the upload (empty, too many removals, changes or emptied values, lock held). Nothing was sent. */
export class GuardRefusal extends UploadError<CodesOf<'refused'>> {
  readonly exitCode = EXIT.refused;
  readonly outcome = 'refused' as const;
}

/** The service answered, and the answer is the failure: it carries the status and what it said. */
export abstract class ServiceAnswered<Code extends ErrorCode> extends UploadError<Code> {
  constructor(
    code: Code,
    message: string,
    hint: string | undefined,
    readonly status: number,
    readonly serviceMessage?: string,
    options?: ErrorOptions,
  ) {
    super(code, message, hint, options);
  }

  override get response(): { status: number; message: string } {
    return { status: this.status, message: this.serviceMessage ?? '' };
  }
}

/** The service answered with a 4xx or a redirect. */
export class ServiceRejected extends ServiceAnswered<CodesOf<'rejected'>> {
  readonly exitCode = EXIT.rejected;
  readonly outcome = 'rejected' as const;
  /** An earlier attempt sent the whole body without an answer: the service may hold it all the same. */
  earlierMayHaveApplied = false;
}

/**
 * The service could not be reached (`unreachable`: the body never left), or no answer came back for
 * a body that was sent (`unknown`: it may or may not have been applied), or it confirmed the upload
 * but the state store could not record it (`unrecorded`: the service holds it, the store does not say so).
 */
export class ServiceUnreachable extends UploadError<CodesOf<'unreachable'>> {
  readonly exitCode = EXIT.unreachable;
  constructor(
    code: CodesOf<'unreachable'>,
    message: string,
    hint: string | undefined,
    readonly outcome: 'unreachable' | 'unknown' | 'unrecorded',
    /** The last answer, when the service did answer (with a 5xx, 429 or 408, every time). */
    readonly lastAnswer?: { status: number; message: string },
    options?: ErrorOptions,
  ) {
    super(code, message, hint, options);
  }

  override get response(): { status: number; message: string } | undefined {
    return this.lastAnswer;
  }
}

/** A 2xx whose body does not confirm what was sent. */
export class ServiceUnverified extends ServiceAnswered<CodesOf<'unverified'>> {
  readonly exitCode = EXIT.unverified;
  readonly outcome = 'unverified' as const;
}

export class Interrupted extends UploadError<CodesOf<'interrupted'>> {
  readonly exitCode = EXIT.interrupted;
  readonly outcome = 'interrupted' as const;
  constructor(
    code: CodesOf<'interrupted'>,
    message: string,
    hint?: string,
    /** The whole body had been sent: the service may have applied it. */
    readonly afterSend = false,
  ) {
    super(code, message, hint);
  }
}

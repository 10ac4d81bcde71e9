// Every failure a user can meet is one of these: a stable `code`, the documented exit code and the
// report outcome. Only the entry point turns them into a process exit code.

export type Outcome =
  | 'uploaded'
  | 'dry-run'
  | 'invalid'
  | 'refused'
  | 'rejected'
  | 'unreachable'
  | 'unknown'
  | 'unverified'
  | 'usage-error'
  | 'interrupted'
  | 'internal-error';

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  invalid: 3,
  refused: 4,
  rejected: 5,
  unreachable: 6,
  unverified: 7,
  interrupted: 130,
} as const;

export abstract class UploadError extends Error {
  abstract readonly exitCode: number;
  abstract readonly outcome: Outcome;
  constructor(
    readonly code: string,
    message: string,
    /** What the user should do next; printed after the message. */
    readonly hint?: string,
  ) {
    super(message);
  }
  override get name(): string {
    return this.constructor.name;
  }

  /** The service's last answer, when it gave one (for the report's `response` and the audit log). */
  get response(): { status: number; message: string } | undefined {
    return undefined;
  }
}

/** A bad flag, a missing token or base URL, plain http to a remote host, no way to confirm. */
export class UsageError extends UploadError {
  readonly exitCode = EXIT.usage;
  readonly outcome = 'usage-error' as const;
}

/** The file could not be read, or its records are invalid. Nothing was sent. */
export class InputError extends UploadError {
  readonly exitCode = EXIT.invalid;
  readonly outcome = 'invalid' as const;
}

/** A safety guard refused the upload (empty, too many removals, lock held). Nothing was sent. */
export class GuardRefusal extends UploadError {
  readonly exitCode = EXIT.refused;
  readonly outcome = 'refused' as const;
}

/** The service answered, and the answer is the failure: it carries the status and what it said. */
export abstract class ServiceAnswered extends UploadError {
  constructor(
    code: string,
    message: string,
    hint: string | undefined,
    readonly status: number,
    readonly serviceMessage?: string,
  ) {
    super(code, message, hint);
  }

  override get response(): { status: number; message: string } {
    return { status: this.status, message: this.serviceMessage ?? '' };
  }
}

/** The service answered with a 4xx or a redirect. */
export class ServiceRejected extends ServiceAnswered {
  readonly exitCode = EXIT.rejected;
  readonly outcome = 'rejected' as const;
}

/**
 * The service could not be reached (`unreachable`: the body never left), or no answer came back for
 * a body that was sent (`unknown`: it may or may not have been applied).
 */
export class ServiceUnreachable extends UploadError {
  readonly exitCode = EXIT.unreachable;
  constructor(
    code: string,
    message: string,
    hint: string | undefined,
    readonly outcome: 'unreachable' | 'unknown',
    /** The last answer, when the service did answer (with a 5xx, 429 or 408, every time). */
    readonly lastAnswer?: { status: number; message: string },
  ) {
    super(code, message, hint);
  }

  override get response(): { status: number; message: string } | undefined {
    return this.lastAnswer;
  }
}

/** A 2xx whose body does not confirm what was sent. */
export class ServiceUnverified extends ServiceAnswered {
  readonly exitCode = EXIT.unverified;
  readonly outcome = 'unverified' as const;
}

export class Interrupted extends UploadError {
  readonly exitCode = EXIT.interrupted;
  readonly outcome = 'interrupted' as const;
}

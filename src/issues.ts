// A problem found in the input, by the read, map or validate stage. Errors stop the run before
// anything is sent; warnings do not.

export type Severity = 'error' | 'warning';

export interface Issue {
  readonly severity: Severity;
  /** Stable identifier for scripts and tests, e.g. "INVALID_EMAIL". */
  readonly code: string;
  /** Physical line of the record (1 for the header), or null for the file as a whole. */
  readonly line: number | null;
  /** The source column as written in the file, or null. */
  readonly column: string | null;
  /** The wire field, e.g. "email" or "opentToGuestsPeriod.1.to", or null. */
  readonly field: string | null;
  /** The value as written in the file, or null. */
  readonly value: string | null;
  /** What is wrong and what to do, in plain words. */
  readonly message: string;
}

export function issue(
  severity: Severity,
  code: string,
  message: string,
  at: { line?: number | null; column?: string | null; field?: string | null; value?: unknown } = {},
): Issue {
  return {
    severity,
    code,
    line: at.line ?? null,
    column: at.column ?? null,
    field: at.field ?? null,
    value: at.value === undefined || at.value === null ? null : asText(at.value),
    message,
  };
}

/** A cell's value as the user wrote it: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

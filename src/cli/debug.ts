// UPLOAD_DEBUG=1: the whole chain of a failure, one line per error — the tool's code and message, then
// each `cause` under it (a PostgreSQL error with its SQLSTATE, severity and detail; a system error with
// its errno code, syscall and address) — so what a person needs to fix it is not lost in a sentence.
// Every line passes through the run's redaction (the token, a notification URL) and has the password
// of any URL in it masked (a database URL's).
import { isUploadError } from '../errors.js';

/** The fields of PostgreSQL's and the system's errors worth showing, in this order. */
const DETAILS = ['severity', 'detail', 'hint', 'where', 'schema', 'table', 'column', 'constraint', 'syscall', 'address', 'port', 'path'] as const;

/** How deep the chain is followed: a cause that is its own ancestor would otherwise never end. */
const MAX_DEPTH = 8;

function maskPasswords(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]*@/gi, '$1***@');
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & Record<string, unknown>;
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? `${e.code} ` : '';
  // The tool's own hint has been printed already; PostgreSQL's is the server's and is shown.
  const fields = isUploadError(err) ? DETAILS.filter((k) => k !== 'hint') : DETAILS;
  const details = fields.filter((k) => e[k] !== undefined && e[k] !== null && e[k] !== '').map((k) => `${k} ${String(e[k])}`);
  return `${code}${e.name}: ${e.message}${details.length ? ` (${details.join(', ')})` : ''}`;
}

/**
 * The lines UPLOAD_DEBUG prints for a failure: the error, then each cause indented under it, and the
 * errors an AggregateError gathered (a connection tried on IPv6 and IPv4), all redacted.
 */
export function debugChain(failure: unknown, redact: (text: string) => string): string[] {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  const walk = (err: unknown, label: string, depth: number) => {
    if (depth > MAX_DEPTH || seen.has(err)) return;
    seen.add(err);
    lines.push(`upload: debug: ${'  '.repeat(depth)}${label}${describe(err)}`);
    if (err instanceof AggregateError) for (const inner of err.errors) walk(inner, 'one of: ', depth + 1);
    if (err instanceof Error && err.cause !== undefined) walk(err.cause, 'cause: ', depth + 1);
  };
  walk(failure, '', 0);
  return lines.map((line) => maskPasswords(redact(line)));
}

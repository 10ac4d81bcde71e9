// The audit log: one JSON line per upload attempt that reached the send stage, appended and synced.
// It names what was sent (count and sha256 of the exact bytes) and what came of it; never the token.
import { mkdir, open } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type { Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import type { Outcome } from '../errors.js';
import { currentUser } from './whoami.js';

export interface AuditEntry {
  readonly time: string;
  readonly user: string;
  readonly host: string;
  readonly pid: number;
  readonly kind: Kind;
  readonly baseUrl: string;
  readonly source: string;
  readonly count: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly diff: { baseline: Diff['baseline']; added: number | null; removed: number | null; changed: number | null; unchanged: number | null };
  readonly outcome: Outcome;
  /** The service's HTTP status, when it answered. */
  readonly status: number | null;
  /** The error code when the attempt failed. */
  readonly error: string | null;
  /** The snapshot written for this upload (relative to the state directory), or null when none was. */
  readonly snapshot: string | null;
}

export type AuditFacts = Omit<AuditEntry, 'time' | 'user' | 'host' | 'pid'>;

export function auditEntry(facts: AuditFacts, now = new Date()): AuditEntry {
  return { time: now.toISOString(), user: currentUser(), host: hostname(), pid: process.pid, ...facts };
}

/** Appends one line; a single write in append mode, so concurrent writers never interleave a line. */
export async function appendAudit(path: string, entry: AuditEntry): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const file = await open(path, 'a', 0o600);
  try {
    await file.write(`${JSON.stringify(entry)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
}

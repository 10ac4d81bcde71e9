// PLACEHOLDER (lead): the interface the state helper builds; replaced by theirs at merge.
import type { Kind } from '../contract/kinds.js';

export interface StateKey {
  readonly baseUrl: string;
  readonly kind: Kind;
}

export interface Generation {
  readonly generation: number;
  readonly uploadedAt: string;
  readonly user: string;
  readonly host: string;
  readonly toolVersion: string;
  readonly source: string;
  readonly records: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly restoredFrom: number | null;
  readonly plan: string | null;
}

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
  /** The generation the upload was compared with (0: none). */
  readonly baseGeneration: number;
  readonly diff: { baseline: string; added: number | null; removed: number | null; changed: number | null; unchanged: number | null };
  readonly outcome: string;
  readonly status: number | null;
  readonly error: string | null;
  /** The generation this attempt created, when it was confirmed. */
  readonly generation: number | null;
}

export interface Holder {
  readonly user: string;
  readonly host: string;
  readonly pid: number;
  readonly what: string;
}

export interface Lease {
  readonly holder: Holder;
  readonly recovered?: (Holder & { since: string }) | undefined;
  release(): Promise<void>;
}

export interface StateStore {
  readonly label: string;
  readonly notices: readonly string[];
  lock(key: StateKey, holder: Holder): Promise<Lease>;
  head(key: StateKey): Promise<Generation | undefined>;
  generations(key: StateKey, limit?: number): Promise<Generation[]>;
  readSnapshot(key: StateKey, generation: number): Promise<Buffer>;
  commit(key: StateKey, expected: number, body: Buffer | Iterable<Uint8Array | string>, meta: Omit<Generation, 'generation'>, keep: number): Promise<Generation>;
  audit(key: StateKey, entry: AuditEntry): Promise<void>;
  attempts(key: StateKey, limit?: number): Promise<AuditEntry[]>;
  close(): Promise<void>;
}

// State directories written before the store had generations: one snapshot per base URL and kind
// (snapshots/<site>.<kind>.json) and one audit log for all (audit.jsonl). They keep working: read as
// they are, the old snapshot is upload #1 with what the old audit log says of it; the first real upload
// writes it into the new layout under the lock (./dir.ts). Reading it here changes nothing.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeCanonical } from '../diff/snapshot.js';
import { KINDS } from '../contract/kinds.js';
import { siteName } from './paths.js';
import type { AuditEntry, Generation, StateKey } from './types.js';

interface OldAuditLine {
  time: string;
  user: string;
  host: string;
  pid: number;
  kind: string;
  baseUrl: string;
  source: string;
  count: number;
  bytes: number;
  sha256: string;
  diff: AuditEntry['diff'];
  outcome: string;
  status: number | null;
  error: string | null;
}

/** An earlier version's record of one key, as the generation it becomes. */
export interface Legacy {
  readonly generation: Generation;
  readonly body: Buffer;
  /** Its audit lines for this key, oldest first. */
  readonly audit: readonly AuditEntry[];
}

export async function readLegacy(root: string, key: StateKey): Promise<Legacy | undefined> {
  const path = join(root, 'snapshots', `${siteName(new URL(key.baseUrl))}.${key.kind}.json`);
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    return undefined;
  }
  const sha256 = createHash('sha256').update(body).digest('hex');
  const lines = (await readFile(join(root, 'audit.jsonl'), 'utf8').catch(() => '')).split('\n').flatMap((l) => {
    try {
      const a = JSON.parse(l) as OldAuditLine;
      return a.baseUrl === key.baseUrl && a.kind === key.kind ? [a] : [];
    } catch {
      return [];
    }
  });
  const confirmed = lines.findLast((a) => a.outcome === 'uploaded' && a.sha256 === sha256);
  const records = confirmed?.count ?? decodeCanonical(body, KINDS[key.kind].keyField)?.size ?? 0;
  const generation: Generation = {
    generation: 1,
    uploadedAt: confirmed?.time ?? (await stat(path)).mtime.toISOString(),
    user: confirmed?.user ?? 'unknown',
    host: confirmed?.host ?? 'unknown',
    toolVersion: 'earlier',
    source: confirmed?.source ?? path,
    records,
    bytes: body.length,
    sha256,
    restoredFrom: null,
    plan: null,
  };
  const audit = lines.map((a): AuditEntry => ({ ...a, kind: key.kind, baseGeneration: 0, generation: a === confirmed ? 1 : null }));
  return { generation, body, audit };
}

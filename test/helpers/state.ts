// Where the directory store keeps one base URL and kind, for tests that look inside it; and the facts
// a generation records, for tests that write to a store directly.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Payload } from '../../src/contract/json-array.js';
import type { Kind } from '../../src/contract/kinds.js';
import { siteName } from '../../src/state/paths.js';
import type { Generation } from '../../src/state/types.js';

/** What a store records of an upload of `payload` by hr on laptop-7, from staff.csv unless `extra` says otherwise. */
export function generationFacts(payload: Pick<Payload, 'records' | 'bytes' | 'sha256'>, extra: Partial<Generation> = {}): Omit<Generation, 'generation'> {
  return {
    uploadedAt: new Date().toISOString(),
    user: 'hr',
    host: 'laptop-7',
    toolVersion: '0.3.0',
    source: 'staff.csv',
    records: payload.records,
    bytes: payload.bytes,
    sha256: payload.sha256,
    restoredFrom: null,
    plan: null,
    ...extra,
  };
}

export function keyDir(stateDir: string, url: string, kind: Kind = 'team-members'): string {
  return join(stateDir, 'stores', `${siteName(new URL(url))}.${kind}`);
}

export const lockOf = (stateDir: string, url: string, kind: Kind = 'team-members') => join(keyDir(stateDir, url, kind), 'lock');

/** The latest snapshot's path, or undefined when nothing was recorded. */
export function latestSnapshot(stateDir: string, url: string, kind: Kind = 'team-members'): string | undefined {
  const head = join(keyDir(stateDir, url, kind), 'head.json');
  if (!existsSync(head)) return undefined;
  const { generation } = JSON.parse(readFileSync(head, 'utf8')) as { generation: number };
  return join(keyDir(stateDir, url, kind), 'snapshots', `${generation}.json`);
}

export function auditLines(stateDir: string, url: string, kind: Kind = 'team-members'): Record<string, any>[] {
  const path = join(keyDir(stateDir, url, kind), 'audit.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);
}

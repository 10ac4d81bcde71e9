// Where the directory store keeps one base URL and kind, for tests that look inside it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kind } from '../../src/contract/kinds.js';
import { siteName } from '../../src/state/paths.js';

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

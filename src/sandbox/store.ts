// The sandbox's stored sets, one per kind, as their canonical bytes: in memory, or — with a data
// directory — a file there, replaced atomically so a restart (or a crash) finds the last whole set. A
// body is written to its set's temp file as it is parsed and put in place only once it is accepted.
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KINDS, type Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { atomicFile, type AtomicFile } from '../files/atomic.js';
import { isAlive } from '../state/whoami.js';
import { parseRecords, type ParsedSet } from './body.js';

const FILES: Record<Kind, string> = { 'store-cards': 'storeCards.json', 'team-members': 'teamMembers.json' };

/** A stored set: how many records, and their bytes in memory or the file that holds them. */
export type StoredSet = { readonly count: number; readonly chunks: readonly Buffer[] } | { readonly count: number; readonly path: string };

const EMPTY: StoredSet = { count: 0, chunks: [Buffer.from('[]')] };

export class SandboxStore {
  private readonly sets = new Map<Kind, StoredSet>();
  private readonly queues = new Map<Kind, Promise<unknown>>();

  constructor(private readonly dataDir: string | undefined) {}

  async load(): Promise<void> {
    if (!this.dataDir) return;
    await mkdir(this.dataDir, { recursive: true });
    await this.removeOrphans(this.dataDir);
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const path = join(this.dataDir, FILES[kind]);
      if (!(await stat(path).catch(() => undefined))) continue;
      // Read as a body is, so a file edited by hand is checked against the contract too.
      const parsed = await parseRecords(createReadStream(path), kind);
      if (!parsed.ok) {
        const first = parsed.errors[0];
        const what = first
          ? `element ${first.index}${first.path ? ` ${first.path}` : ''}: ${first.message} (${parsed.errors.length === 1 ? 'one problem' : 'and more'})`
          : parsed.message;
        throw new UsageError(
          'SANDBOX_DATA_INVALID',
          `--data-dir: ${path} does not hold a set the contract accepts: ${what}`,
          'move the file out of the data directory (the sandbox then starts with no records of that kind), or fix it',
        );
      }
      this.sets.set(kind, { count: parsed.count, path });
    }
  }

  /** Temp files of writes that were killed half-way (their process is gone): never a set, only litter. */
  private async removeOrphans(dir: string): Promise<void> {
    for (const name of await readdir(dir)) {
      const m = /^\.(?:storeCards|teamMembers)\.json\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
      if (m && !isAlive(Number(m[1]))) await rm(join(dir, name), { force: true });
    }
  }

  get(kind: Kind): StoredSet {
    return this.sets.get(kind) ?? EMPTY;
  }

  /** A set's bytes, `[record,record,…]`. */
  bytes(set: StoredSet): AsyncIterable<Buffer> | Iterable<Buffer> {
    return 'path' in set ? (createReadStream(set.path) as AsyncIterable<Buffer>) : set.chunks;
  }

  /** Where a body of `kind` is written as it is parsed, with a data directory: its set's temp file. */
  async stage(kind: Kind): Promise<AtomicFile | undefined> {
    return this.dataDir ? atomicFile(join(this.dataDir, FILES[kind])) : undefined;
  }

  /**
   * Replaces a kind's set with an accepted body: its bytes in memory, or its staged file, which is put
   * in place. Replacements of one kind run one after another, never interleaved.
   */
  replace(kind: Kind, set: ParsedSet, staged: AtomicFile | undefined): Promise<void> {
    const previous = this.queues.get(kind) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        if (staged) await staged.commit();
        this.sets.set(kind, staged ? { count: set.count, path: join(this.dataDir!, FILES[kind]) } : set);
      });
    this.queues.set(kind, next);
    return next;
  }
}

// The sandbox's stored sets: one array per kind, kept as its canonical bytes and, with a data
// directory, persisted atomically so a restart (or a crash) finds the last whole set.
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KINDS, type Kind } from '../contract/kinds.js';
import { writeFileAtomic } from '../state/atomic.js';
import { isAlive } from '../state/whoami.js';
import { EMPTY_SET, parseRecords, type StoredSet } from './body.js';

const FILES: Record<Kind, string> = { 'store-cards': 'storeCards.json', 'team-members': 'teamMembers.json' };

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
      if (!parsed.ok) throw new Error(`${path}: ${parsed.message}${parsed.errors.map((e) => `; element ${e.index} ${e.path}: ${e.message}`).join('')}`);
      this.sets.set(kind, parsed.set);
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
    return this.sets.get(kind) ?? EMPTY_SET;
  }

  /** Replaces a kind's set; replacements of one kind run one after another, never interleaved. */
  replace(kind: Kind, set: StoredSet): Promise<void> {
    const previous = this.queues.get(kind) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        if (this.dataDir) await writeFileAtomic(join(this.dataDir, FILES[kind]), set.chunks);
        this.sets.set(kind, set);
      });
    this.queues.set(kind, next);
    return next;
  }
}

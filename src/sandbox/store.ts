// The sandbox's stored sets: one array per kind, kept as each record's JSON and, with a data
// directory, persisted atomically so a restart (or a crash) finds the last whole set.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KINDS, type Kind } from '../contract/kinds.js';
import { jsonArrayFile } from '../read/json.js';
import { writeFileAtomic } from '../state/atomic.js';
import { isAlive } from '../state/whoami.js';
import { jsonArrayChunks } from '../contract/json-array.js';

const FILES: Record<Kind, string> = { 'store-cards': 'storeCards.json', 'team-members': 'teamMembers.json' };

export class SandboxStore {
  private readonly sets = new Map<Kind, readonly string[]>();
  private readonly queues = new Map<Kind, Promise<unknown>>();

  constructor(private readonly dataDir: string | undefined) {}

  async load(): Promise<void> {
    if (!this.dataDir) return;
    await mkdir(this.dataDir, { recursive: true });
    await this.removeOrphans(this.dataDir);
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const path = join(this.dataDir, FILES[kind]);
      if (!(await stat(path).catch(() => undefined))) continue;
      const records: string[] = [];
      for await (const el of jsonArrayFile(path)) records.push(JSON.stringify(JSON.parse(el.text)));
      this.sets.set(kind, records);
    }
  }

  /** Temp files of writes that were killed half-way (their process is gone): never a set, only litter. */
  private async removeOrphans(dir: string): Promise<void> {
    for (const name of await readdir(dir)) {
      const m = /^\.(?:storeCards|teamMembers)\.json\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
      if (m && !isAlive(Number(m[1]))) await rm(join(dir, name), { force: true });
    }
  }

  get(kind: Kind): readonly string[] {
    return this.sets.get(kind) ?? [];
  }

  /** Replaces a kind's set; replacements of one kind run one after another, never interleaved. */
  replace(kind: Kind, records: readonly string[]): Promise<void> {
    const previous = this.queues.get(kind) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        if (this.dataDir) await writeFileAtomic(join(this.dataDir, FILES[kind]), jsonArrayChunks(records));
        this.sets.set(kind, records);
      });
    this.queues.set(kind, next);
    return next;
  }
}

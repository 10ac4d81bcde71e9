// One behaviour suite for both state-store backends: a directory and a real PostgreSQL server, reached
// directly and through a real PgBouncer in transaction pooling (where session state means nothing).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { encodePayload } from '../../src/contract/json-array.js';
import { DirectoryStore } from '../../src/state/dir.js';
import { copyState, openStore } from '../../src/state/index.js';
import { siteName } from '../../src/state/paths.js';
import { SCHEMA_SQL } from '../../src/state/postgres.js';
import type { AuditEntry, Generation, StateKey, StateStore } from '../../src/state/types.js';
import { ROOT } from '../helpers/cli.js';
import { freshDatabase, throughBouncer } from '../helpers/postgres.js';
import { generationFacts } from '../helpers/state.js';
import { describeFresh, forThisRun } from '../helpers/system-run.js';
import { tempDir } from '../helpers/tmp.js';

const KEY: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
const member = (id: string) => JSON.stringify({ employeeID: id, email: `${id}@example.com`, name: `N ${id}`, roleCode: null, parentKey: null });
const body = (...ids: string[]) => encodePayload(ids.map(member));
const holder = (host: string) => ({ user: 'hr', host, pid: process.pid, what: 'team members to https://scheduling.example.com' });

const meta = (payload: ReturnType<typeof body>, source = 'staff.csv') => generationFacts(payload, { source });

function attempt(over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: new Date().toISOString(),
    user: 'cron',
    host: 'sync-01',
    pid: 1,
    kind: 'team-members',
    baseUrl: KEY.baseUrl,
    source: 's.csv',
    count: 1,
    bytes: 10,
    sha256: 'x'.repeat(64),
    baseGeneration: 0,
    diff: { baseline: 'none', added: null, removed: null, changed: null, unchanged: null },
    outcome: 'unreachable',
    status: null,
    error: 'UNREACHABLE',
    generation: null,
    ...over,
  };
}

const backends = {
  directory: async () => join(tempDir().dir, 'state'),
  postgres: () => freshDatabase(),
  'PostgreSQL through PgBouncer': async () => throughBouncer(await freshDatabase()),
};

const open: StateStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});
async function store(spec: string): Promise<StateStore> {
  const s = await openStore(spec, { env: {} });
  open.push(s);
  return s;
}

/** Commits under the lock, as a run does. */
async function upload(s: StateStore, expected: number, payload: ReturnType<typeof body>, keep = 10): Promise<Generation> {
  const lease = await s.lock(KEY, holder('laptop-7'));
  try {
    return await s.commit(KEY, expected, payload.chunks, meta(payload), keep);
  } finally {
    await lease.release();
  }
}

describe.each(forThisRun(backends, ['PostgreSQL through PgBouncer']))('the %s store', (name, make) => {
  it('records confirmed uploads as generations, and gives back their exact bytes', async () => {
    const s = await store(await make());
    expect(await s.head(KEY)).toBeUndefined();
    const first = body('E1', 'E2');
    const g1 = await upload(s, 0, first);
    expect(g1).toMatchObject({ generation: 1, records: 2, sha256: first.sha256, user: 'hr', host: 'laptop-7', source: 'staff.csv' });
    const g2 = await upload(s, 1, body('E1'));
    expect(g2.generation).toBe(2);
    expect((await s.head(KEY))?.generation).toBe(2);
    expect(await s.readSnapshot(KEY, 1)).toEqual(Buffer.concat(first.chunks));
    expect((await s.generations(KEY)).map((g) => [g.generation, g.kept])).toEqual([
      [2, true],
      [1, true],
    ]);
    expect(await s.keys()).toEqual([KEY]);
  });

  it('records the body sent ahead as intended; another body recorded leaves that intent pending', async () => {
    const s = await store(await make());
    const sent = body('E1', 'E2');
    const other = body('E3');
    const lease = await s.lock(KEY, holder('laptop-7'));
    try {
      const mine = await s.intend(KEY, 0, sent.chunks, () => meta(sent));
      expect(mine.adopted).toBe(false);
      await s.commit(KEY, 0, sent.chunks, meta(sent), 10, mine.id);
      expect(await s.pending(KEY)).toBeUndefined();
      // An intent no commit confirms (its run lost its lock after sending) outlives a commit of other bytes:
      // an intent for a generation that exists with other bytes is still pending, never dropped.
      await s.intend(KEY, 1, sent.chunks, () => meta(sent));
      await s.commit(KEY, 1, other.chunks, meta(other), 10);
    } finally {
      await lease.release();
    }
    expect(await s.readSnapshot(KEY, 1)).toEqual(Buffer.concat(sent.chunks));
    expect(await s.readSnapshot(KEY, 2)).toEqual(Buffer.concat(other.chunks));
    expect(await s.pending(KEY)).toMatchObject({ generation: 2, sha256: sent.sha256 });
    expect(await s.readPending(KEY)).toEqual(Buffer.concat(sent.chunks));
  });

  it("writes an intent only under the lock, on the plan's head, over no other run's; the same bytes are adopted", async () => {
    const s = await store(await make());
    const first = body('E1');
    const mine = body('E1', 'E2');
    const theirs = body('E1', 'E3');
    await upload(s, 0, first);
    // No lock: nothing written.
    await expect(s.intend(KEY, 1, mine.chunks, () => meta(mine))).rejects.toMatchObject({ code: 'LOCK_LOST' });
    const lease = await s.lock(KEY, holder('laptop-7'));
    try {
      await expect(s.intend(KEY, 0, mine.chunks, () => meta(mine))).rejects.toMatchObject({ code: 'STATE_MOVED' });
      expect(await s.pending(KEY)).toBeUndefined();
      const written = await s.intend(KEY, 1, theirs.chunks, () => meta(theirs, 'theirs.csv'));
      // Another run's intent: a different body is refused, the same body adopted (and never removed by this run).
      await expect(s.intend(KEY, 1, mine.chunks, () => meta(mine))).rejects.toMatchObject({ code: 'BASELINE_UNCERTAIN' });
      expect(await s.intend(KEY, 1, theirs.chunks, () => meta(theirs))).toEqual({ id: written.id, adopted: true });
      await s.forget(KEY, 'not-the-writer');
      expect(await s.pending(KEY)).toMatchObject({ source: 'theirs.csv', id: written.id });
      await s.forget(KEY, written.id);
      expect(await s.pending(KEY)).toBeUndefined();
    } finally {
      await lease.release();
    }
  });

  it('refuses a write against a generation that moved, and changes nothing', async () => {
    const s = await store(await make());
    await upload(s, 0, body('E1'));
    await expect(upload(s, 0, body('E9'))).rejects.toMatchObject({ code: 'STATE_MOVED', exitCode: 4 });
    expect((await s.head(KEY))?.generation).toBe(1);
    expect((await s.generations(KEY)).length).toBe(1);
    expect(await s.readSnapshot(KEY, 1)).toEqual(Buffer.concat(body('E1').chunks));
  });

  it('never records without the lock', async () => {
    const s = await store(await make());
    const p = body('E1');
    await expect(s.commit(KEY, 0, p.chunks, meta(p), 10)).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(await s.head(KEY)).toBeUndefined();
  });

  it('keeps the newest --keep snapshots, and the provenance of every upload', async () => {
    const s = await store(await make());
    for (let n = 0; n < 4; n++) await upload(s, n, body(`E${n}`), 2);
    expect((await s.generations(KEY)).map((g) => [g.generation, g.kept])).toEqual([
      [4, true],
      [3, true],
      [2, false],
      [1, false],
    ]);
    await expect(s.readSnapshot(KEY, 1)).rejects.toMatchObject({ code: 'BAD_GENERATION', message: expect.stringContaining('no longer kept') });
  });

  it('records what each upload was and the removals it held back, and reads older records without them', async () => {
    const s = await store(await make());
    await upload(s, 0, body('E1', 'E2'));
    const p = body('E1', 'E2', 'E3');
    const lease = await s.lock(KEY, holder('laptop-7'));
    try {
      await s.commit(KEY, 1, p.chunks, { ...meta(p, 'nightly.csv'), operation: 'upload', heldRemovals: ['E2'], hoursAsOf: '2026-04-08' }, 10);
      const q = body('E1', 'E3');
      await s.commit(KEY, 2, q.chunks, { ...meta(q, 'keys E2'), operation: 'remove' }, 10);
    } finally {
      await lease.release();
    }
    const listed = await s.generations(KEY);
    expect(listed.map((g) => [g.generation, g.operation, g.heldRemovals, g.hoursAsOf])).toEqual([
      [3, 'remove', undefined, undefined],
      [2, 'upload', ['E2'], '2026-04-08'],
      [1, undefined, undefined, undefined],
    ]);
    expect(await s.head(KEY)).toMatchObject({ generation: 3, operation: 'remove' });
  });

  it('keeps the audit log, newest first', async () => {
    const s = await store(await make());
    await s.audit(KEY, attempt({ source: 'a.csv' }));
    await s.audit(KEY, attempt({ source: 'b.csv', outcome: 'uploaded', error: null, generation: 1 }));
    expect((await s.attempts(KEY)).map((a) => a.source)).toEqual(['b.csv', 'a.csv']);
    expect(await s.attempts({ ...KEY, kind: 'store-cards' })).toEqual([]);
  });

  it('lets one of two hosts hold the lock, and names the holder to the other', async () => {
    const spec = await make();
    const laptop = await store(spec);
    const server = await store(spec);
    const held = await laptop.lock(KEY, holder('laptop-7'));
    const err = await server.lock(KEY, { ...holder('sync-01'), user: 'cron' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LOCK_HELD', exitCode: 4, message: expect.stringContaining('of hr on laptop-7') });
    // Another kind is another lock.
    await (await server.lock({ ...KEY, kind: 'store-cards' }, holder('sync-01'))).release();
    await held.release();
    await (await server.lock(KEY, holder('sync-01'))).release();
  });

  it('lets the lock go when its holder is killed with SIGKILL', async () => {
    const spec = await make();
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { openStore } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/state/index.js')).href)};
      const store = await openStore(${JSON.stringify(spec)}, { env: {} });
      await store.lock(${JSON.stringify(KEY)}, { user: 'cron', host: 'sync-01', pid: process.pid, what: 'x' });
      console.log('locked');
      setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => b.toString().includes('locked') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    const s = await store(spec);
    await expect(s.lock(KEY, holder('laptop-7'))).rejects.toMatchObject({ code: 'LOCK_HELD', message: expect.stringContaining('of cron on sync-01') });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    // PostgreSQL ends the dead session's lock; the directory's lease names a pid that is gone on this machine.
    let lease: Awaited<ReturnType<StateStore['lock']>> | undefined;
    for (let i = 0; i < 50 && !lease; i++)
      lease = await s.lock(KEY, holder('laptop-7')).catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)));
    expect(lease, name).toBeDefined();
    await lease!.release();
  });

  it('detects a snapshot whose bytes no longer match their sha256', async () => {
    const spec = await make();
    const s = await store(spec);
    await upload(s, 0, body('E1', 'E2'));
    if (name === 'directory') {
      const file = join(spec, 'stores', `${siteName(new URL(KEY.baseUrl))}.${KEY.kind}`, 'snapshots', '1.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('E2', 'E3'));
    } else {
      const c = new pg.Client({ connectionString: spec });
      await c.connect();
      await c.query(`UPDATE upload_generations SET snapshot = convert_to(replace(convert_from(snapshot, 'UTF8'), 'E2', 'E3'), 'UTF8')`);
      await c.end();
    }
    await expect(s.readSnapshot(KEY, 1)).rejects.toMatchObject({ code: 'SNAPSHOT_CORRUPT', exitCode: 4 });
  });

  it('can be copied into another store with its history', async () => {
    const s = await store(await make());
    for (let n = 0; n < 3; n++) await upload(s, n, body(`E${n}`), 2);
    await s.audit(KEY, attempt());
    const target = await store(name === 'directory' ? await freshDatabase() : join(tempDir().dir, 'copy'));
    expect(await copyState(s, target)).toMatchObject({ keys: 1, generations: 3, attempts: 1 });
    expect((await target.generations(KEY)).map((g) => [g.generation, g.kept, g.sha256])).toEqual(
      (await s.generations(KEY)).map((g) => [g.generation, g.kept, g.sha256]),
    );
    expect(await target.readSnapshot(KEY, 3)).toEqual(await s.readSnapshot(KEY, 3));
    expect(await target.attempts(KEY)).toEqual(await s.attempts(KEY));
    await expect(copyState(s, target)).rejects.toMatchObject({ code: 'STATE_UNUSABLE' });
  });
});

describeFresh('the PostgreSQL store of an earlier version', () => {
  it('reads its tables as they are, and adds the new columns on the first upload, under the lock', async () => {
    const url = await freshDatabase();
    const old = SCHEMA_SQL.replace(/\n {2}operation[^\n]*/, '')
      .replace(/\n {2}held_removals[^\n]*/, '')
      .replace(/\n {2}hours_as_of[^\n]*/, '')
      .replace(/\n {2}layout[^\n]*/, '');
    expect(old).not.toContain('held_removals');
    expect(old).not.toContain('hours_as_of');
    expect(old).not.toContain('layout');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const columns = async () =>
      (await client.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'upload_generations'`)).rows.map(
        (r) => r.column_name,
      );
    try {
      await client.query(old);
      const s = await store(url);
      expect(await s.head(KEY)).toBeUndefined();
      expect(await s.generations(KEY)).toEqual([]);
      // Reading changed nothing.
      expect(await columns()).not.toContain('operation');
      const lease = await s.lock(KEY, holder('laptop-7'));
      const p = body('E1');
      try {
        await s.commit(KEY, 0, p.chunks, { ...meta(p), operation: 'merge', layout: { header: ['ID', 'Name'], mapping: { fields: {} } } }, 10);
      } finally {
        await lease.release();
      }
      expect(await columns()).toEqual(expect.arrayContaining(['operation', 'held_removals', 'hours_as_of', 'layout']));
      expect(await s.head(KEY)).toMatchObject({ generation: 1, operation: 'merge', layout: { header: ['ID', 'Name'], mapping: { fields: {} } } });
    } finally {
      await client.end();
    }
  });
});

describeFresh('the directory store', () => {
  it('keeps the body it wrote ahead of sending as the snapshot: linked, not written a second time', async () => {
    const root = join(tempDir().dir, 'state');
    const s = await store(root);
    const dir = join(root, 'stores', `${siteName(new URL(KEY.baseUrl))}.${KEY.kind}`);
    const sent = body('E1', 'E2');
    const lease = await s.lock(KEY, holder('laptop-7'));
    const intent = await s.intend(KEY, 0, sent.chunks, () => meta(sent));
    const written = statSync(join(dir, `intent.${intent.id}.body.json`)).ino;
    await s.commit(KEY, 0, sent.chunks, meta(sent), 10, intent.id);
    // Another body than the one intended is written as itself.
    const other = body('E3');
    await s.commit(KEY, 1, other.chunks, meta(other), 10);
    await lease.release();
    expect(statSync(join(dir, 'snapshots', '1.json')).ino).toBe(written);
    expect(readFileSync(join(dir, 'snapshots', '1.json')).equals(Buffer.concat(sent.chunks)), 'the snapshot holds the bytes sent').toBe(true);
    expect(Buffer.concat([await s.readSnapshot(KEY, 2)])).toEqual(Buffer.concat(other.chunks));
    expect(readdirSync(dir).filter((f) => f.startsWith('intent'))).toEqual([]);
    expect(readdirSync(join(dir, 'snapshots')).sort()).toEqual(['1.json', '2.json']);
  });

  it('keeps a state directory of the earlier version working: its snapshot becomes upload #1', async () => {
    const root = join(tempDir().dir, 'state');
    const site = siteName(new URL(KEY.baseUrl));
    mkdirSync(join(root, 'snapshots'), { recursive: true });
    const old = body('E1', 'E2');
    writeFileSync(join(root, 'snapshots', `${site}.team-members.json`), Buffer.concat(old.chunks));
    const line = {
      time: '2026-11-01T21:03:00.000Z',
      user: 'cron',
      host: 'sync-01',
      pid: 7,
      kind: 'team-members',
      baseUrl: KEY.baseUrl,
      source: 'nightly.csv',
      count: 2,
      bytes: old.bytes,
      sha256: old.sha256,
      diff: { baseline: 'none', added: null, removed: null, changed: null, unchanged: null },
      outcome: 'uploaded',
      status: 200,
      error: null,
      snapshot: 'x',
    };
    writeFileSync(join(root, 'audit.jsonl'), `${JSON.stringify({ ...line, outcome: 'unreachable', sha256: 'y' })}\n${JSON.stringify(line)}\n`);
    const s = await store(root);
    const asRead = async () => {
      expect(await s.head(KEY)).toMatchObject({
        generation: 1,
        user: 'cron',
        host: 'sync-01',
        source: 'nightly.csv',
        uploadedAt: line.time,
        records: 2,
        sha256: old.sha256,
      });
      expect(await s.readSnapshot(KEY, 1)).toEqual(Buffer.concat(old.chunks));
      expect((await s.attempts(KEY)).map((a) => a.outcome)).toEqual(['uploaded', 'unreachable']);
      expect((await s.generations(KEY)).map((g) => [g.generation, g.kept])).toEqual([[1, true]]);
    };
    // Read as it is: a read never writes, so nothing of the new layout exists yet.
    await asRead();
    expect(existsSync(join(root, 'stores'))).toBe(false);
    expect(s.notices.join()).not.toContain('upload #1');
    // The first upload migrates it under its lock, and says so.
    const lease = await s.lock(KEY, holder('laptop-7'));
    expect(lease.notices?.join()).toContain('upload #1');
    await asRead();
    expect(existsSync(join(root, 'stores', `${site}.team-members`, 'head.json'))).toBe(true);
    await lease.release();
    expect((await upload(s, 1, body('E1'))).generation).toBe(2);
  });

  it('takes access away from everyone else on a state directory they could read (it holds names and emails)', async () => {
    const root = join(tempDir().dir, 'state');
    mkdirSync(root);
    chmodSync(root, 0o705);
    const s = await DirectoryStore.open(root);
    // Opening it is a read: it says so, and the first upload removes the access under its lock.
    expect(statSync(root).mode & 0o777).toBe(0o705);
    expect(s.notices.join()).toContain('the next upload removes access for others');
    const lease = await s.lock(KEY, holder('laptop-7'));
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(lease.notices?.join()).toContain('access for others is now removed');
    await lease.release();
    await upload(s, 0, body('E1'));
    const dir = join(root, 'stores', `${siteName(new URL(KEY.baseUrl))}.${KEY.kind}`);
    expect(statSync(join(dir, 'snapshots', '1.json')).mode & 0o777).toBe(0o600);
    await s.close();
  });

  it('keeps files private in a state directory its group may only read (0750, 0755)', async () => {
    for (const mode of [0o750, 0o755]) {
      const root = join(tempDir().dir, 'state');
      mkdirSync(root);
      chmodSync(root, mode);
      const s = await DirectoryStore.open(root);
      await upload(s, 0, body('E1'));
      const dir = join(root, 'stores', `${siteName(new URL(KEY.baseUrl))}.${KEY.kind}`);
      expect(statSync(join(dir, 'snapshots', '1.json')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'snapshots')).mode & 0o777).toBe(0o700);
      await s.close();
    }
  });

  it('keeps a directory shared with a group usable by the whole group', async () => {
    const root = join(tempDir().dir, 'state');
    mkdirSync(root);
    chmodSync(root, 0o770);
    const s = await DirectoryStore.open(root);
    await upload(s, 0, body('E1'));
    const dir = join(root, 'stores', `${siteName(new URL(KEY.baseUrl))}.${KEY.kind}`);
    expect(statSync(join(dir, 'snapshots')).mode & 0o777).toBe(0o770);
    expect(statSync(join(dir, 'snapshots', '1.json')).mode & 0o040).toBe(0o040);
    expect(statSync(join(dir, 'snapshots', '1.json')).mode & 0o007).toBe(0);
    expect(s.notices).toEqual([]);
    await s.close();
  });

  it('on Windows reads nothing into the modes Node makes up there: no group share, no notice, no chmod', async () => {
    const root = join(tempDir().dir, 'state');
    mkdirSync(root);
    // What a folder on NTFS looks like through Node: open to group and others, whoever may read it.
    chmodSync(root, 0o777);
    const s = await DirectoryStore.open(root, {}, 'win32');
    expect(s.notices).toEqual([]);
    expect(statSync(root).mode & 0o777).toBe(0o777);
    await upload(s, 0, body('E1'));
    const dir = join(root, 'stores', `${siteName(new URL(KEY.baseUrl))}.${KEY.kind}`);
    // Files are still created as the owner's only, which is what Windows keeps of a mode (read-write).
    expect(statSync(join(dir, 'snapshots', '1.json')).mode & 0o077).toBe(0);
    await s.close();
  });
});

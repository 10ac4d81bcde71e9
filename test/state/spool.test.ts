// The directory store's spool (StateStore.spool): a file beside the intent's bytes that an upload's
// body is written to, on the hashing thread, as it is planned; intend() then puts it in place instead
// of writing 137 MB in the upload's tail (docs/performance.md, round 6, seventh session). What must
// hold: the intent's bytes are the body's whatever became of the spool, and a spool intend() did not
// take never outlives the store, nor do the folders a first upload made for it.
import { chmodSync, fstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bodies, type Payload, type Spool } from '../../src/contract/json-array.js';
import { DirectoryStore } from '../../src/state/dir.js';
import { siteName } from '../../src/state/paths.js';
import type { Intended, StateKey } from '../../src/state/types.js';
import { generationFacts } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const KEY: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
const OTHER: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'store-cards' };
const holder = { user: 'hr', host: 'laptop-7', pid: process.pid, what: 'team members to https://scheduling.example.com' };
const folderOf = (root: string, key: StateKey) => join(root, 'stores', `${siteName(new URL(key.baseUrl))}.${key.kind}`);
const temps = (root: string, key: StateKey) => readdirSync(folderOf(root, key)).filter((n) => n.endsWith('.tmp'));

/** A body of `people` team members, hashed (and written to `spool`) from its first chunk on, as an upload's is from 16 MiB. */
function planned(people: number, spool?: () => Spool | undefined): Payload {
  const bodies = new Bodies();
  bodies.hashAsItGoes({ fromBytes: 0, spool });
  for (let i = 0; i < people; i++) bodies.push(JSON.stringify({ employeeID: `E${i}`, email: `p${i}@example.com`, name: `Zoë ${i}` }));
  return bodies.payload();
}

/** The facts of an upload of `payload`, its sha256 the hashing thread's. */
const factsOf = async (payload: Payload) => generationFacts({ ...payload, sha256: await payload.digest() });

/** A store whose folder for KEY (and OTHER) an upload before made: the lock makes it. */
async function used(root = join(tempDir().dir, 'state')): Promise<{ root: string; store: DirectoryStore }> {
  const store = await DirectoryStore.open(root);
  for (const key of [KEY, OTHER]) await (await store.lock(key, holder)).release();
  return { root, store };
}

/** `payload` intended as upload #1 of KEY under its lock (which is then released), with its spool if it has one. */
async function intendLocked(store: DirectoryStore, payload: Payload): Promise<Intended> {
  const lease = await store.lock(KEY, holder);
  try {
    return await store.intend(
      KEY,
      0,
      payload.chunks,
      () => factsOf(payload),
      () => payload.spooled(),
    );
  } finally {
    await lease.release();
  }
}

describe('the directory store spools a body as it is planned', () => {
  it("the first upload to a key makes the key's folder for its spool (the state folder too), and a run that stops early removes them: the store as it found it", async () => {
    const root = join(tempDir().dir, 'state');
    const store = await DirectoryStore.open(root);
    const payload = planned(10_000, () => store.spool(KEY));
    await payload.digest();
    expect(temps(root, KEY)).toHaveLength(1);
    expect(statSync(folderOf(root, KEY)).mode & 0o777).toBe(0o700);
    await store.close();
    expect(() => readdirSync(root)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it("of the folders a spool made, only those left empty go: another key's store, made meanwhile, stays", async () => {
    const root = join(tempDir().dir, 'state');
    const store = await DirectoryStore.open(root);
    const payload = planned(10_000, () => store.spool(KEY));
    await payload.digest();
    expect(temps(root, KEY)).toHaveLength(1);
    const other = await DirectoryStore.open(root);
    await (await other.lock(OTHER, holder)).release();
    await store.close();
    expect(readdirSync(join(root, 'stores'))).toEqual([basename(folderOf(root, OTHER))]);
    await other.close();
  });

  it("a folder a spool made that another run's spool is in stays, with that spool", async () => {
    const root = join(tempDir().dir, 'state');
    const first = await DirectoryStore.open(root);
    await planned(10_000, () => first.spool(KEY)).digest();
    const second = await DirectoryStore.open(root);
    await planned(10_000, () => second.spool(KEY)).digest();
    expect(temps(root, KEY)).toHaveLength(2);
    await first.close();
    expect(temps(root, KEY)).toHaveLength(1);
    await second.close();
    expect(temps(root, KEY)).toEqual([]);
  });

  it("a first upload's spool, taken by intend(): the intent's bytes are its very file, and the folder is the store's from then on", async () => {
    const root = join(tempDir().dir, 'state');
    const store = await DirectoryStore.open(root);
    let inode = 0;
    const payload = planned(10_000, () => {
      const spool = store.spool(KEY);
      inode = statSync(join(folderOf(root, KEY), temps(root, KEY)[0]!)).ino;
      return spool;
    });
    const intended = await intendLocked(store, payload);
    await store.close();
    const bytes = join(folderOf(root, KEY), `intent.${intended.id}.body.json`);
    expect(statSync(bytes).ino).toBe(inode);
    expect(readFileSync(bytes).equals(Buffer.concat(payload.chunks))).toBe(true);
    expect(temps(root, KEY)).toEqual([]);
  });

  it("close() ends a spool's thread and waits for its descriptor to close before removing it (a file removed while open stays in its folder on a shared drive)", async () => {
    const root = join(tempDir().dir, 'state');
    const store = await DirectoryStore.open(root);
    let spool: Spool | undefined;
    // Never asked for its digest: only close() ends its thread.
    planned(10_000, () => (spool = store.spool(KEY)));
    expect(spool).toBeDefined();
    await store.close();
    expect(() => fstatSync(spool!.fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
    expect(() => readdirSync(root)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('no spool where the state folder could not be made (its parent is missing): nothing is made', async () => {
    const root = join(tempDir().dir, 'missing', 'state');
    const store = await DirectoryStore.open(root);
    expect(store.spool(KEY)).toBeUndefined();
    await store.close();
    expect(() => readdirSync(dirname(root))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it("no spool where the key's folder cannot be made (a name too long for the disk): the folders made before it go", async () => {
    const root = join(tempDir().dir, 'state');
    const store = await DirectoryStore.open(root);
    const host = ['a', 'b', 'c', 'd'].map((c) => c.repeat(62)).join('.');
    expect(store.spool({ baseUrl: `https://${host}.com`, kind: 'team-members' })).toBeUndefined();
    expect(readdirSync(join(root, 'stores'))).toEqual([]);
    await store.close();
    expect(() => readdirSync(root)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('intend() puts the spool in place of writing the bytes: the same file, whole, and nothing else left', async () => {
    const { root, store } = await used();
    let inode = 0;
    const payload = planned(30_000, () => {
      const spool = store.spool(KEY);
      inode = statSync(join(folderOf(root, KEY), temps(root, KEY)[0]!)).ino;
      return spool;
    });
    expect(inode).toBeGreaterThan(0);
    expect(statSync(join(folderOf(root, KEY), temps(root, KEY)[0]!)).mode & 0o777).toBe(0o600);
    const intended = await intendLocked(store, payload);
    const bytes = join(folderOf(root, KEY), `intent.${intended.id}.body.json`);
    expect(statSync(bytes).ino).toBe(inode);
    expect(readFileSync(bytes).equals(Buffer.concat(payload.chunks))).toBe(true);
    expect((await store.readPending(KEY)).equals(Buffer.concat(payload.chunks))).toBe(true);
    expect(temps(root, KEY)).toEqual([]);
    await store.close();
  });

  it("intend() takes only its own key's spool (the other key's stays, to be removed by close()), and close() removes one never taken", async () => {
    const { root, store } = await used();
    const unsent = planned(10_000, () => store.spool(KEY));
    await unsent.digest();
    expect(temps(root, KEY)).toHaveLength(1);
    const elsewhere = planned(10_000, () => store.spool(OTHER));
    const intended = await intendLocked(store, elsewhere);
    // Written as without a spool: the bytes are the body's, and the other key's spool is still there.
    expect(readFileSync(join(folderOf(root, KEY), `intent.${intended.id}.body.json`)).equals(Buffer.concat(elsewhere.chunks))).toBe(true);
    expect(temps(root, OTHER)).toHaveLength(1);
    await store.close();
    expect(temps(root, KEY)).toEqual([]);
    expect(temps(root, OTHER)).toEqual([]);
  });

  it("intend() removes the key's other spools (a plan whose set was changed after): their bytes could fill the disk", async () => {
    const { root, store } = await used();
    const first = planned(10_000, () => store.spool(KEY));
    await first.digest();
    const second = planned(12_000, () => store.spool(KEY));
    expect(temps(root, KEY)).toHaveLength(2);
    await intendLocked(store, second);
    expect(temps(root, KEY)).toEqual([]);
    expect((await store.readPending(KEY)).equals(Buffer.concat(second.chunks))).toBe(true);
    await store.close();
  });

  it('a spool taken away before intend(): the bytes are written as without one', async () => {
    const { root, store } = await used();
    const payload = planned(10_000, () => store.spool(KEY));
    await payload.digest();
    for (const name of temps(root, KEY)) rmSync(join(folderOf(root, KEY), name));
    await intendLocked(store, payload);
    expect((await store.readPending(KEY)).equals(Buffer.concat(payload.chunks))).toBe(true);
    expect(temps(root, KEY)).toEqual([]);
    await store.close();
  });

  it("with no spool, the bytes' write is under way before the intent's facts are begun (they load the HTTP client)", async () => {
    const { root, store } = await used();
    const payload = planned(10_000);
    await payload.digest();
    let seen: string[] | undefined;
    const lease = await store.lock(KEY, holder);
    await store.intend(KEY, 0, payload.chunks, () => {
      seen = temps(root, KEY);
      return factsOf(payload);
    });
    await lease.release();
    expect(seen).toEqual([expect.stringMatching(/^\.intent\.[0-9a-f]{16}\.body\.json\.\d+\.[0-9a-f]+\.tmp$/)]);
    expect((await store.readPending(KEY)).equals(Buffer.concat(payload.chunks))).toBe(true);
    await store.close();
  });

  it('with a spool, the facts are begun before the spool is waited for (its thread may still be syncing it)', async () => {
    const { store } = await used();
    const payload = planned(10_000, () => store.spool(KEY));
    let begun = false;
    let begunFirst: boolean | undefined;
    const lease = await store.lock(KEY, holder);
    await store.intend(
      KEY,
      0,
      payload.chunks,
      () => {
        begun = true;
        return factsOf(payload);
      },
      () => {
        begunFirst = begun;
        return payload.spooled();
      },
    );
    await lease.release();
    expect(begunFirst).toBe(true);
    expect((await store.readPending(KEY)).equals(Buffer.concat(payload.chunks))).toBe(true);
    await store.close();
  });

  it("in a folder shared through its group, a spool is the group's too (0660, whatever the umask)", async () => {
    const root = join(tempDir().dir, 'state');
    mkdirSync(root);
    chmodSync(root, 0o2770);
    const { store } = await used(root);
    const payload = planned(10_000, () => store.spool(KEY));
    await payload.digest();
    expect(statSync(join(folderOf(root, KEY), temps(root, KEY)[0]!)).mode & 0o777).toBe(0o660);
    await store.close();
  });

  it("in a folder shared through its group, the folders a first upload's spool makes are the group's (2770)", async () => {
    const root = join(tempDir().dir, 'state');
    mkdirSync(root);
    chmodSync(root, 0o2770);
    const store = await DirectoryStore.open(root);
    const payload = planned(10_000, () => store.spool(KEY));
    await payload.digest();
    for (const folder of [join(root, 'stores'), folderOf(root, KEY)]) expect(statSync(folder).mode & 0o7777).toBe(0o2770);
    expect(statSync(join(folderOf(root, KEY), temps(root, KEY)[0]!)).mode & 0o777).toBe(0o660);
    await store.close();
    expect(readdirSync(root)).toEqual([]);
  });
});

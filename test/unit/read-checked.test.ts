// A recorded snapshot (or an unconfirmed upload's bytes) is read and hashed piece by piece
// (files/atomic.ts, readChecked): the bytes whole when they are the ones recorded, nothing when the
// file is shorter, longer or changed, a refusal for what is not a regular file, and the file closed
// however the read ends.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotAFile, readChecked } from '../../src/files/atomic.js';
import { DirectoryStore } from '../../src/state/dir.js';
import type { StateKey } from '../../src/state/types.js';
import { openOn } from '../helpers/descriptors.js';
import { generationFacts, keyDir } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Bytes over two of the 4 MiB pieces the read asks for, so the last piece is a short one. */
const BODY = randomBytes(2 * 4 * 1024 * 1024 + 123);

function file(bytes: Uint8Array): string {
  const path = join(tempDir().dir, 'snapshot.json');
  writeFileSync(path, bytes);
  return path;
}

describe('readChecked', () => {
  it('gives the bytes whole when they are the ones recorded', async () => {
    const path = file(BODY);
    const read = await readChecked(path, BODY.length, sha256(BODY));
    expect(read?.equals(BODY)).toBe(true);
    expect(openOn(path)).toBe(0);
  });

  it('gives nothing for a changed byte, in the first piece or the last', async () => {
    for (const at of [0, BODY.length - 1]) {
      const changed = Buffer.from(BODY);
      changed[at] = changed[at]! ^ 1;
      const path = file(changed);
      expect(await readChecked(path, BODY.length, sha256(BODY))).toBeUndefined();
      expect(openOn(path)).toBe(0);
    }
  });

  it('gives nothing for a file shorter or longer than recorded, even by one byte', async () => {
    expect(await readChecked(file(BODY.subarray(0, BODY.length - 1)), BODY.length, sha256(BODY))).toBeUndefined();
    expect(await readChecked(file(Buffer.concat([BODY, Buffer.from(' ')])), BODY.length, sha256(BODY))).toBeUndefined();
    // A prefix whose own digest is recorded with the full length: the length decides.
    const head = BODY.subarray(0, 1000);
    expect(await readChecked(file(head), BODY.length, sha256(head))).toBeUndefined();
  });

  it('gives nothing, and throws nothing, for a damaged record of the length', async () => {
    const path = file(BODY);
    for (const bytes of [2 ** 53, -1, 1.5, Number.NaN, undefined as unknown as number]) expect(await readChecked(path, bytes, sha256(BODY))).toBeUndefined();
    expect(openOn(path)).toBe(0);
  });

  it('reads an empty file recorded as empty', async () => {
    const read = await readChecked(file(Buffer.alloc(0)), 0, sha256(Buffer.alloc(0)));
    expect(read).toEqual(Buffer.alloc(0));
    expect(await readChecked(file(Buffer.from('[]')), 0, sha256(Buffer.alloc(0)))).toBeUndefined();
  });

  it('refuses a directory where the file belongs, and passes on a missing file as ENOENT', async () => {
    const dir = join(tempDir().dir, 'snapshot.json');
    mkdirSync(dir);
    await expect(readChecked(dir, 2, sha256(Buffer.from('[]')))).rejects.toBeInstanceOf(NotAFile);
    await expect(readChecked(join(tempDir().dir, 'gone.json'), 2, sha256(Buffer.from('[]')))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the directory store reads its recorded bytes through it', () => {
  const KEY: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
  const holder = { user: 'hr', host: 'laptop-7', pid: process.pid, what: 'team members' };

  it("gives an unconfirmed upload's bytes back, and refuses them once changed (SNAPSHOT_CORRUPT)", async () => {
    const root = join(tempDir().dir, 'state');
    const store = await DirectoryStore.open(root);
    const lease = await store.lock(KEY, holder);
    await store.intend(KEY, 0, [BODY], () => generationFacts({ records: 1, bytes: BODY.length, sha256: sha256(BODY) }));
    await lease.release();
    expect((await store.readPending(KEY)).equals(BODY)).toBe(true);
    const folder = keyDir(root, KEY.baseUrl);
    const bytes = readdirSync(folder).find((name) => name.endsWith('.body.json'))!;
    const changed = Buffer.from(BODY);
    changed[4 * 1024 * 1024] = changed[4 * 1024 * 1024]! ^ 1;
    writeFileSync(join(folder, bytes), changed);
    await expect(store.readPending(KEY)).rejects.toMatchObject({
      code: 'SNAPSHOT_CORRUPT',
      message: expect.stringMatching(/the unconfirmed upload in .* is damaged \(its bytes do not match their sha256\)/),
    });
    await store.close();
  });
});

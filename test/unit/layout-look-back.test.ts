// The layout an earlier upload recorded (src/pipeline/layout.ts, rememberedLayout): the latest upload's
// when it recorded one, read alone; past a restore or a removal (which record none), the upload's
// before it, up to twenty back.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberedLayout } from '../../src/pipeline/layout.js';
import { DirectoryStore } from '../../src/state/dir.js';
import type { RecordedLayout, StateKey, StateStore } from '../../src/state/types.js';
import { generationFacts, keyDir } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const KEY: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
const holder = { user: 'hr', host: 'laptop-7', pid: process.pid, what: 'team members' };
const layoutOf = (header: string[]): RecordedLayout => ({ header, mapping: { fields: {}, ignore: [] } });

const stores: DirectoryStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

/** A store holding one upload per entry: with that layout recorded, or none (a restore). */
async function storeOf(layouts: (RecordedLayout | undefined)[], root = join(tempDir().dir, 'state')): Promise<DirectoryStore> {
  const store = await DirectoryStore.open(root);
  stores.push(store);
  for (const [n, layout] of layouts.entries()) {
    const bytes = Buffer.from(`[{"employeeID":"E${n}"}]`);
    const facts = generationFacts({ records: 1, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, layout ? { layout } : {});
    const lease = await store.lock(KEY, holder);
    await store.commit(KEY, n, [bytes], facts, 30);
    await lease.release();
  }
  return store;
}

/** `store`, with each listing of its generations noted: how many were asked for. */
function noting(store: StateStore, asked: number[]): StateStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'generations')
        return (key: StateKey, limit?: number) => {
          asked.push(limit ?? Infinity);
          return target.generations(key, limit);
        };
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('rememberedLayout', () => {
  it('reads the latest upload alone when it recorded its layout, however long the history', async () => {
    const header = ['Employee ID', 'E-mail', 'Full Name'];
    const store = await storeOf([...Array.from({ length: 24 }, () => layoutOf(['ID'])), layoutOf(header)]);
    const asked: number[] = [];
    expect(await rememberedLayout({ store: noting(store, asked), key: KEY })).toEqual({ generation: 25, layout: layoutOf(header) });
    expect(asked).toEqual([1]);
  });

  it('looks past a restore (no layout) to the upload before it, and no further than twenty back', async () => {
    const header = ['Employee ID', 'E-mail'];
    const restored = await storeOf([layoutOf(header), undefined, undefined]);
    expect(await rememberedLayout({ store: restored, key: KEY })).toEqual({ generation: 1, layout: layoutOf(header) });
    const twentyBack = await storeOf([layoutOf(header), ...Array.from({ length: 19 }, () => undefined)]);
    expect(await rememberedLayout({ store: twentyBack, key: KEY })).toEqual({ generation: 1, layout: layoutOf(header) });
    const tooFar = await storeOf([layoutOf(header), ...Array.from({ length: 20 }, () => undefined)]);
    expect(await rememberedLayout({ store: tooFar, key: KEY })).toBeUndefined();
  });

  it('leaves an older damaged record unread when the latest upload recorded its layout', async () => {
    const header = ['Employee ID', 'E-mail'];
    const root = join(tempDir().dir, 'state');
    const store = await storeOf([layoutOf(['ID']), layoutOf(['ID']), layoutOf(header)], root);
    writeFileSync(join(keyDir(root, KEY.baseUrl), 'generations', '2.json'), '{"uploadedAt": ');
    expect(await rememberedLayout({ store, key: KEY })).toEqual({ generation: 3, layout: layoutOf(header) });
    await expect(store.generations(KEY)).rejects.toMatchObject({ code: 'SNAPSHOT_CORRUPT' });
  });

  it('finds none in an empty store', async () => {
    expect(await rememberedLayout({ store: await storeOf([]), key: KEY })).toBeUndefined();
  });
});

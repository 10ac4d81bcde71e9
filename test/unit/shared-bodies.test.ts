// A plan compared with a baseline keeps the records the baseline holds byte for byte as views of the
// baseline's bytes (Bodies.shareWith), so a repeat upload holds one copy of them. Whatever is shared,
// the plan's bytes, records, payload and diff must be exactly those of a plan that shares nothing.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bodies } from '../../src/contract/json-array.js';
import { diffRecords } from '../../src/diff/index.js';
import { RecordsByKey } from '../../src/diff/records.js';
import { decodeCanonical } from '../../src/diff/snapshot.js';

interface Member {
  employeeID: string;
  email: string;
  name: string;
  roleCode: string | null;
  parentKey: string | null;
}

const member = (n: number, name = `Member ${n}`): Member => ({
  employeeID: `E${String(n).padStart(6, '0')}`,
  email: `m${n}@example.com`,
  name,
  roleCode: n % 3 === 0 ? null : 'STOCK',
  parentKey: `STORE-${String(n % 500).padStart(4, '0')}`,
});

/** Enough records for several 256 KiB chunks (about 125 bytes each). */
const MANY = 6_000;

/** The baseline as the store gives it: a snapshot read back whole. */
function snapshotOf(records: readonly unknown[]): { bytes: Buffer; records: RecordsByKey } {
  const bytes = Buffer.concat(Bodies.of(records.map((r) => JSON.stringify(r))).payload().chunks);
  return { bytes, records: decodeCanonical(bytes, 'employeeID')! };
}

function planOf(records: readonly unknown[], shared?: RecordsByKey): Bodies {
  const bodies = new Bodies();
  if (shared) bodies.shareWith(shared);
  for (const r of records) bodies.push(JSON.stringify(r));
  return bodies;
}

/** The shared plan against one that shares nothing: same bytes, records, hash and diff. */
function expectSame(plan: readonly Member[], baseline: ReturnType<typeof snapshotOf>): Bodies {
  const shared = planOf(plan, baseline.records);
  const own = planOf(plan);
  const a = shared.payload();
  const b = own.payload();
  expect(Buffer.concat(a.chunks).equals(Buffer.concat(b.chunks))).toBe(true);
  expect([a.records, a.bytes, a.sha256]).toEqual([b.records, b.bytes, b.sha256]);
  expect(plan.filter((_, i) => !shared.bytes(i).equals(own.bytes(i)))).toEqual([]);
  const keys = plan.map((m) => m.employeeID);
  const { status: sharedStatus, ...sharedDiff } = diffRecords(baseline.records, 'snapshot', keys, shared);
  const { status: ownStatus, ...ownDiff } = diffRecords(baseline.records, 'snapshot', keys, own);
  expect(sharedDiff).toEqual(ownDiff);
  expect(Buffer.from(sharedStatus).equals(Buffer.from(ownStatus))).toBe(true);
  return shared;
}

/** How many of the payload's bytes are views of the baseline's bytes. */
function sharedBytes(bodies: Bodies, baseline: Buffer): number {
  return bodies
    .payload()
    .chunks.filter((chunk) => chunk.buffer === baseline.buffer)
    .reduce((sum, chunk) => sum + chunk.length, 0);
}

/** The bytes of the full chunks (the last one, still being filled when the plan ended, is never shared). */
function fullChunks(bodies: Bodies): number {
  const { chunks, bytes } = bodies.payload();
  return bytes - chunks.at(-1)!.length;
}

describe('Bodies.shareWith: a plan keeps the baseline records it repeats as views of their bytes', () => {
  const records = Array.from({ length: MANY }, (_, i) => member(i + 1));
  const baseline = snapshotOf(records);

  it('the repeat upload: every full chunk is the baseline’s bytes, and the payload is the same', () => {
    const plan = expectSame(records, baseline);
    expect(plan.payload().chunks.length).toBeGreaterThan(2);
    expect(sharedBytes(plan, baseline.bytes)).toBe(fullChunks(plan));
  });

  it('changed, added, removed and moved records: the rest is still shared', () => {
    const plan = [...records];
    plan[10] = member(11, 'Renamed');
    plan[4000] = member(4001, 'Renamed too, and longer than before');
    plan.splice(2000, 0, member(900_001), member(900_002));
    plan.splice(3000, 5);
    plan.push(plan.splice(100, 50)[0]!);
    const shared = expectSame(plan, baseline);
    expect(sharedBytes(shared, baseline.bytes)).toBeGreaterThan(fullChunks(shared) * 0.9);
  });

  it('a plan without the first record: the one whose leading byte differs is copied, the rest shared', () => {
    const shared = expectSame(records.slice(1), baseline);
    expect(sharedBytes(shared, baseline.bytes)).toBeGreaterThan(fullChunks(shared) * 0.9);
  });

  it('records in another order, or none of the baseline’s: nothing is shared, the bytes are the same', () => {
    const reversed = expectSame([...records].reverse(), baseline);
    expect(sharedBytes(reversed, baseline.bytes)).toBe(0);
    const others = expectSame(
      records.map((m) => ({ ...m, name: `${m.name}!` })),
      baseline,
    );
    expect(sharedBytes(others, baseline.bytes)).toBe(0);
  });

  it('a copy without some records shares as the plan did', () => {
    const plan = planOf(records, baseline.records);
    const drop = new Uint8Array(MANY);
    for (let i = 0; i < MANY; i += 1000) drop[i] = 1;
    const kept = plan.without(drop);
    const expected = records.filter((_, i) => !drop[i]).map((r) => JSON.stringify(r));
    expect(Buffer.concat(kept.payload().chunks).toString()).toBe(`[${expected.join(',')}]`);
    expect(sharedBytes(kept, baseline.bytes)).toBeGreaterThan(0);
  });

  it('a --baseline file: its records lie in chunks of their own, and a run never spans two', () => {
    // A --baseline file is planned like an upload: its bodies are chunks, not one snapshot buffer.
    const file = planOf(records);
    const fromFile = { bytes: Buffer.concat(file.payload().chunks), records: RecordsByKey.index(file, 'employeeID')! };
    const plan = [...records];
    plan[4500] = member(4501, 'Renamed');
    plan.splice(1000, 1);
    const shared = expectSame(plan, fromFile);
    const fileChunks = new Set(file.payload().chunks.map((c) => c.buffer));
    const viewed = shared.payload().chunks.filter((c) => fileChunks.has(c.buffer));
    expect(viewed.reduce((sum, c) => sum + c.length, 0)).toBeGreaterThan(fullChunks(shared) * 0.9);
  });

  it('a first record larger than a chunk: it keeps its `[` in its own chunk, on both sides', () => {
    // pushValues reserves six bytes a character: a 50,000-character name does not fit the first chunk.
    const FIELDS = ['employeeID', 'email', 'name', 'roleCode', 'parentKey'];
    const pushed = (list: readonly Member[], shared?: RecordsByKey) => {
      const bodies = new Bodies();
      if (shared) bodies.shareWith(shared);
      for (const m of list)
        bodies.pushValues(
          FIELDS,
          FIELDS.map((f) => m[f as keyof Member]),
        );
      return bodies;
    };
    const first = [member(0, 'x'.repeat(50_000)), ...records.slice(0, 4_000)];
    const other = [member(0, 'y'.repeat(50_000)), ...first.slice(1)];
    const unshared = Buffer.concat(pushed(first).payload().chunks);
    expect(unshared.toString()).toBe(JSON.stringify(first));
    for (const baseline of [decodeCanonical(unshared, 'employeeID')!, RecordsByKey.index(pushed(first), 'employeeID')!]) {
      for (const plan of [first, other]) {
        const shared = pushed(plan, baseline);
        expect(Buffer.concat(shared.payload().chunks).toString()).toBe(JSON.stringify(plan));
        expect(plan.filter((m, i) => shared.json(i) !== JSON.stringify(m))).toEqual([]);
        const { status: _, ...diff } = diffRecords(
          baseline,
          'snapshot',
          plan.map((m) => m.employeeID),
          shared,
        );
        expect(diff).toMatchObject({ changed: plan === first ? 0 : 1, unchanged: plan === first ? plan.length : plan.length - 1 });
      }
    }
  });

  it('is asked for before the first record, or not at all', () => {
    const bodies = Bodies.of([JSON.stringify(member(1))]);
    expect(() => bodies.shareWith(baseline.records)).toThrow(/before the first record/);
  });

  it('any edits of a baseline give the bytes of a plan that shares nothing (property)', () => {
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 8 }), (edits) => void expectSame(edited(edits), smallBase)),
      { numRuns: 30 },
    );
  });

  it('hashed as it is made, on a thread, shared bytes and all: the digest is the sha256 of the bytes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 8 }), fc.integer({ min: 0, max: 600_000 }), async (edits, fromBytes) => {
        const plan = edited(edits);
        const bodies = new Bodies();
        bodies.shareWith(smallBase.records);
        bodies.hashAsItGoes({ fromBytes });
        for (const m of plan) bodies.push(JSON.stringify(m));
        const payload = bodies.payload();
        const expected = createHash('sha256').update(Buffer.concat(payload.chunks)).digest('hex');
        expect(await payload.digest()).toBe(expected);
      }),
      { numRuns: 15 },
    );
  });
});

const small = Array.from({ length: 5_000 }, (_, i) => member(i + 1));
const smallBase = snapshotOf(small);
const edit = fc.oneof(
  fc.record({ change: fc.nat(), name: fc.string({ unit: 'binary', maxLength: 12 }) }),
  fc.record({ insert: fc.nat(), n: fc.integer({ min: 10_000, max: 20_000 }) }),
  fc.record({ remove: fc.nat(), count: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ move: fc.nat(), to: fc.nat(), count: fc.integer({ min: 1, max: 300 }) }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

/** `small` with the edits made, its keys kept unique (as the validator sees to it). */
function edited(edits: readonly Edit[]): Member[] {
  let plan = [...small];
  for (const e of edits) {
    if (plan.length === 0) break;
    if ('change' in e) {
      const at = e.change % plan.length;
      plan[at] = { ...plan[at]!, name: e.name };
    } else if ('insert' in e) plan.splice(e.insert % (plan.length + 1), 0, member(e.n));
    else if ('remove' in e) plan.splice(e.remove % plan.length, e.count);
    else {
      const moved = plan.splice(e.move % plan.length, e.count);
      plan.splice(e.to % (plan.length + 1), 0, ...moved);
    }
  }
  const seen = new Set<string>();
  plan = plan.filter((m) => !seen.has(m.employeeID) && seen.add(m.employeeID));
  return plan;
}

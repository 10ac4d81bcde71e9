// The request body is the planned records' bytes, in chunks; joined, it must be exactly the JSON of the
// array, with the length and hash the audit log and Content-Length rely on, and each record must read
// back as the bytes of its own JSON.
import { createHash } from 'node:crypto';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { Bodies, encodePayload } from '../../src/contract/json-array.js';
import { decodeCanonical } from '../../src/diff/snapshot.js';
import { tempDir } from '../helpers/tmp.js';

const CHUNK = 256 * 1024;

function check(records: readonly unknown[]): void {
  const bodies = records.map((r) => JSON.stringify(r));
  const expected = JSON.stringify(records);
  const payload = encodePayload(bodies);
  const joined = Buffer.concat(payload.chunks);
  expect(joined.toString('utf8')).toBe(expected);
  expect(payload.records).toBe(records.length);
  expect(payload.bytes).toBe(Buffer.byteLength(expected, 'utf8'));
  expect(payload.sha256).toBe(createHash('sha256').update(expected, 'utf8').digest('hex'));
  expect(JSON.parse(joined.toString('utf8'))).toEqual(JSON.parse(expected));
  const kept = Bodies.of(bodies);
  // Each record reads back as its own JSON, as text and as bytes: compared whole, one assertion each
  // rather than two per record (20,000 records, and a property run of a hundred sets).
  expect(bodies.map((_, i) => kept.json(i))).toEqual(bodies);
  expect(bodies.filter((body, i) => !kept.bytes(i).equals(Buffer.from(body)))).toEqual([]);
  expect(kept.first(2)).toEqual(bodies.slice(0, 2));
}

describe('Bodies and encodePayload', () => {
  it.each([
    ['no records', []],
    ['one record', [{ employeeID: 'E1', email: 'a@example.com', name: 'A', roleCode: null, parentKey: null }]],
    ['non-ASCII names and emails', [{ email: 'björn.östberg@exämple.se', name: 'Østberg, Søren' }, { name: '陈伟 Nguyễn 🎉' }]],
    ['a record larger than one chunk', [{ a: 'x'.repeat(CHUNK * 2 + 7) }, { b: 'ü'.repeat(CHUNK) }, { c: 1 }]],
    ['multi-byte text across many chunk boundaries', Array.from({ length: 20_000 }, (_, i) => ({ i, name: `Zoë ${'€'.repeat(i % 17)} 🎉` }))],
    ['escapes', [{ s: 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800' }]],
  ])('%s: joined equals JSON.stringify of the records', (_name, records) => {
    check(records);
  });

  it('produces chunks of bounded size, never one giant buffer', () => {
    const bodies = Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ employeeID: `E${i}`, name: 'Jürgen Müller' }));
    const { chunks } = encodePayload(bodies);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK);
  });

  it('compares records as bytes, and drops records without touching the others', () => {
    const a = Bodies.of(['{"k":"1"}', '{"k":"2","n":"ü"}', '{"k":"3"}']);
    const b = Bodies.of(['{"k":"2","n":"ü"}', '{"k":"2","n":"u"}']);
    expect(a.same(1, b, 0)).toBe(true);
    expect(a.same(1, b, 1)).toBe(false);
    expect(a.same(0, b, 0)).toBe(false);
    const kept = a.without(Uint8Array.from([0, 1, 0]));
    expect(kept.first(5)).toEqual(['{"k":"1"}', '{"k":"3"}']);
    expect(Buffer.concat(kept.payload().chunks).toString()).toBe('[{"k":"1"},{"k":"3"}]');
  });

  it('counts the records that hold some bytes, across many chunks, only among those asked about', () => {
    const texts = Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ k: `E${i}`, roleCode: i % 7 === 0 ? null : 'r', n: 'Zoë'.repeat(i % 5) }));
    const bodies = Bodies.of(texts);
    expect(bodies.payload().chunks.length).toBeGreaterThan(5);
    const needle = '"roleCode":null';
    const even = (i: number) => i % 2 === 0;
    expect(bodies.holding(Buffer.from(needle), even)).toBe(texts.filter((t, i) => even(i) && t.includes(needle)).length);
    expect(bodies.holding(Buffer.from('"E49999"'), () => true)).toBe(1);
    expect(bodies.holding(Buffer.from('},{'), () => true)).toBe(0); // never counted across two records
  });

  it('is sealed once its payload is taken: the hash is computed once and nothing is added after', () => {
    const bodies = Bodies.of(['{"k":"1"}']);
    expect(bodies.payload()).toBe(bodies.payload());
    expect(() => bodies.push('{"k":"2"}')).toThrow(/sealed/);
  });

  it('agrees with JSON.stringify for any array of records (property)', () => {
    const record = fc.dictionary(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true })),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), (records) => check(records)),
      { numRuns: 100 },
    );
  });
});

describe('Payload.digest', () => {
  const failures: unknown[] = [];
  afterEach(() => expect(failures.splice(0)).toEqual([]));
  /** The hashing threads started while `work` ran. */
  async function threadsDuring(work: () => Promise<unknown>): Promise<number> {
    let started = 0;
    // A thread that fails leaves the hash to this one: the digest would still be right, so it is counted as a failure here.
    const count = (worker: Worker) => {
      started++;
      worker.on('error', (err) => failures.push(err));
    };
    process.on('worker', count);
    try {
      await work();
    } finally {
      process.off('worker', count);
    }
    return started;
  }
  const sha256 = (chunks: readonly Buffer[]) => createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
  // About 18 MB: over the size from which a body is hashed on a thread of its own.
  const large = Array.from({ length: 200_000 }, (_, i) => JSON.stringify({ employeeID: `E${i}`, email: `person.${i}@example.com`, name: `Zoë Müller ${i}` }));

  it('hashes a large body on a thread of its own, reading its chunks in place, to the same sha256', async () => {
    const payload = encodePayload(large);
    expect(payload.bytes).toBeGreaterThan(16 * 1024 * 1024);
    expect(payload.chunks.every((c) => c.buffer instanceof SharedArrayBuffer)).toBe(true);
    let digest = '';
    // Asked for twice at once: one thread, one digest.
    expect(await threadsDuring(async () => ([digest] = await Promise.all([payload.digest(), payload.digest()])))).toBe(1);
    expect(digest).toBe(sha256(payload.chunks));
    // Worked out once: the getter and a second digest() read it.
    expect(payload.sha256).toBe(digest);
    expect(await threadsDuring(() => payload.digest())).toBe(0);
  });

  it('hashes a body that is to be sent as it is made, once it passes 16 MiB, and never one that is not', async () => {
    const sent = new Bodies();
    sent.hashAsItGoes();
    expect(
      await threadsDuring(async () => {
        for (const text of large) sent.push(text);
        // Node says a thread was made on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
      }),
    ).toBe(1);
    const payload = sent.payload();
    expect(await threadsDuring(() => payload.digest())).toBe(0);
    expect(await payload.digest()).toBe(sha256(payload.chunks));
    // A dry run's body: no thread while it is made.
    expect(await threadsDuring(async () => void Bodies.of(large))).toBe(0);
  });

  it('writes a body that is to be sent to a spool as it hashes it: the file holds the bytes whole', async () => {
    const path = join(tempDir().dir, 'spool');
    const fd = openSync(path, 'w', 0o600);
    const spool = { fd };
    let asked = 0;
    const sent = new Bodies();
    sent.hashAsItGoes({ spool: () => (asked++, spool) });
    for (const text of large) sent.push(text);
    const payload = sent.payload();
    // Opened once, as the thread started; given back once its bytes are all written and synced.
    expect(asked).toBe(1);
    expect(await payload.spooled()).toBe(spool);
    expect(readFileSync(path).equals(Buffer.concat(payload.chunks))).toBe(true);
    expect(await payload.digest()).toBe(sha256(payload.chunks));
  });

  it('gives the spool back when the sha256 was read first, and so worked out on this thread (a pending upload of the same bytes)', async () => {
    const path = join(tempDir().dir, 'spool');
    const spool = { fd: openSync(path, 'w', 0o600) };
    const sent = new Bodies();
    sent.hashAsItGoes({ spool: () => spool });
    for (const text of large) sent.push(text);
    const payload = sent.payload();
    expect(payload.sha256).toBe(sha256(payload.chunks));
    expect(await payload.digest()).toBe(payload.sha256);
    expect(await payload.spooled()).toBe(spool);
    expect(readFileSync(path).equals(Buffer.concat(payload.chunks))).toBe(true);
  });

  it('a body whose set changed after (records dropped) ends its thread, which closes its spool: a file that goes frees its space', async () => {
    const path = join(tempDir().dir, 'spool');
    const spool = { fd: openSync(path, 'w', 0o600) };
    let thread: Worker | undefined;
    const catchIt = (worker: Worker) => (thread = worker);
    process.on('worker', catchIt);
    const sent = new Bodies();
    sent.hashAsItGoes({ spool: () => spool });
    try {
      for (const text of large) sent.push(text);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('worker', catchIt);
    }
    expect(thread).toBeDefined();
    const ended = new Promise((resolve) => thread!.once('exit', resolve));
    const kept = sent.without(new Uint8Array(large.length).fill(1, 0, 10));
    expect(kept.length).toBe(large.length - 10);
    // Without being told, an idle thread would wait for its digest (and hold the descriptor) until the process ends.
    await ended;
  });

  it('a spool the thread cannot write to is not given back, and the digest is the same; a body never hashed as it went has none', async () => {
    const path = join(tempDir().dir, 'spool');
    writeFileSync(path, '');
    // Opened for reading only: every write fails.
    const spool = { fd: openSync(path, 'r') };
    const sent = new Bodies();
    sent.hashAsItGoes({ spool: () => spool });
    for (const text of large) sent.push(text);
    const payload = sent.payload();
    expect(await payload.spooled()).toBeUndefined();
    expect(await payload.digest()).toBe(sha256(payload.chunks));
    // Under 16 MiB: no thread, so the spool is never even opened.
    let asked = 0;
    const small = new Bodies();
    small.hashAsItGoes({ spool: () => (asked++, spool) });
    for (const text of large.slice(0, 1000)) small.push(text);
    expect(await small.payload().spooled()).toBeUndefined();
    expect(asked).toBe(0);
    expect(await encodePayload(large).spooled()).toBeUndefined();
  });

  it("hashes a small body here, and one holding bytes that are not shared memory (a snapshot's)", async () => {
    const small = encodePayload(large.slice(0, 1000));
    expect(await threadsDuring(() => small.digest())).toBe(0);
    expect(await small.digest()).toBe(sha256(small.chunks));
    // A recorded body read back whole is ordinary memory: hashed here, to the same sha256.
    const whole = Buffer.concat(encodePayload(large).chunks);
    const adopted = Bodies.adopt(whole, new Uint32Array(1), new Uint32Array(1), 0).payload();
    expect(await threadsDuring(() => adopted.digest())).toBe(0);
    expect(await adopted.digest()).toBe(sha256([whole]));
  });
});

describe('decodeCanonical', () => {
  const member = (id: string, name: string) => JSON.stringify({ employeeID: id, email: `${id}@example.com`, name, roleCode: null, parentKey: null });

  it('reads back by key exactly what encodePayload wrote, without parsing the records', () => {
    const bodies = [
      member('E1', 'A'),
      member('E"2', 'quote "},{" brace'),
      member('E3', 'Zoë 🎉 \\ back'),
      member('E4', 'a }{ b'),
      member('E\u0000\\5', 'escaped key'),
    ];
    const body = Buffer.concat(encodePayload(bodies).chunks);
    expect(new Map(decodeCanonical(body, 'employeeID'))).toEqual(new Map(bodies.map((b) => [JSON.parse(b).employeeID, b])));
    expect(new Map(decodeCanonical(Buffer.from('[]'), 'employeeID'))).toEqual(new Map());
  });

  it('answers like a Map, by key and in order', () => {
    const bodies = Array.from({ length: 300 }, (_, i) => member(`E${i}`, i % 7 === 0 ? `Zoë "${i}" \\` : `N${i}`));
    const body = Buffer.concat(encodePayload(bodies).chunks);
    const expected = new Map(bodies.map((b) => [JSON.parse(b).employeeID as string, b]));
    {
      const decoded = decodeCanonical(body, 'employeeID')!;
      expect(decoded.size).toBe(300);
      expect([...decoded.keys()]).toEqual([...expected.keys()]);
      expect([...decoded.values()]).toEqual([...expected.values()]);
      expect([...decoded]).toEqual([...expected]);
      for (const [key, value] of expected) {
        expect(decoded.get(key)).toBe(value);
        expect(decoded.has(key)).toBe(true);
      }
      expect(decoded.get('E300')).toBeUndefined();
      expect(decoded.has('E')).toBe(false);
      const visited: string[] = [];
      decoded.forEach((value, key) => visited.push(`${key}=${value.length}`));
      expect(visited).toEqual([...expected].map(([k, v]) => `${k}=${v.length}`));
    }
  });

  it.each([
    ['whitespace', '[ {"employeeID":"E1"}]'],
    ['another field first', '[{"email":"x","employeeID":"E1"}]'],
    ['a missing comma', '[{"employeeID":"E1"}{"employeeID":"E2"}]'],
    ['a cut body', '[{"employeeID":"E1"},{"employeeID":"E2"'],
    ['not an array', '{"employeeID":"E1"}'],
  ])('declines %s (the caller falls back to the general reader)', (_what, text) => {
    expect(decodeCanonical(Buffer.from(text), 'employeeID')).toBeUndefined();
  });

  it('round-trips any records keyed first (property)', () => {
    const rec = fc.record({ employeeID: fc.string({ unit: 'binary', maxLength: 12 }), name: fc.string({ unit: 'binary', maxLength: 30 }), n: fc.integer() });
    fc.assert(
      fc.property(fc.uniqueArray(rec, { selector: (r) => r.employeeID, maxLength: 20 }), (records) => {
        const bodies = records.map((r) => JSON.stringify(r));
        {
          const decoded = decodeCanonical(Buffer.concat(encodePayload(bodies).chunks), 'employeeID');
          expect(new Map(decoded)).toEqual(new Map(records.map((r, i) => [r.employeeID, bodies[i]!])));
          for (const r of records) expect(decoded!.get(r.employeeID)).toBe(bodies[records.indexOf(r)]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('Bodies.pushRecord', () => {
  // Any UTF-16 code unit, lone surrogates and controls included: the bytes must be JSON.stringify's.
  const unit = fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    fc.constantFrom('"', '\\', '\n', '\t', '\b', '\f', '\r', '\x01', '\x7f', 'é', '€', '😀', '\ud800', '\udc00'),
  );
  const text = fc.string({ unit, maxLength: 20 });
  const value = fc.oneof(text, fc.constant(null), fc.integer(), fc.array(fc.record({ since: fc.integer() }), { maxLength: 2 }));

  it("writes each record's bytes as JSON.stringify would (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(text, value), { maxLength: 6 }).map(Object.fromEntries), { maxLength: 30 }), (records) => {
        const bodies = new Bodies();
        for (const r of records) bodies.pushRecord(r as Record<string, unknown>);
        expect(records.map((_, i) => bodies.bytes(i).toString('hex'))).toEqual(records.map((r) => Buffer.from(JSON.stringify(r)).toString('hex')));
        expect(Buffer.concat(bodies.payload().chunks).toString('utf8')).toBe(JSON.stringify(records));
      }),
      { numRuns: 300 },
    );
  });

  it('pushValues writes what pushRecord writes for the same fields, mixed with it (property)', () => {
    const name = fc.constantFrom('employeeID', 'email', 'name', '"', '\\', 'é', '😀', '');
    const fields = fc.uniqueArray(fc.tuple(name, fc.oneof(text, fc.constant(null))), { maxLength: 5, selector: ([n]) => n });
    fc.assert(
      fc.property(fc.array(fc.tuple(fields, fc.boolean()), { maxLength: 30 }), (records) => {
        const bodies = new Bodies();
        for (const [f, byValues] of records) {
          if (byValues)
            bodies.pushValues(
              f.map(([n]) => n),
              f.map(([, v]) => v),
            );
          else bodies.pushRecord(Object.fromEntries(f));
        }
        const expected = records.map(([f]) => JSON.stringify(Object.fromEntries(f)));
        expect(records.map((_, i) => bodies.json(i))).toEqual(expected);
        expect(Buffer.concat(bodies.payload().chunks).toString('utf8')).toBe(`[${expected.join(',')}]`);
      }),
      { numRuns: 300 },
    );
  });

  it('writes the same bytes when records share keys, in the same places or others (property)', () => {
    // pushRecord keeps each place's key as bytes: a key moved, added, left out or reordered must not reuse another's.
    const key = fc.constantFrom('', 'a', 'email', '"', '\\', '\ud800', 'é', '😀');
    const record = fc.array(fc.tuple(key, fc.oneof(text, fc.constant(null))), { maxLength: 5 }).map(Object.fromEntries);
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), (records) => {
        const bodies = new Bodies();
        for (const r of records) bodies.pushRecord(r as Record<string, unknown>);
        expect(Buffer.concat(bodies.payload().chunks).toString('hex')).toBe(Buffer.from(JSON.stringify(records)).toString('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('fills chunk after chunk with records of any size', () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({ employeeID: `E${i}`, name: 'Ł'.repeat(i % 7 === 0 ? 40_000 : 30), parentKey: null }));
    const bodies = new Bodies();
    for (const r of records) bodies.pushRecord(r);
    expect(Buffer.concat(bodies.payload().chunks).toString('utf8')).toBe(JSON.stringify(records));
  });
});

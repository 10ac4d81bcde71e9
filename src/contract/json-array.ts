// The wire body, `[record,record,…]`, as the bytes that are sent. Each valid record is encoded to UTF-8
// once, as it is planned, straight into chunks of about 256 KiB that already hold the brackets and the
// commas: the same chunks are compared with the baseline, sent on every attempt, written as the
// snapshot and hashed, and nothing is encoded again. The records live outside V8's heap, so the
// garbage collector never traces or copies them (docs/performance.md, "Bodies as bytes"). Never one
// giant buffer or string, so bodies larger than V8's string limit (about 512 MB) work. The chunks'
// memory is shared (SharedArrayBuffer), so another thread can hash them where they are.
import type { Worker } from 'node:worker_threads';

const CHUNK = 256 * 1024;
const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/** The exact bytes of one upload, with what identifies them. */
export interface Payload {
  readonly records: number;
  readonly chunks: readonly Buffer[];
  readonly bytes: number;
  /** Worked out on first read, once, on this thread (see `sealedPayload`). */
  readonly sha256: string;
  /** The same sha256, a large body's worked out on another thread; never rejects. */
  digest(): Promise<string>;
  /**
   * The file these very bytes were written to as they were made (Bodies.hashAsItGoes with a spool),
   * once they are all in it and synced; undefined when there is none, or its write failed. Never rejects.
   */
  spooled(): Promise<Spool | undefined>;
}

/**
 * A file open for writing that a body is written to, by the hashing thread, as it is made: a store's
 * (src/state/types.ts, `StateStore.spool`), so that the upload finds its bytes on the disk already.
 * The descriptor is closed once the thread is done with it (spooled() answers after that); one whose
 * thread is never asked for its digest stays open until the process ends.
 */
export interface Spool {
  readonly fd: number;
  /**
   * Set by the thread's owner once the thread writes it: ends the thread (the body will not be sent)
   * and resolves once the descriptor is closed, so that the file can be removed, and its folder after
   * it, on a shared drive too (where a file removed while open stays in its folder until it is closed).
   */
  finish?: () => Promise<void>;
}

/** From this size on, a body is hashed on a thread of its own: 0.1 s of CPU for 137 MB, and a thread's start costs about 30 ms. */
const OFF_THREAD_BYTES = 16 * 1024 * 1024;

/** A spool's bytes are synced as they go, every this many: the last sync, at the end, then has little left to do. */
const SYNC_EVERY = 32 * 1024 * 1024;

/**
 * The hashing thread: an eval'd script (nothing to bundle or find on disk), read as CommonJS or as an
 * ES module (a process started with --input-type=module passes that on). It is sent chunks, which it
 * reads in place (shared memory), then `null`, for the digest. Sent a spool's descriptor (a number,
 * first), it also writes each chunk there, synced every SYNC_EVERY bytes and at the end, and answers
 * how many bytes it wrote (-1 without a spool, or once a write failed: the file is not used).
 */
const HASHER = `const { parentPort } = process.getBuiltinModule('node:worker_threads');
const { writeSync, fdatasyncSync } = process.getBuiltinModule('node:fs');
const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
let fd = null;
let wrote = -1;
let unsynced = 0;
const spool = (chunk) => {
  try {
    for (let at = 0; at < chunk.length; ) {
      const n = writeSync(fd, chunk, at);
      if (n <= 0) throw new Error('no progress');
      at += n;
    }
    wrote += chunk.length;
    unsynced += chunk.length;
    if (unsynced >= ${SYNC_EVERY}) fdatasyncSync(fd), (unsynced = 0);
  } catch {
    wrote = -1;
  }
};
parentPort.on('message', (chunks) => {
  if (typeof chunks === 'number') (fd = chunks), (wrote = 0);
  else if (chunks) for (const chunk of chunks) hash.update(chunk), wrote >= 0 && spool(chunk);
  else {
    if (wrote >= 0) try { fdatasyncSync(fd); } catch { wrote = -1; }
    parentPort.postMessage({ hex: hash.digest('hex'), wrote });
    parentPort.close();
  }
});`;

interface Hashed {
  readonly hex: string;
  /** Bytes written to the spool; -1 without one, or once a write failed. */
  readonly wrote: number;
}

/**
 * A sha256 worked out on a thread of its own, fed chunks in order as they are made (and written to a
 * spool, once given one). Until it is asked for its digest it does not keep the process alive (a plan
 * refused by a guard just ends).
 */
class ChunkHasher {
  private readonly worker: Worker;
  readonly result: Promise<Hashed>;
  /** The file the thread writes the chunks to as well (writeTo()), if any. */
  spool: Spool | undefined;
  /** The digest, once asked for: the thread is asked once, by whichever comes first. */
  private asked: Promise<string> | undefined;

  constructor() {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    this.worker = new Worker(HASHER, { eval: true });
    this.result = new Promise((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`the hashing thread ended (${code}) without a digest`)));
    });
    // After the listeners: adding one to its messages would hold the process again.
    this.worker.unref();
    // Awaited by digest(); a thread that fails before then is not an unhandled rejection.
    this.result.catch(() => {});
  }

  /**
   * From the next chunk on, the thread writes the chunks to `spool` too (given before the first: a
   * spool is opened only once its thread has started, so none is left open by a thread that could
   * not). Its descriptor is closed here (where it was opened: a thread that closes a descriptor it did
   * not open makes Node warn) once the thread has answered: closed while the thread may still write,
   * its number could be another file's by then.
   */
  writeTo(spool: Spool): void {
    this.spool = spool;
    this.worker.postMessage(spool.fd);
    const close = () => {
      try {
        process.getBuiltinModule('node:fs').closeSync(spool.fd);
      } catch {
        // Closed already.
      }
    };
    const closed = this.result.then(close, close);
    spool.finish = () => {
      // Held until it answers, as digest() is: a process left with nothing else to do would not wait.
      this.worker.ref();
      this.end();
      return closed;
    };
  }

  /** Chunks of shared memory are read where they are; others (a snapshot's bytes, in the chunks made before the thread started) are copied first. */
  add(chunks: readonly Buffer[]): void {
    this.worker.postMessage(chunks.map((c) => (c.buffer instanceof SharedArrayBuffer ? c : copied(c))));
  }

  /** The digest, asked for once however often this is called (by the payload's digest(), or its spooled()). */
  digest(): Promise<string> {
    // Awaited: the thread holds the process until it answers.
    this.worker.ref();
    return this.ask();
  }

  /**
   * A body no one will send (its set was changed after, `Bodies.without`): the thread is told to end
   * now, so that its spool's descriptor is closed and the file's space freed once the store removes it.
   */
  end(): void {
    this.ask().catch(() => {});
  }

  private ask(): Promise<string> {
    if (!this.asked) {
      this.worker.postMessage(null);
      this.asked = this.result.then((r) => r.hex);
    }
    return this.asked;
  }
}

/** Memory for a chunk, shared so that the hashing thread reads it without a copy. */
const sharedMemory = (bytes: number) => Buffer.from(new SharedArrayBuffer(bytes));

function copied(bytes: Buffer): Buffer {
  const copy = sharedMemory(bytes.length);
  bytes.copy(copy);
  return copy;
}

function hashHere(chunks: readonly Buffer[]): string {
  // node:crypto loads here, not with the validator: a dry run never hashes (10-row start-up time).
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/** The chunks hashed on a thread, or undefined where one cannot start. */
function onAThread(chunks: readonly Buffer[], hasher?: ChunkHasher): Promise<string> | undefined {
  try {
    if (hasher) return hasher.digest();
    const started = new ChunkHasher();
    started.add(chunks);
    return started.digest();
  } catch {
    return undefined;
  }
}

/**
 * A payload of these chunks whose sha256 is worked out when first asked for: a dry run never asks.
 * An upload asks with digest() as it takes the lock: a large body is hashed on a thread of its own
 * while this one writes the intent and loads the HTTP client (docs/state.md, step 6), or was hashed as
 * it was made (`hasher`, Bodies.hashAsItGoes). An own getter: a spread or `JSON.stringify` of the
 * payload reads it too.
 */
function sealedPayload(records: number, chunks: readonly Buffer[], hasher?: ChunkHasher): Payload {
  let bytes = 0;
  for (const chunk of chunks) bytes += chunk.length;
  let sha256: string | undefined;
  let digesting: Promise<string> | undefined;
  const here = () => (sha256 ??= hashHere(chunks));
  const digestOnce = (): Promise<string> => {
    // Without a hasher, only a body wholly in shared memory: a copy of a snapshot's bytes would cost more than hashing them.
    const large = bytes >= OFF_THREAD_BYTES && chunks.every((c) => c.buffer instanceof SharedArrayBuffer);
    const thread = sha256 === undefined && (hasher || large) ? onAThread(chunks, hasher) : undefined;
    // A thread that cannot start or fails: hashed here, as a smaller body is.
    return thread ? thread.then((hex) => (sha256 ??= hex), here) : Promise.resolve().then(here);
  };
  const payload: Payload = {
    records,
    chunks,
    bytes,
    get sha256(): string {
      return here();
    },
    digest(): Promise<string> {
      return (digesting ??= digestOnce());
    },
    async spooled(): Promise<Spool | undefined> {
      if (!hasher?.spool) return undefined;
      // The thread's answer says how much of the body it wrote; it is asked for here too, as the
      // sha256 may have been worked out on this thread (the getter read first).
      const wrote = await hasher.digest().then(
        () => hasher.result.then((r) => r.wrote),
        () => -1,
      );
      return wrote === bytes ? hasher.spool : undefined;
    },
  };
  return payload;
}

const unspooled = (): Promise<undefined> => Promise.resolve(undefined);

/** A payload whose sha256 is known already (a recorded upload's, a saved plan's, checked when read back). */
export function knownPayload(records: number, body: Buffer, sha256: string): Payload {
  return { records, chunks: [body], bytes: body.length, sha256, digest: () => Promise.resolve(sha256), spooled: unspooled };
}

/**
 * Records a plan may hold already, byte for byte: the baseline it is compared with (see
 * `Bodies.shareWith`). diff/records.ts's RecordsByKey is one.
 */
export interface SharedRecords {
  readonly bodies: Bodies;
  /** The record of `bodies` with the key of record `i` of `plan`, or -1; record `guess` is tried first. */
  locate(plan: Bodies, i: number, guess: number): number;
}

/** The canonical records of a plan (or of a snapshot) as UTF-8 bytes, in order, each addressable. */
export class Bodies {
  /**
   * Chunks, in order; the last is being filled. Chunk 0 starts with `[`; a record never spans two, and
   * the byte before it (`[` or `,`) is always in its chunk.
   */
  private readonly chunks: Buffer[] = [];
  private buf: Buffer;
  private at: number;
  /** Per record: its chunk, and where its bytes start and end in it. */
  private chunkOf = new Uint32Array(1024);
  private starts = new Uint32Array(1024);
  private ends = new Uint32Array(1024);
  private count = 0;
  private sealed: Payload | undefined;
  /** shareWith(): the records to share, the first record of the chunk being filled, and theirs expected next. */
  private shared: SharedRecords | undefined;
  private chunkFirst = 0;
  private sharedNext = 0;
  /** hashAsItGoes(): from how many bytes on; the bytes of the chunks closed so far; the thread, once they pass that; where it writes them. */
  private hashFrom = Infinity;
  private closedBytes = 0;
  private hasher: ChunkHasher | undefined;
  private spool: (() => Spool | undefined) | undefined;

  constructor() {
    this.buf = sharedMemory(CHUNK);
    this.buf[0] = OPEN;
    this.at = 1;
    this.chunks.push(this.buf);
  }

  /** Records from their JSON texts (tests, and callers that hold texts). */
  static of(jsons: Iterable<string>): Bodies {
    const bodies = new Bodies();
    for (const json of jsons) bodies.push(json);
    return bodies;
  }

  /**
   * A body read back whole (a snapshot): its records are the given byte ranges of it, in order. It is
   * sealed as it is: its payload is the body itself.
   */
  static adopt(body: Buffer, starts: Uint32Array<ArrayBuffer>, ends: Uint32Array<ArrayBuffer>, count: number): Bodies {
    const bodies = new Bodies();
    bodies.chunks[0] = bodies.buf = body;
    bodies.at = body.length - 1;
    bodies.chunkOf = new Uint32Array(Math.max(count, 1));
    bodies.starts = starts;
    bodies.ends = ends;
    bodies.count = count;
    bodies.sealed = sealedPayload(count, [body]);
    return bodies;
  }

  get length(): number {
    return this.count;
  }

  /**
   * From now on, each full chunk's records that `records` holds byte for byte are kept as views of its
   * bytes, and the chunk's own copy is let go: a repeat upload's records are mostly the last upload's,
   * so a plan compared with a snapshot holds one copy of them, not two (137 MB for 10⁶ team members;
   * docs/performance.md). The bytes, and so the payload, are the same either way.
   */
  shareWith(records: SharedRecords): void {
    if (this.count > 0) throw new Error('shareWith() comes before the first record');
    this.shared = records;
  }

  /**
   * From now on, once the body passes 16 MiB, each chunk is hashed on a thread of its own as it is
   * closed: a real upload's sha256 is then ready when the plan is (docs/performance.md). A dry run
   * never asks: it never hashes. `spool`, called once as the thread starts, may give a file for the
   * thread to write the chunks to as well (the payload's spooled()), so that an upload finds its bytes
   * on the disk already. (`fromBytes`: the tests' smaller bodies.)
   */
  hashAsItGoes({ fromBytes = OFF_THREAD_BYTES, spool }: { fromBytes?: number; spool?: (() => Spool | undefined) | undefined } = {}): void {
    if (this.count > 0) throw new Error('hashAsItGoes() comes before the first record');
    this.hashFrom = fromBytes;
    this.spool = spool;
  }

  /** Appends a record given as its canonical JSON. */
  push(json: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    const start = this.open(json.length * 3);
    this.at = start + this.buf.write(json, start);
    this.close(start);
  }

  /**
   * Appends a record as `JSON.stringify(record)` would write it, encoded to UTF-8 straight into the
   * chunk when its values are all strings or null (a team member): one pass over its characters, no
   * string made. Node 24's JSON.stringify took 0.65 µs for such a record of five fields, a tenth of a
   * 1M dry run (docs/performance.md, round 6). A record with any other value (a number, the hours)
   * goes through JSON.stringify. test/unit/json-array.test.ts checks the bytes are the same.
   */
  pushRecord(record: Readonly<Record<string, unknown>>): void {
    let units = 2;
    for (const key in record) {
      const value = record[key];
      if (value === null) units += key.length + 8;
      else if (typeof value === 'string') units += key.length + value.length + 6;
      else return this.push(JSON.stringify(record));
    }
    // A UTF-16 code unit is at most 6 bytes written (an escape such as \u001f), most often 1.
    const start = this.open(units * 6);
    const buf = this.buf;
    let at = start;
    buf[at++] = 0x7b; // {
    let place = 0;
    for (const key in record) at = writeField(buf, at, place++, key, record[key] as string | null);
    buf[at++] = 0x7d; // }
    this.at = at;
    this.close(start);
  }

  /**
   * Appends the record whose fields are `names`, in order, holding `values` (each a string or null), as
   * pushRecord writes it: for a caller that knows its record's fields, so nothing is read by name (a
   * record's keys and values read by name were a tenth of the writer's time; docs/performance.md).
   */
  pushValues(names: readonly string[], values: readonly (string | null)[]): void {
    let units = 2;
    for (let k = 0; k < names.length; k++) {
      const value = values[k]!;
      units += names[k]!.length + (value === null ? 8 : value.length + 6);
    }
    const start = this.open(units * 6);
    const buf = this.buf;
    let at = start;
    buf[at++] = 0x7b; // {
    for (let k = 0; k < names.length; k++) at = writeField(buf, at, k, names[k]!, values[k]!);
    buf[at++] = 0x7d; // }
    this.at = at;
    this.close(start);
  }

  /** Appends a record given as bytes (copied). */
  pushBytes(from: Buffer, start: number, end: number): void {
    const at = this.open(end - start);
    this.at = at + from.copy(this.buf, at, start, end);
    this.close(at);
  }

  /** The chunk of record `i`, and where its bytes start and end in it (no copy, no view). */
  bufferOf(i: number): Buffer {
    return this.chunks[this.chunkOf[i]!]!;
  }

  startOf(i: number): number {
    return this.starts[i]!;
  }

  endOf(i: number): number {
    return this.ends[i]!;
  }

  /** Record `i`'s bytes, as a view. */
  bytes(i: number): Buffer {
    return this.bufferOf(i).subarray(this.starts[i], this.ends[i]);
  }

  /** Record `i`'s canonical JSON text (decoded on demand: the diff's examples, the preview, a report). */
  json(i: number): string {
    return this.bufferOf(i).toString('utf8', this.starts[i], this.ends[i]);
  }

  /** The first `n` records' JSON texts. */
  first(n: number): string[] {
    return Array.from({ length: Math.min(n, this.count) }, (_, i) => this.json(i));
  }

  /** Whether record `i` holds exactly the same bytes as record `j` of `other`. */
  same(i: number, other: Bodies, j: number): boolean {
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    const otherStart = other.starts[j]!;
    if (end - start !== other.ends[j]! - otherStart) return false;
    return this.bufferOf(i).compare(other.bufferOf(j), otherStart, other.ends[j], start, end) === 0;
  }

  /**
   * How many of the records `which` picks hold `needle` in their bytes: one native search per hit,
   * over the chunks in order, not one per record.
   */
  holding(needle: Buffer, which: (i: number) => boolean): number {
    let count = 0;
    let chunk = -1;
    let hit = -1;
    for (let i = 0; i < this.count; i++) {
      const start = this.starts[i]!;
      const end = this.ends[i]!;
      if (this.chunkOf[i] !== chunk) {
        chunk = this.chunkOf[i]!;
        hit = this.chunks[chunk]!.indexOf(needle, start);
      } else if (hit !== -1 && hit < start) hit = this.chunks[chunk]!.indexOf(needle, start);
      if (hit !== -1 && hit + needle.length <= end && which(i)) count++;
    }
    return count;
  }

  /** A copy without the records flagged in `drop` (a record whose key or email repeats an earlier one's). */
  without(drop: Uint8Array): Bodies {
    // This body will not be sent: its thread, and its spool's descriptor, are done with.
    this.hasher?.end();
    const kept = new Bodies();
    if (this.shared) kept.shareWith(this.shared);
    for (let i = 0; i < this.count; i++) if (!drop[i]) kept.pushBytes(this.bufferOf(i), this.starts[i]!, this.ends[i]!);
    return kept;
  }

  /** The chunk just closed to the hashing thread, before shareChunk() cuts it; every chunk before it once the thread starts. */
  private hashClosed(): void {
    const closed = this.chunks[this.chunks.length - 1]!;
    this.closedBytes += closed.length;
    if (this.hasher) return this.hasher.add([closed]);
    if (this.closedBytes < this.hashFrom) return;
    try {
      this.hasher = new ChunkHasher();
      const spool = this.spool?.();
      if (spool) this.hasher.writeTo(spool);
      this.hasher.add(this.chunks);
    } catch {
      // No thread: the payload is hashed when asked, as without hashAsItGoes(), and written by the
      // store. A spool it opened is the store's to remove.
      this.hasher = undefined;
      this.hashFrom = Infinity;
    }
  }

  /**
   * The body to send: the chunks as they are, closed with `]`, with their length and sha256 (worked out
   * when first read). Nothing may be appended after.
   */
  payload(): Payload {
    if (this.sealed) return this.sealed;
    const chunks = this.seal();
    this.hasher?.add(chunks.slice(-1));
    return (this.sealed = sealedPayload(this.count, chunks, this.hasher));
  }

  private seal(): Buffer[] {
    this.buf[this.at] = CLOSE;
    const last = this.chunks.length - 1;
    return this.chunks.map((chunk, i) => (i === last ? chunk.subarray(0, this.at + 1) : chunk));
  }

  /** Makes room for a record of up to `bytes` bytes (with its comma and a closing bracket); where it starts. */
  private open(bytes: number): number {
    if (this.sealed) throw new Error('a record was added to a body already sealed');
    const comma = this.count > 0 ? 1 : 0;
    const needed = comma + bytes + 1;
    if (this.at + needed > this.buf.length) {
      if (this.count === 0) {
        // A first record larger than the first chunk: a larger first chunk, so that, like every record,
        // it has the byte before it (`[`) in its own chunk (shareChunk cuts a chunk there).
        this.buf = sharedMemory(needed + 1);
        this.buf[0] = OPEN;
        this.at = 1;
        this.chunks[0] = this.buf;
      } else {
        // A full chunk ends where its last record does; its spare bytes are never sent.
        this.chunks[this.chunks.length - 1] = this.buf.subarray(0, this.at);
        if (this.hashFrom !== Infinity) this.hashClosed();
        if (this.shared) this.shareChunk(this.shared);
        this.chunkFirst = this.count;
        this.buf = sharedMemory(Math.max(CHUNK, needed));
        this.at = 0;
        this.chunks.push(this.buf);
      }
    }
    if (comma) this.buf[this.at++] = COMMA;
    return this.at;
  }

  /**
   * The full chunk's records, from `chunkFirst`, in runs: each run that `records` holds with the same
   * bytes (its records in step with ours, found by key when they are not) becomes a view of its bytes,
   * the rest is copied into a buffer of its own size, and the chunk is replaced by those pieces in
   * order. Each piece holds its records with the byte before each (`,`, or `[` before the first), so the
   * pieces are the chunk's bytes exactly. A chunk less than half of which is shared stays as it is.
   */
  private shareChunk(records: SharedRecords): void {
    const theirs = records.bodies;
    const first = this.chunkFirst;
    const end = this.count;
    const chunk = this.chunks[this.chunks.length - 1]!;
    // Runs of records [from, to): theirs from `at` (or ours when at is -1).
    const runs: { from: number; to: number; at: number }[] = [];
    let sharedBytes = 0;
    let next = this.sharedNext;
    // Records of a plan that is not the baseline's cost a lookup each: after LOOKUPS with nothing found
    // to share, the rest of the chunk is left as it is.
    let lookups = 0;
    for (let i = first; i < end;) {
      let r = next;
      let n = r < theirs.length ? sharedRun(theirs, r, this, i, end) : 0;
      if (n === 0 && lookups < LOOKUPS) {
        lookups++;
        r = records.locate(this, i, next);
        if (r !== -1 && r !== next) n = sharedRun(theirs, r, this, i, end);
      }
      if (n >= SHARED_RUN) {
        const last = runs[runs.length - 1];
        // A run that goes on from the last one in their records (the same buffer, as sharedRun saw) is one piece.
        if (last && last.at !== -1 && last.at + (last.to - last.from) === r && theirs.bufferOf(last.at) === theirs.bufferOf(r)) last.to += n;
        else runs.push({ from: i, to: i + n, at: r });
        sharedBytes += this.ends[i + n - 1]! - this.starts[i]! + 1;
        lookups = 0;
        i += n;
        next = r + n;
        continue;
      }
      // Ours: the record, or the few that are theirs too (not worth a piece of their own).
      const own = Math.max(n, 1);
      if (r !== -1) next = r + own;
      const last = runs[runs.length - 1];
      if (last && last.at === -1) last.to += own;
      else runs.push({ from: i, to: i + own, at: -1 });
      i += own;
      if (lookups >= LOOKUPS && sharedBytes === 0) break;
    }
    this.sharedNext = next;
    if (sharedBytes * 2 < chunk.length) return;
    const last = runs[runs.length - 1]!;
    if (last.to < end) {
      if (last.at === -1) last.to = end;
      else runs.push({ from: last.to, to: end, at: -1 });
    }
    // Our records that are not theirs, copied together so the chunk can go.
    const own = sharedMemory(chunk.length - sharedBytes);
    let ownAt = 0;
    const pieces: Buffer[] = [];
    for (const run of runs) {
      const k = this.chunks.length - 1 + pieces.length;
      const lead = this.starts[run.from]! - 1;
      let piece: Buffer;
      if (run.at === -1) {
        const size = this.ends[run.to - 1]! - lead;
        piece = own.subarray(ownAt, ownAt + size);
        chunk.copy(own, ownAt, lead, lead + size);
        ownAt += size;
        for (let i = run.from; i < run.to; i++) {
          this.starts[i] = this.starts[i]! - lead;
          this.ends[i] = this.ends[i]! - lead;
          this.chunkOf[i] = k;
        }
      } else {
        const base = theirs.startOf(run.at) - 1;
        piece = theirs.bufferOf(run.at).subarray(base, theirs.endOf(run.at + run.to - run.from - 1));
        for (let i = run.from, r = run.at; i < run.to; i++, r++) {
          this.starts[i] = theirs.startOf(r) - base;
          this.ends[i] = theirs.endOf(r) - base;
          this.chunkOf[i] = k;
        }
      }
      pieces.push(piece);
    }
    this.chunks.splice(this.chunks.length - 1, 1, ...pieces);
  }

  private close(start: number): void {
    const i = this.count++;
    if (i === this.starts.length) {
      this.chunkOf = grown(this.chunkOf);
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    this.chunkOf[i] = this.chunks.length - 1;
    this.starts[i] = start;
    this.ends[i] = this.at;
  }
}

/** How many records of a full chunk may be looked up by key with none found to share, before it is left as it is. */
const LOOKUPS = 64;
/** Fewer records than this in a row are copied even when they are the baseline's: a piece costs a Buffer. */
const SHARED_RUN = 16;
/** At most this many records are compared as one span: a difference costs one span's comparison, then record by record. */
export const RUN = 128;

/**
 * sameRun, with the byte before each record: `[` before the first and `,` before any other, so the
 * same only if both are first or neither (a shared piece holds its records with those bytes).
 */
function sharedRun(theirs: Bodies, r: number, ours: Bodies, i: number, end: number): number {
  return (r === 0) === (i === 0) ? sameRun(theirs, r, ours, i, end) : 0;
}

/**
 * How many records of `ours` from `i` (up to `end`, and RUN) are byte for byte records of `theirs` from
 * `r`, where each side's records lie in one buffer at the same distances: one native comparison for the
 * span, and should it differ, each record alone from its start. 0 when record `i` is not record `r`.
 * The diff walks a plan and its baseline in step with it; shareWith() finds what a plan can share.
 */
export function sameRun(theirs: Bodies, r: number, ours: Bodies, i: number, end = ours.length): number {
  const most = Math.min(RUN, end - i, theirs.length - r);
  const buf = theirs.bufferOf(r);
  const start = theirs.startOf(r);
  const ourBuf = ours.bufferOf(i);
  const ourStart = ours.startOf(i);
  let n = 0;
  while (
    n < most &&
    theirs.bufferOf(r + n) === buf &&
    ours.bufferOf(i + n) === ourBuf &&
    theirs.startOf(r + n) - start === ours.startOf(i + n) - ourStart &&
    theirs.endOf(r + n) - start === ours.endOf(i + n) - ourStart
  )
    n++;
  if (n === 0) return 0;
  if (ourBuf.compare(buf, start, start + ours.endOf(i + n - 1) - ourStart, ourStart, ours.endOf(i + n - 1)) === 0) return n;
  let same = 0;
  while (same < n && theirs.same(r + same, ours, i + same)) same++;
  return same;
}

/** `,"name":value` (no comma at place 0) at `at`; where it ends. */
function writeField(buf: Buffer, at: number, place: number, key: string, value: string | null): number {
  if (place !== 0) buf[at++] = COMMA;
  // The field names are the same in every record: copied as bytes, not read again character by character.
  const name = KEY_AT[place] === key ? NAME_BYTES[place]! : nameBytes(place, key);
  // One native copy: over a million records of five fields, 164 against 90 ms for a loop of bytes.
  buf.set(name, at);
  at += name.length;
  if (value !== null) return writeJsonString(buf, at, value);
  buf[at++] = 0x6e; // null
  buf[at++] = 0x75;
  buf[at++] = 0x6c;
  buf[at++] = 0x6c;
  return at;
}

/** Per place in a record: the field name last written there, and its `"name":` as UTF-8 bytes. */
const KEY_AT: (string | undefined)[] = [];
const NAME_BYTES: Buffer[] = [];

function nameBytes(place: number, key: string): Buffer {
  // A Buffer, as the chunks are: writeJsonString sees one kind of array.
  const bytes = Buffer.alloc(key.length * 6 + 3);
  const end = writeJsonString(bytes, 0, key);
  bytes[end] = 0x3a; // :
  KEY_AT[place] = key;
  return (NAME_BYTES[place] = bytes.subarray(0, end + 1));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66];
/** The short escapes JSON.stringify writes (\b \t \n \f \r), by code unit; 0 where it writes \u00XX. */
const SHORT = new Uint8Array(32);
SHORT[8] = 0x62;
SHORT[9] = 0x74;
SHORT[10] = 0x6e;
SHORT[12] = 0x66;
SHORT[13] = 0x72;

/** `s` as a JSON string, in UTF-8, at `at`; where it ends. Escapes as JSON.stringify does, a lone surrogate included. */
function writeJsonString(buf: Buffer, at: number, s: string): number {
  buf[at++] = QUOTE;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) buf[at++] = c;
      else at = writeEscape(buf, at, c);
    } else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    } else {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        buf[at++] = 0xf0 | (cp >> 18);
        buf[at++] = 0x80 | ((cp >> 12) & 0x3f);
        buf[at++] = 0x80 | ((cp >> 6) & 0x3f);
        buf[at++] = 0x80 | (cp & 0x3f);
        i++;
      } else at = writeEscape(buf, at, c); // a lone surrogate, as \udXXX
    }
  }
  buf[at++] = QUOTE;
  return at;
}

function writeEscape(buf: Buffer, at: number, c: number): number {
  buf[at++] = BACKSLASH;
  if (c === QUOTE || c === BACKSLASH) {
    buf[at++] = c;
  } else if (c < 32 && SHORT[c]) {
    buf[at++] = SHORT[c]!;
  } else {
    buf[at++] = 0x75; // u
    buf[at++] = HEX[(c >> 12) & 15]!;
    buf[at++] = HEX[(c >> 8) & 15]!;
    buf[at++] = HEX[(c >> 4) & 15]!;
    buf[at++] = HEX[c & 15]!;
  }
  return at;
}

/** A copy of `a` twice as long (a growable list of offsets). */
export function grown(a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}

/** The body of these records (tests and tools that hold texts). */
export function encodePayload(jsons: readonly string[]): Payload {
  return Bodies.of(jsons).payload();
}

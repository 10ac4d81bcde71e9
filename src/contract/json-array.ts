// The wire body, `[record,record,…]`, encoded once: the same chunks are sent on every attempt, written
// as the snapshot and stored by the sandbox, and their length and sha256 are computed in the same pass.
// Never one giant string, so bodies larger than V8's string limit (about 512 MB) work.
import { createHash } from 'node:crypto';

const CHUNK = 256 * 1024;
const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/**
 * `[body,body,…]` as UTF-8 chunks of about 256 KiB. Each record is encoded straight into the chunk
 * (no joined intermediate string: measured 40% faster on 1M records); each chunk is a fresh buffer,
 * so a consumer may keep it.
 */
export function* jsonArrayChunks(bodies: readonly string[]): Generator<Buffer> {
  let buf = Buffer.allocUnsafe(CHUNK);
  buf[0] = OPEN;
  let at = 1;
  for (let i = 0; i < bodies.length; i++) {
    const body = bodies[i]!;
    // A UTF-16 code unit is at most 3 bytes of UTF-8, so this bound is safe without measuring.
    const worst = 1 + body.length * 3;
    if (at + worst > buf.length) {
      yield buf.subarray(0, at);
      buf = Buffer.allocUnsafe(Math.max(CHUNK, worst));
      at = 0;
    }
    if (i > 0) buf[at++] = COMMA;
    at += buf.write(body, at, 'utf8');
  }
  if (at === buf.length) {
    yield buf;
    buf = Buffer.allocUnsafe(1);
    at = 0;
  }
  buf[at++] = CLOSE;
  yield buf.subarray(0, at);
}

/** The exact bytes of one upload, with what identifies them. */
export interface Payload {
  readonly records: number;
  readonly chunks: readonly Buffer[];
  readonly bytes: number;
  readonly sha256: string;
}

export function encodePayload(bodies: readonly string[]): Payload {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for (const chunk of jsonArrayChunks(bodies)) {
    chunks.push(chunk);
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { records: bodies.length, chunks, bytes, sha256: hash.digest('hex') };
}

/**
 * The records of a body this tool encoded (a snapshot whose sha256 was checked): key → record JSON,
 * without parsing each record. Canonical records are compact objects with the key field first, so
 * the scanner only tracks strings and depth over the bytes, and reads the key from the record's
 * start. Anything else — whitespace, another field first, a duplicate key — returns undefined, and
 * the caller reads the file the general, slower way.
 */
export function decodeCanonical(body: Buffer, keyField: string): Map<string, string> | undefined {
  // Fast path: in compact JSON a raw quote only ever ends a string, so `},{"<key>":"` can only stand
  // between two records: one native search per record instead of a scan of every byte. Each record is
  // a slice of one decoded string (no copy).
  if (body.length < MAX_ONE_STRING) {
    const text = body.toString('utf8');
    const open = `{"${keyField}":"`;
    const records = new Map<string, string>();
    if (text === '[]') return records;
    if (!text.startsWith(`[${open}`) || !text.endsWith('}]')) return undefined;
    const between = `},${open}`;
    let brace = text.indexOf('}{');
    for (let start = 1; ;) {
      const next = text.indexOf(between, start);
      const end = next === -1 ? text.length - 1 : next + 1;
      const keyStart = start + open.length;
      const keyEnd = text.indexOf('"', keyStart);
      // A quote that may be escaped, or `}{` (two records without a comma, or a name holding it): the
      // byte scanner below reads those properly.
      if (keyEnd === -1 || keyEnd > end || text.charCodeAt(keyEnd - 1) === 0x5c) return decodeBytes(body, keyField);
      // The next `}{` is looked up only once the search passes it: linear over the whole text.
      if (brace !== -1 && brace < start) brace = text.indexOf('}{', start);
      if (brace !== -1 && brace < end) return decodeBytes(body, keyField);
      const raw = text.slice(keyStart, keyEnd);
      const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      if (records.has(key)) return undefined;
      records.set(key, text.slice(start, end));
      if (next === -1) return records;
      start = next + 2;
    }
  }
  return decodeBytes(body, keyField);
}

/** Below V8's longest string (with room): above it, records are decoded one by one from the bytes. */
const MAX_ONE_STRING = 256 * 1024 * 1024;

function decodeBytes(body: Buffer, keyField: string): Map<string, string> | undefined {
  const prefix = Buffer.from(`{"${keyField}":"`);
  const records = new Map<string, string>();
  const last = body.length - 1;
  if (body.length < 2 || body[0] !== OPEN || body[last] !== CLOSE) return undefined;
  if (body.length === 2) return records;
  let at = 1;
  for (;;) {
    if (!body.subarray(at, at + prefix.length).equals(prefix)) return undefined;
    const start = at;
    const end = objectEnd(body, start);
    if (end === -1) return undefined;
    const keyOpen = start + prefix.length - 1;
    const key = JSON.parse(body.toString('utf8', keyOpen, stringEnd(body, keyOpen) + 1)) as string;
    if (records.has(key)) return undefined;
    records.set(key, body.toString('utf8', start, end + 1));
    if (end + 1 === last) return records;
    if (body[end + 1] !== COMMA) return undefined;
    at = end + 2;
  }
}

/** The index of the `}` that closes the object opening at `start`, or -1. */
function objectEnd(body: Buffer, start: number): number {
  let depth = 0;
  for (let i = start; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x22) i = stringEnd(body, i);
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i;
  }
  return -1;
}

/** The index of the quote that ends the JSON string opening at `open`. */
function stringEnd(body: Buffer, open: number): number {
  for (let i = open + 1; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return body.length;
}

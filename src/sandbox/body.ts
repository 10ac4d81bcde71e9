// An upload body, parsed as it streams in: the whole array validated against the shared contract
// (and for unique keys) before anything is stored. What is stored is the accepted records encoded
// canonically, as bytes (no string per record): in memory, or — with a data directory — written to the
// set's temp file as they are parsed, so a million members cost next to no memory.
import type { IncomingMessage } from 'node:http';
import { KINDS, type Kind } from '../contract/kinds.js';
import { ACCEPTS } from '../contract/fast.js';
import { ACCEPTED_SCHEMAS } from '../contract/schemas.js';
import { UploadError } from '../errors.js';
import { decodeText } from '../read/decode.js';
import type { AtomicFile } from '../files/atomic.js';
import { jsonArrayElements } from '../read/json.js';
import { doubled, KeyList, runOf } from '../validate/key-index.js';

export class TooLarge extends Error {}

export interface BodyError {
  readonly index: number;
  readonly path: string;
  readonly message: string;
}

/**
 * A set's records, `[record,record,…]` as UTF-8: how many, and the bytes in memory (`chunks`), or none
 * when they went to the file parseRecords was given.
 */
export interface ParsedSet {
  readonly count: number;
  readonly chunks: readonly Buffer[];
}

export type ParsedBody = ({ readonly ok: true } & ParsedSet) | { readonly ok: false; readonly message: string; readonly errors: BodyError[] };

const MAX_LISTED = 100;

/** A body that stopped arriving: no byte for the idle time. The connection is dropped without an answer. */
export class BodyIdle extends Error {}

interface Meter {
  seen: number;
}

/**
 * The body's chunks, counted against the cap, each within `idleMs` of the last. The stream is not
 * destroyed when the parser stops early, so what is left can still be drained (drainRest).
 */
async function* limited(req: IncomingMessage, max: number, meter: Meter, idleMs: number): AsyncGenerator<Uint8Array> {
  for await (const chunk of idleBounded(req, idleMs)) {
    meter.seen += chunk.length;
    if (meter.seen > max) throw new TooLarge();
    yield chunk;
  }
}

/** The request's chunks; a gap of `idleMs` without one destroys the request (BodyIdle). */
async function* idleBounded(req: IncomingMessage, idleMs: number): AsyncGenerator<Buffer> {
  const timer = setTimeout(() => req.destroy(new BodyIdle(`no byte of the body for ${idleMs / 1000} s`)), idleMs);
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      timer.refresh();
      yield chunk as Buffer;
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What is left of a body found invalid early is read and dropped up to the cap: an over-cap body is
 * 413 whether or not Content-Length announced it, not a 400 about its first bytes.
 */
async function drainRest(req: IncomingMessage, max: number, meter: Meter, idleMs: number): Promise<void> {
  if (req.readableEnded) return;
  for await (const chunk of idleBounded(req, idleMs)) {
    meter.seen += chunk.length;
    if (meter.seen > max) throw new TooLarge();
  }
}

export async function parseBody(req: IncomingMessage, kind: Kind, maxBody: number, file: AtomicFile | undefined, idleMs: number): Promise<ParsedBody> {
  const meter = { seen: 0 };
  const parsed = await parseRecords(limited(req, maxBody, meter, idleMs), kind, file);
  if (!parsed.ok) await drainRest(req, maxBody, meter, idleMs);
  return parsed;
}

/** An element JSON.parse could not read, found where the array is scanned element by element. */
class BadElement extends Error {}

/** The records of a body (or of a stored file), checked and encoded canonically, kept in memory or written to `file`. */
export async function parseRecords(bytes: AsyncIterable<Uint8Array>, kind: Kind, file?: AtomicFile): Promise<ParsedBody> {
  const schema = ACCEPTED_SCHEMAS[kind];
  const keyField = KINDS[kind].keyField;
  const accepts = ACCEPTS[kind];
  const errors: BodyError[] = [];
  let invalid = 0;
  const fail = (index: number, path: string, message: string) => {
    invalid++;
    if (errors.length < MAX_LISTED) errors.push({ index, path, message });
  };
  // Keys and emails are compared at the end, by sorted hashes (validate/key-index.ts); the records
  // with equal hashes are read back from what is stored.
  const stored = new StoredBatches(file);
  const keys = new KeyList((entry) => stored.field(entry, keyField));
  const emails = new KeyList((entry) => stored.field(entry, 'email').toLowerCase());
  /** The element number of each stored record. */
  let elementOf = new Int32Array(1024);
  let index = 0;
  try {
    for await (const { values, text } of elementBatches(decodeText(bytes, 'utf-8', 'body'))) {
      const accepted: Record<string, unknown>[] = [];
      let asSent = text !== undefined && kind === 'team-members' && !text.includes('\\');
      let length = values.length + 1; // the brackets and commas of `[…]`
      for (const value of values) {
        const i = index++;
        // The fast check accepts what the contract accepts (a property test holds it to zod); zod judges,
        // and words, everything else.
        let record: Record<string, unknown>;
        if (isObject(value) && accepts(value)) record = value;
        else {
          asSent = false;
          const result = schema.safeParse(value);
          if (!result.success) {
            for (const zi of result.error.issues) fail(i, zi.path.join('.'), zi.message);
            continue;
          }
          record = result.data;
        }
        if (asSent) length += compactLength(record);
        keys.add(record[keyField] as string);
        if (kind === 'team-members') emails.add((record.email as string).toLowerCase());
        if (stored.count + accepted.length === elementOf.length) elementOf = doubled(elementOf);
        elementOf[stored.count + accepted.length] = i;
        accepted.push(record);
      }
      if (accepted.length === 0) continue;
      // A batch of team members sent compact and without escapes is stored as sent when its length is
      // that of its canonical form: see compactLength. Anything else is encoded again.
      await stored.add(accepted.length, asSent && length === text!.length + 2 ? text! : JSON.stringify(accepted).slice(1, -1));
    }
  } catch (err) {
    if (err instanceof TooLarge || err instanceof BodyIdle) throw err;
    if (err instanceof BadElement) return { ok: false, message: `invalid JSON in element ${index}: ${err.message}`, errors: [] };
    if (err instanceof UploadError)
      return { ok: false, message: `the body is not a JSON array of objects: ${err.message.replace(/^body:\d+: /, '')}`, errors: [] };
    throw err;
  }
  const repeats = [
    ...keys.finish().map((r) => ({ ...r, field: keyField })),
    ...(kind === 'team-members' ? emails.finish().map((r) => ({ ...r, field: 'email' })) : []),
  ].sort((a, b) => a.entry - b.entry || (a.field === 'email' ? 1 : -1));
  // Listed past the limit for now: with the first MAX_LISTED of the others, they hold the first of all.
  for (const { entry, field } of repeats.slice(0, MAX_LISTED))
    errors.push({ index: elementOf[entry]!, path: field, message: `duplicate ${field} '${stored.field(entry, field)}'` });
  invalid += repeats.length;
  if (invalid > 0) {
    // In element order; the first MAX_LISTED of either list hold the first MAX_LISTED of both.
    const first = errors.sort((a, b) => a.index - b.index).slice(0, MAX_LISTED);
    return { ok: false, message: `${invalid} problem(s) in the uploaded array; nothing was stored`, errors: first };
  }
  return { ok: true, count: stored.count, chunks: await stored.finish() };
}

/**
 * The length of a team member's canonical JSON, given that its text holds no backslash: every value is
 * a string (no escapes, so as long as written, plus its quotes) or null, and the keys are in schema
 * order (the fast check saw to both). A text of the same record that is not canonical — with
 * whitespace, or a key twice — is longer, never shorter, so equal lengths mean equal texts.
 */
function compactLength(record: Record<string, unknown>): number {
  let length = 1; // {
  for (const field in record) {
    const value = record[field];
    length += field.length + 4 + (typeof value === 'string' ? value.length + 2 : 4); // "field": and a comma or }
  }
  return length;
}

/**
 * The accepted records, `[record,record,…]`, in UTF-8 chunks of a batch each, kept in memory or written
 * to a file; a record is found again by its number (read back from the file when it went there).
 */
class StoredBatches {
  private readonly chunks: Buffer[] = [];
  /** Per chunk: the number of its first record, and where it starts in the bytes. */
  private readonly firsts: number[] = [];
  private readonly offsets: number[] = [];
  private records = 0;
  private bytes = 0;
  private cached: { chunk: number; records: Record<string, unknown>[] } | undefined;

  constructor(private readonly file: AtomicFile | undefined) {}

  /** How many records are stored. */
  get count(): number {
    return this.records;
  }

  /** A batch of `records` records, as their JSON without the brackets. */
  async add(records: number, json: string): Promise<void> {
    const chunk = Buffer.from(this.records === 0 ? `[${json}` : `,${json}`);
    this.firsts.push(this.records);
    this.offsets.push(this.bytes);
    this.records += records;
    this.bytes += chunk.length;
    if (this.file) await this.file.write(chunk);
    else this.chunks.push(chunk);
  }

  /** The closing bracket added; the chunks in memory (none when they went to the file). */
  async finish(): Promise<readonly Buffer[]> {
    const end = Buffer.from(this.records === 0 ? '[]' : ']');
    if (this.file) {
      await this.file.write(end);
      return [];
    }
    return [...this.chunks, end];
  }

  /** A field of a stored record, read back from its chunk (the last chunk read is kept parsed). */
  field(record: number, field: string): string {
    const n = runOf(this.firsts, record);
    if (this.cached?.chunk !== n) {
      const bytes = this.file ? this.file.readSync(this.offsets[n]!, (this.offsets[n + 1] ?? this.bytes) - this.offsets[n]!) : this.chunks[n]!;
      this.cached = { chunk: n, records: JSON.parse(`[${bytes.toString('utf8', 1)}]`) as Record<string, unknown>[] };
    }
    return this.cached.records[record - this.firsts[n]!]![field] as string;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The array's elements, parsed, in batches. An array of objects — `[{…},{…}]` as the CLI sends it, or
 * with whitespace between the elements (`[{…}, {…}]` as Python's json.dumps writes it, or one per line)
 * — is cut after its last `}`-comma-`{` as it streams in, and each batch is read by one JSON.parse: a
 * cut inside a string leaves the batch ending inside that string, which JSON.parse rejects, so a wrong
 * cut cannot pass. Only the text that arrived since the last look is searched for a cut, so the work
 * grows with the body's size, not its square. Anything else (another shape, a syntax error, a wrong
 * cut) is read from there on element by element, which words every error.
 */
async function* elementBatches(texts: AsyncIterable<string>): AsyncGenerator<Batch> {
  const source = texts[Symbol.asyncIterator]();
  let pending = '';
  let opened = false;
  /** Where in `pending` the search for the next cut starts: what was searched before has no cut. */
  let searched = 0;
  for (let next = await source.next(); !next.done; next = await source.next()) {
    pending += next.value;
    if (!opened) {
      const start = ARRAY_OF_OBJECTS.exec(pending);
      if (!start) {
        // Whitespace alone (or `[` and whitespace) may still become `[{`: wait for more, but not for ever.
        if (/^\s*(\[\s*)?$/.test(pending) && pending.length < 4096) continue;
        yield* oneByOne(pending, source);
        return;
      }
      opened = true;
      pending = pending.slice(start[0].length - 1);
    }
    const cut = lastCut(pending, searched);
    // The separator may straddle the next chunk: search again from a little before the end.
    searched = Math.max(0, pending.length - SEPARATOR_SPAN);
    if (!cut) continue;
    const text = pending.slice(0, cut.end);
    const values = parsedObjects(`[${text}]`);
    if (!values) {
      yield* oneByOne(`[${pending}`, source);
      return;
    }
    yield { values, text };
    pending = pending.slice(cut.next);
    searched = 0;
  }
  if (!opened) {
    yield* oneByOne(pending, source);
    return;
  }
  // The last batch: `{…},…,{…}]`, perhaps with JSON's whitespace after it — only JSON's: trimEnd()
  // would also pass U+FEFF, U+00A0 and U+2028, which JSON.parse rejects.
  const rest = pending.replace(/[ \t\n\r]+$/, '');
  const text = rest.slice(0, -1);
  const values = rest.endsWith(']') ? parsedObjects(`[${text}]`) : undefined;
  if (!values) {
    yield* oneByOne(`[${pending}`, source);
    return;
  }
  yield { values, text };
}

/** `[` then `{`, with JSON whitespace before and between. */
const ARRAY_OF_OBJECTS = /^[ \t\r\n]*\[[ \t\r\n]*\{/;
/** `}`, a comma and `{`, with JSON whitespace between them. */
const SEPARATOR = /\}[ \t\r\n]*,[ \t\r\n]*\{/g;
/** How far back a separator that straddles two chunks is looked for again (longer runs of whitespace just cut later). */
const SEPARATOR_SPAN = 256;

/** The last separator at or after `from`: where the batch before it ends, and where the next element starts. */
function lastCut(text: string, from: number): { end: number; next: number } | undefined {
  SEPARATOR.lastIndex = from;
  let found: RegExpExecArray | null = null;
  for (let m = SEPARATOR.exec(text); m; m = SEPARATOR.exec(text)) found = m;
  return found ? { end: found.index + 1, next: found.index + found[0].length - 1 } : undefined;
}

/** Elements, parsed, and the text they were parsed from when that is exactly `{…},…,{…}`. */
interface Batch {
  readonly values: readonly unknown[];
  readonly text?: string | undefined;
}

/** The values of a JSON array of objects, or undefined when it is not one. */
function parsedObjects(text: string): unknown[] | undefined {
  try {
    const values = JSON.parse(text) as unknown;
    return Array.isArray(values) && values.every(isObject) ? values : undefined;
  } catch {
    return undefined;
  }
}

/** The rest of the array (`first`, then what `source` still holds), scanned and parsed element by element. */
async function* oneByOne(first: string, source: AsyncIterator<string>): AsyncGenerator<Batch> {
  async function* rest(): AsyncGenerator<string> {
    yield first;
    for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
  }
  for await (const el of jsonArrayElements(rest(), 'body', Infinity)) {
    try {
      yield { values: [JSON.parse(el.text)] };
    } catch (err) {
      throw new BadElement((err as Error).message);
    }
  }
}

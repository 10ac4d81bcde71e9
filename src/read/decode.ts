// Bytes to text. A BOM decides (UTF-8, UTF-16 LE/BE); otherwise --encoding, otherwise strict UTF-8.
import { InputError, UsageError } from '../errors.js';
import type { Issue } from '../issues.js';
import { tableDecoder, type TableDecoder } from './code-page-tables.js';
import { describeReading, rankCodePages } from './code-pages.js';
import { encodingFixes, LineSplitter, mixedEncoding, ReadingSample, suspectReading, Utf8Census } from './encoding-evidence.js';

/** Node's global TextDecoder (no import: node:util loads much more than this one class), or a table's. */
type Decoder = TableDecoder;

function sniffBom(head: Uint8Array): string | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Rejects an unknown --encoding label before anything is read. */
export function checkEncoding(label: string | undefined): void {
  if (label !== undefined) makeDecoder(label);
}

/** UTF-8, however it is spelled (`utf8`, `UTF-8`…), is decoded strictly: a bad byte is an error, never U+FFFD. */
function makeDecoder(label: string): Decoder {
  const table = tableDecoder(label);
  if (table) return table;
  try {
    const decoder = new TextDecoder(label);
    // UTF-16 too: an odd final byte or an unpaired surrogate is a damaged file, not a U+FFFD to send.
    if (decoder.encoding === 'utf-8' || decoder.encoding.startsWith('utf-16')) return new TextDecoder(label, { fatal: true });
    return decoder.encoding === 'windows-1258' ? composed(decoder) : decoder;
  } catch {
    throw new UsageError(
      'BAD_FLAG',
      `--encoding '${label}' is not an encoding this tool knows`,
      'use a WHATWG label such as utf-8, windows-1252, latin1, utf-16le or iso-8859-15, or ibm437, ibm850, ibm852, viscii',
    );
  }
}

/**
 * windows-1258 writes Vietnamese tones as combining marks after the vowel (`Nguyê` + U+0303): the text
 * is composed (NFC), as people type it, so `Nguyễn` compares equal to the recorded name. A chunk's
 * last character waits for the next chunk, which may start with its tone.
 */
function composed(inner: Decoder): Decoder {
  let held = '';
  return {
    encoding: inner.encoding,
    decode(input, options) {
      const text = held + inner.decode(input, options);
      const keep = options?.stream && text.length ? 1 : 0;
      held = text.slice(text.length - keep);
      return text.slice(0, text.length - keep).normalize('NFC');
    },
  };
}

/** Line breaks in bytes: CRLF, LF, and a lone CR (old Mac files) each end one line. */
function countNewlines(bytes: Uint8Array, end = bytes.length): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1 && i < end; i = bytes.indexOf(10, i + 1)) n++;
  for (let i = bytes.indexOf(13); i !== -1 && i < end; i = bytes.indexOf(13, i + 1)) if (bytes[i + 1] !== 10 && i + 1 < bytes.length) n++;
  // A CR that ends the bytes is counted when what follows is known (see decodeParts).
  return n;
}

function textLineBreaks(text: string, end = text.length): number {
  return (text.slice(0, end).match(/\r\n|\r|\n/g) ?? []).length;
}

/** The bytes of an unfinished UTF-8 character at the end of `bytes` (a copy; empty when none). */
function incompleteTail(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if (b < 0x80) break;
    if (b >= 0xc0) {
      const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return length > back ? Uint8Array.from(bytes.subarray(bytes.length - back)) : new Uint8Array(0);
    }
  }
  return new Uint8Array(0);
}

/** Offset of the first byte that starts an invalid UTF-8 sequence in `bytes`. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // The longest valid prefix, found by bisection; a prefix may end mid-sequence, so allow 3 bytes.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const ok = new TextDecoder('utf-8', { fatal: true });
    try {
      ok.decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

/**
 * Bytes to text, a chunk at a time. (Decoding Latin-1-only runs of lines apart, as one-byte strings,
 * no longer paid once the bodies became bytes — 1% of a 1M dry run — and was removed: docs/performance.md.)
 */
export async function* decodeText(bytes: AsyncIterable<Uint8Array>, encoding: string | undefined, source: string, notes?: Issue[]): AsyncGenerator<string> {
  checkEncoding(encoding); // reject an unknown label before reading
  let decoder: Decoder | undefined;
  let pending: Uint8Array = new Uint8Array(0);
  let newlinesBefore = 0; // only to name the line of a bad byte
  let bytesBefore = 0;
  let endsInCr = false; // the last chunk ended in CR: a line break unless this one starts with LF
  let textLines = 0; // line breaks decoded so far, for UTF-16 (whose bytes cannot be counted as text)
  let lenient: Decoder | undefined; // UTF-16: the same stream decoded with U+FFFD, to find the damage

  // The start of a character the last chunk ended in the middle of: the decoder holds it, and the
  // search for a bad byte must too, or the rest of that character would look like one.
  let carry: Uint8Array = new Uint8Array(0);
  const badByte = (input: Uint8Array): NotUtf8 => {
    const offset = Math.max(0, firstInvalidUtf8(Buffer.concat([carry, input])) - carry.length);
    const crBreak = endsInCr && input[0] !== 10 ? 1 : 0;
    return new NotUtf8(1 + newlinesBefore + crBreak + countNewlines(input, offset), bytesBefore + offset, input.subarray(offset));
  };
  const badUtf16 = (input: Uint8Array, stream: boolean): InputError => {
    const text = lenient!.decode(input, { stream });
    const at = text.indexOf('\ufffd');
    const line = 1 + textLines + textLineBreaks(text, at === -1 ? text.length : at);
    return new InputError(
      'NOT_UTF16',
      `${source}:${line}: the file is UTF-16 (it starts with a byte order mark) but is damaged here: ${at === -1 || !stream ? 'it ends in the middle of a character' : 'half of a character pair is missing'}`,
      'the file was probably cut short or edited as bytes: export it again',
    );
  };
  const decode = (input: Uint8Array, stream: boolean): string => {
    let text: string;
    try {
      text = decoder!.decode(input, { stream });
    } catch {
      throw lenient ? badUtf16(input, stream) : badByte(input);
    }
    if (lenient) {
      lenient.decode(input, { stream });
      textLines += textLineBreaks(text);
    }
    // The unfinished character may have begun chunks ago (a 4-byte one over 1-byte reads).
    carry = incompleteTail(carry.length ? Buffer.concat([carry, input]) : input);
    return text;
  };

  // Under --encoding, the first lines beyond ASCII, for SUSPECT_ENCODING (judged once, when full or at the end).
  const sample = encoding !== undefined && notes ? new ReadingSample() : undefined;
  const judgeSample = () => {
    const suspect = suspectReading(sample!.lines, encoding!);
    if (suspect) notes!.push(suspect);
  };
  // The start of the file, kept for the code-page ranking a file that is not UTF-8 gets.
  const head: Uint8Array[] = [];
  let headBytes = 0;
  const iterator = bytes[Symbol.asyncIterator]();
  /** The NOT_UTF8 error, ranked on the same bytes however the file is cut into reads: the file's start and what follows the bad byte. */
  const refuse = async (found: NotUtf8): Promise<never> => {
    // The start of the file, to the bad line: its lines beyond ASCII are UTF-8 (they decoded).
    const census = new Utf8Census();
    const start = Buffer.concat(head).subarray(0, Math.min(SAMPLE_HEAD, found.offset));
    const before = new LineSplitter(1);
    for (const { line, bytes } of before.lines(start)) if (line < found.line) census.add(line, bytes);
    // From the bad byte to the end: every line, to name each that is not UTF-8 (one pass, native checks).
    const after: Uint8Array[] = [];
    let kept = 0;
    const lines = new LineSplitter(found.line);
    for (let chunk: Uint8Array | undefined = found.rest; chunk;) {
      if (kept < SAMPLE_AFTER) {
        after.push(Uint8Array.from(chunk.subarray(0, SAMPLE_AFTER - kept)));
        kept += Math.min(chunk.length, SAMPLE_AFTER - kept);
      }
      const next = await iterator.next();
      for (const { line, bytes } of lines.lines(chunk, next.done)) census.add(line, bytes);
      chunk = next.done ? undefined : next.value;
    }
    if (census.mixed) {
      const { message, hint } = mixedEncoding(source, census);
      throw new InputError('MIXED_ENCODING', message, hint);
    }
    throw notUtf8(source, found.line, found.offset, Buffer.concat([start, ...after]));
  };
  // Stopped early (an error in the records, a reader that has seen enough): the reads end too, and a
  // file's descriptor is closed then, not at the process's exit.
  try {
    for (;;) {
      const step = await iterator.next();
      if (step.done) break;
      const chunk = step.value;
      if (headBytes < SAMPLE_HEAD) {
        head.push(Uint8Array.from(chunk.subarray(0, SAMPLE_HEAD - headBytes)));
        headBytes += Math.min(chunk.length, SAMPLE_HEAD - headBytes);
      }
      let input: Uint8Array = chunk;
      if (sample && !sample.full) {
        sample.add(chunk);
        if (sample.full) judgeSample();
      }
      if (!decoder) {
        // Collect at least 3 bytes so a BOM split across tiny stdin chunks is still seen.
        input = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        if (input.length < 3) {
          pending = input;
          continue;
        }
        pending = new Uint8Array(0);
        const label = sniffBom(input) ?? encoding ?? 'utf-8';
        decoder = makeDecoder(label);
        if (decoder.encoding.startsWith('utf-16')) lenient = new TextDecoder(decoder.encoding);
      }
      const text = await decodeOrRefuse(() => decode(input, true), refuse);
      newlinesBefore += countNewlines(input) + (endsInCr && input[0] !== 10 ? 1 : 0);
      endsInCr = input[input.length - 1] === 13;
      bytesBefore += input.length;
      if (text) yield text;
    }
    if (!decoder) {
      const label = sniffBom(pending) ?? encoding ?? 'utf-8';
      decoder = makeDecoder(label);
      if (decoder.encoding.startsWith('utf-16')) lenient = new TextDecoder(decoder.encoding);
    }
    const text = await decodeOrRefuse(() => decode(pending, false), refuse);
    if (sample && !sample.full) {
      sample.add(new Uint8Array(0), true);
      judgeSample();
    }
    if (text) yield text;
  } finally {
    // Whatever ending the reads meets is not the run's error: the one that stopped them is.
    await iterator.return?.().catch(() => {});
  }
}

/** How much of the file the code-page ranking reads: its start, and what follows the first bad byte. */
const SAMPLE_HEAD = 64 * 1024;
const SAMPLE_AFTER = 16 * 1024;

/** A byte that is not UTF-8, before the ranking is read: where it is, and the rest of its read. */
class NotUtf8 extends Error {
  constructor(
    readonly line: number,
    readonly offset: number,
    readonly rest: Uint8Array,
  ) {
    super('not UTF-8');
  }
}

async function decodeOrRefuse(decode: () => string, refuse: (found: NotUtf8) => Promise<never>): Promise<string> {
  try {
    return decode();
  } catch (err) {
    if (err instanceof NotUtf8) return refuse(err);
    throw err;
  }
}

function notUtf8(source: string, line: number | undefined, offset: number | undefined, sample: Uint8Array): InputError {
  const where = line === undefined ? source : `${source}:${line}`;
  const at = offset === undefined ? '' : ` (byte ${offset})`;
  // The likeliest code pages, each with the first values as it reads them: the user sees which one
  // shows the names right. Never chosen here.
  const ranked = rankCodePages(sample).slice(0, 3);
  const [best, ...others] = ranked;
  return new InputError(
    'NOT_UTF8',
    `${where}: the file is not UTF-8${at}; it was saved in a single-byte code page, most likely ${describeReading(best!)}, else ${others.map(describeReading).join(' or ')}`,
    `run again with --encoding ${best!.encoding} if those are the names as they should read (else --encoding ${others.map((r) => r.encoding).join(' or ')}, or the code page it was saved in)`,
  ).withFixes(...encodingFixes(ranked));
}

// What a file's bytes say about its encoding, beyond "not UTF-8": the lines that hold bytes beyond
// ASCII, whether they are UTF-8, and how each code page reads them. Used twice: to refuse a file that
// is not UTF-8 (NOT_UTF8, or MIXED_ENCODING when only some lines are not), and to doubt a reading
// under --encoding (SUSPECT_ENCODING). Both stay linear: native scans, and a bounded sample.
import { isAscii, isUtf8 } from 'node:buffer';
import { type Fix } from '../errors.js';
import { issue, type Issue } from '../issues.js';
import { candidateOf, describeReading, rankLines, type Reading } from './code-pages.js';

/** How many lines beyond ASCII the sample keeps (the ranking reads them, never the whole file). */
export const SAMPLE_LINES = 200;
/** Longer lines are sampled in pieces of this size. */
const LONGEST_LINE = 16 * 1024;

const utf8 = new TextDecoder('utf-8');

/**
 * A line that is valid UTF-8 and holds letters beyond ASCII (`Żółć`), not symbols: a legacy line can
 * be valid UTF-8 by chance (`ВІ` in windows-1251 is the bytes of `²`), but then it reads as symbols.
 */
export function readsAsUtf8(line: Uint8Array): boolean {
  return isUtf8(line) && LETTERS_ONLY().test(utf8.decode(line));
}

/** Beyond ASCII, letters, their marks and typographic punctuation only (one native match per line: the whole file may be read). */
// Made on first use, like each `…Made` below: V8 parses a `\p{…}` class when the expression is
// made, milliseconds of every start-up for values few runs hold (docs/performance.md, start-up).
let lettersOnlyMade: RegExp | undefined;
const LETTERS_ONLY = () => (lettersOnlyMade ??= /^(?:[^\u0080-\u{10ffff}]|\p{L}|\p{M}|[\u00a0’‘“”„–—…•·€])*$/u);

/** The lines of a stream of bytes, each with its number; a lone CR ends a line too (old Mac files). */
export class LineSplitter {
  private carry: Uint8Array = new Uint8Array(0);
  private endsInCr = false;
  constructor(private next: number) {}

  /** The complete lines in `chunk` (and what the last chunk left); `end` flushes the last line. */
  *lines(chunk: Uint8Array, end = false): Generator<{ line: number; bytes: Uint8Array }> {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    let start = 0;
    // A CR at the end of the last chunk was a break unless this one starts with LF.
    if (this.endsInCr && bytes[0] === 10) start = 1;
    this.endsInCr = false;
    // Native searches for the next LF and CR, each redone only when passed (a file without CRs costs one).
    let nextLf = bytes.indexOf(10, start);
    let nextCr = bytes.indexOf(13, start);
    for (;;) {
      const i = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (i === -1) break;
      yield { line: this.next++, bytes: bytes.subarray(start, i) };
      start = i + 1;
      if (bytes[i] === 13) {
        if (i + 1 === bytes.length) this.endsInCr = true;
        else if (bytes[i + 1] === 10) start = i + 2;
      }
      if (nextLf !== -1 && nextLf < start) nextLf = bytes.indexOf(10, start);
      if (nextCr !== -1 && nextCr < start) nextCr = bytes.indexOf(13, start);
    }
    this.carry = Uint8Array.from(bytes.subarray(start));
    if (end && this.carry.length) yield { line: this.next++, bytes: this.carry };
  }
}

/** The bytes of every line that is not UTF-8, and how many lines beyond ASCII are. */
export class Utf8Census {
  utf8Lines = 0;
  readonly bad: { line: number; bytes: Uint8Array }[] = [];
  badCount = 0;

  add(line: number, bytes: Uint8Array): void {
    if (isAscii(bytes)) return;
    if (isUtf8(bytes)) {
      if (readsAsUtf8(bytes)) this.utf8Lines++;
      return;
    }
    this.badCount++;
    if (this.bad.length < SAMPLE_LINES) this.bad.push({ line, bytes: Uint8Array.from(bytes) });
  }

  /**
   * UTF-8 but for some lines: more lines read as UTF-8 letters than are not UTF-8. Then the fix is
   * those lines; decoding the whole file in a code page would garble every other name.
   */
  get mixed(): boolean {
    return this.utf8Lines > 0 && this.utf8Lines >= this.badCount;
  }
}

/** `lines 4, 17 and 2 more`, for messages. */
function lineList(lines: readonly number[], total: number): string {
  const shown = lines.slice(0, 10);
  const more = total - shown.length;
  return `${total === 1 ? 'line' : 'lines'} ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The refusal of a file that is UTF-8 but for some lines: those lines, and how the likeliest page reads them. */
export function mixedEncoding(source: string, census: Utf8Census): { message: string; hint: string } {
  const [best] = rankLines(census.bad.map((b) => b.bytes));
  const reading = best && best.preview.length ? `; ${census.badCount === 1 ? 'it reads' : 'they read'} like ${describeReading(best)}` : '';
  return {
    message: `${source}: the file is UTF-8 (${census.utf8Lines} ${census.utf8Lines === 1 ? 'line' : 'lines'} with letters beyond ASCII read as UTF-8) except ${lineList(
      census.bad.map((b) => b.line),
      census.badCount,
    )}, which ${census.badCount === 1 ? 'was' : 'were'} saved in another encoding${reading}`,
    hint: 'correct those lines (type the text again, or copy it from a UTF-8 source) and run again; no --encoding reads this file: each would garble the lines that are UTF-8',
  };
}

/** The fixes a NOT_UTF8 refusal offers: one `--encoding` per code page it names, in rank order. */
export function encodingFixes(readings: readonly Reading[]): Fix[] {
  return readings.map((r) => ({ kind: 'flags', args: ['--encoding', r.encoding] }));
}

/**
 * The lines beyond ASCII of a file read under --encoding, kept until the sample is full: the first
 * SAMPLE_LINES such lines, wherever they are (a file's first chunk may hold none). It runs on every
 * decoded file, so a chunk of ASCII costs one native check; a line cut by a chunk's end is kept from
 * that chunk on (its ASCII start reads alike in every page).
 */
export class ReadingSample {
  readonly lines: Uint8Array[] = [];
  /** The line a chunk ended in, when it holds bytes beyond ASCII (copied: reads reuse buffers). */
  private open: Uint8Array[] = [];
  private openBytes = 0;
  get full(): boolean {
    return this.lines.length >= SAMPLE_LINES;
  }
  add(chunk: Uint8Array, end = false): void {
    if (this.full) return;
    if (this.open.length === 0 && isAscii(chunk)) return;
    let nextLf = chunk.indexOf(10);
    let nextCr = chunk.indexOf(13);
    let start = 0;
    while (!this.full) {
      const stop = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (stop === -1) break;
      this.close(chunk.subarray(start, stop));
      start = stop + 1;
      if (stop === nextLf) nextLf = chunk.indexOf(10, start);
      if (stop === nextCr) nextCr = chunk.indexOf(13, start);
    }
    const rest = chunk.subarray(start);
    if (!this.full && (this.open.length > 0 || !isAscii(rest))) {
      this.open.push(Uint8Array.from(rest.subarray(0, LONGEST_LINE)));
      this.openBytes += Math.min(rest.length, LONGEST_LINE);
      // A file on one line (minified JSON) is sampled a piece at a time, never held whole.
      if (this.openBytes >= LONGEST_LINE) this.close(new Uint8Array(0));
    }
    if (end) this.close(new Uint8Array(0));
  }
  private close(piece: Uint8Array): void {
    const line = this.open.length ? Buffer.concat([...this.open, piece]) : piece;
    this.open = [];
    this.openBytes = 0;
    if (!isAscii(line)) this.lines.push(Uint8Array.from(line));
  }
}

/**
 * How much better another reading must score to call the chosen one suspect: on the corpus the right
 * page never scores below the best (0 of 635), and 20 of 5,855 wrong readings come within 2.
 */
const CLEARLY_BETTER = 2;

/**
 * SUSPECT_ENCODING: --encoding names a single-byte code page, but the sample is UTF-8 (`Ã©` for `é`,
 * `Ĺ‚` for `ł`), or another code page reads it clearly better (`Eglë Stankevièiûtë` in windows-1252 is
 * `Eglė Stankevičiūtė` in windows-1257). A warning: recorded-names.ts makes it an error where the
 * reading would change names already recorded. The fix is the better encoding, as a flag.
 */
export function suspectReading(sample: readonly Uint8Array[], label: string): Issue | undefined {
  const chosen = candidateOf(label);
  if (chosen === undefined || sample.length === 0) return undefined;
  const readings = rankLines(sample);
  const mine = readings.find((r) => r.encoding === chosen)!;
  const asUtf8 = sample.filter(readsAsUtf8).length;
  if (asUtf8 > 0 && asUtf8 >= sample.length - asUtf8) {
    return issue(
      'warning',
      'SUSPECT_ENCODING',
      `the text read with --encoding ${label} is UTF-8 (${asUtf8} of ${sample.length} lines with bytes beyond ASCII are UTF-8 letters; ${describeReading(mine)} shows them mis-decoded): run again with --encoding utf-8 (or without --encoding)`,
      { line: null, value: label, fixes: [{ kind: 'flags', args: ['--encoding', 'utf-8'] }] },
    );
  }
  const best = readings[0]!;
  if (best.score - mine.score <= CLEARLY_BETTER) return undefined;
  return issue(
    'warning',
    'SUSPECT_ENCODING',
    `the text read with --encoding ${label} looks mis-decoded: ${describeReading(mine)}; ${describeReading(best)} reads it as words of one language: check which shows the names right, and run again with --encoding ${best.encoding} if it is that one`,
    { line: null, value: label, fixes: [{ kind: 'flags', args: ['--encoding', best.encoding] }] },
  );
}

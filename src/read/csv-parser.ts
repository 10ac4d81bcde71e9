// Our RFC 4180 parser: decoded text chunks in, whole records out, each with the physical line it
// starts on. It replaces csv-parse in the hot path (csv-parse works byte by byte on Buffers and was
// alone most of a dry run's budget); csv-parse stays as the oracle of a differential property test
// (test/unit/csv.differential.test.ts) and as the benchmark's floor.
//
// The dialect is the one the reader always configured csv-parse with: one delimiter character,
// records ended by CRLF, LF or CR (mixed freely), a field wrapped in quotes may hold the delimiter,
// line breaks and doubled quotes (""); a quote inside an unquoted field, or anything but a delimiter
// or a line break after a closing quote, is an error; rows may have any number of cells; a blank line
// is a record of one empty cell; a record whose cells hold more than `maxChars` characters is an error.

export interface ParsedRecord {
  readonly line: number;
  /** The parser's `columns` when the record was cut: the reader's record is this very object (read/types.ts). */
  readonly columns: readonly string[];
  readonly cells: string[];
  /** No cell holds a character that NFC could change or that may show nothing, nor a control (see NOT_PLAIN). */
  readonly plain: boolean;
}

/**
 * What makes a record not plain: a control character (C0 or C1, NUL included), a soft hyphen, or any
 * character from U+0300 up (combining marks, where NFC starts to matter; the invisible format
 * characters; surrogates). Every character below U+0300 is its own NFC. Found with one native search
 * per chunk, not one test per cell, so the validator can skip normalising and its character checks for
 * the plain records, most of a real file. Line breaks end records, so they are not searched for: a
 * record with one inside a quoted cell is not plain (`breaks`). Nor is the tab, when it is the
 * delimiter: a quoted cell holding one makes its record not plain.
 */
// eslint-disable-next-line no-control-regex -- finding controls is the point
const NOT_PLAIN = /[\u0300-\uffff\u00ad\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex -- the same, with the tab
const NOT_PLAIN_OR_TAB = /[\u0300-\uffff\u00ad\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\t]/g;

/** Where the next character that is not plain is, at or after `from` (Infinity if none). */
function nextNotPlain(pattern: RegExp, s: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(s)?.index ?? Infinity;
}

const TAB = 9;

/** Where `what` is next in `s`, at or after `from`; Infinity if nowhere. */
function nextOf(s: string, what: string, from: number): number {
  const at = s.indexOf(what, from);
  return at === -1 ? Infinity : at;
}

/** Why the text cannot be read, at the line where the offending record starts. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly reason: 'quote' | 'too-large',
    readonly line: number,
  ) {
    super(`${reason} at line ${line}`);
  }
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Line breaks in s[from, to): CRLF, LF and a lone CR each count once. */
function lineBreaks(s: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c === LF || (c === CR && s.charCodeAt(k + 1) !== LF)) n++;
  }
  return n;
}

function cellChars(cells: readonly string[]): number {
  let n = 0;
  for (let k = 0; k < cells.length; k++) n += cells[k]!.length;
  return n;
}

const NO_COLUMNS: readonly string[] = [];

export class CsvParser {
  /**
   * The header's names, set by the reader once it has read them: each record carries them, so the
   * reader hands on the parser's object rather than making a second one per record.
   */
  columns: readonly string[] = NO_COLUMNS;
  private readonly d: number;
  private readonly delimiter: string;
  private readonly notPlain: RegExp;
  /** Text of the record not finished by the last chunk, and chunks held back behind it. */
  private rest = '';
  private held: string[] = [];
  private heldChars = 0;
  /** Line of the next record. */
  private line = 1;
  /** An error met after records that come before it: those are handed out first. */
  private failed: CsvSyntaxError | undefined;

  constructor(
    delimiter: string,
    private readonly maxChars: number,
  ) {
    this.d = delimiter.charCodeAt(0);
    this.delimiter = delimiter;
    this.notPlain = this.d === TAB ? NOT_PLAIN : NOT_PLAIN_OR_TAB;
  }

  /** The records that `chunk` completes. */
  push(chunk: string): ParsedRecord[] {
    if (this.failed) throw this.failed;
    // A long unfinished record is parsed again from its start with each chunk; holding small chunks
    // back until they at least double it keeps a record fed in tiny pieces linear, not quadratic.
    if (this.rest.length > 4096 && this.heldChars + chunk.length < this.rest.length) {
      this.held.push(chunk);
      this.heldChars += chunk.length;
      return [];
    }
    // The unfinished record and the chunk joined are a rope that the first search copies whole into a
    // new string (V8 flattens it): a copy of the file, a chunk at a time. The record is finished first
    // with the chunk's first line, and the chunk is then read as it is, when that line finishes it.
    const lf = this.rest && !this.held.length ? chunk.indexOf('\n') : -1;
    if (lf !== -1 && lf + 1 < chunk.length) {
      const out = this.parse(this.take(chunk.slice(0, lf + 1)), false);
      if (this.failed) return out;
      if (this.rest === '') return this.parse(chunk, false, out, lf + 1);
      // Not finished (its line break was in quotes): the rest of the chunk is joined to it, as before.
      return this.parse(this.take(chunk.slice(lf + 1)), false, out);
    }
    return this.parse(this.take(chunk), false);
  }

  /** The records left at the end of the text. */
  end(): ParsedRecord[] {
    if (this.failed) throw this.failed;
    return this.parse(this.take(''), true);
  }

  private take(chunk: string): string {
    const s = this.held.length ? this.rest + this.held.join('') + chunk : this.rest + chunk;
    this.rest = '';
    this.held = [];
    this.heldChars = 0;
    return s;
  }

  /**
   * The records `s` finishes from `from` on, after `out` (those before it); an error after some records
   * is thrown at the next call.
   */
  private parse(s: string, last: boolean, out: ParsedRecord[] = [], from = 0): ParsedRecord[] {
    try {
      this.scan(s, last, out, from);
    } catch (err) {
      if (!(err instanceof CsvSyntaxError) || out.length === 0) throw err;
      this.failed = err;
    }
    return out;
  }

  private scan(s: string, last: boolean, out: ParsedRecord[], from: number): void {
    const d = this.d;
    const n = s.length;
    const max = this.maxChars;
    let i = from;
    let start: number; // where the record being parsed starts
    let line = this.line;
    const pattern = this.notPlain;
    let notPlain = nextNotPlain(pattern, s, from);
    // Where the next quote, LF, CR and delimiter are (Infinity: none left), each searched for again
    // only once passed: a record with no quote is cut at its delimiters by native searches, not a
    // character at a time (most records of a real file; a third of the parser's time, issue 44).
    const delimiter = this.delimiter;
    let quote = -1;
    let lf = -1;
    let cr = -1;
    let next = -1;
    records: for (;;) {
      start = i;
      if (i >= n) break;
      if (quote < start) quote = nextOf(s, '"', start);
      if (lf < start) lf = nextOf(s, '\n', start);
      if (cr < start) cr = nextOf(s, '\r', start);
      const end = lf < cr ? lf : cr;
      if (end < quote && (end !== cr || end + 1 < n || last)) {
        const cells: string[] = [];
        if (next < i) next = nextOf(s, delimiter, i);
        while (next < end) {
          cells.push(s.slice(i, next));
          i = next + 1;
          next = nextOf(s, delimiter, i);
        }
        cells.push(s.slice(i, end));
        i = end === cr && s.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        if (i - start > max && cellChars(cells) > max) throw new CsvSyntaxError('too-large', line);
        if (notPlain < start) notPlain = nextNotPlain(pattern, s, start);
        out.push({ line, columns: this.columns, cells, plain: notPlain >= i });
        line += 1;
        continue;
      }
      const cells: string[] = [];
      let breaks = 0; // line breaks inside quoted cells of this record
      let tabs = false; // a tab inside a quoted cell, when the tab is the delimiter
      for (;;) {
        if (s.charCodeAt(i) === QUOTE) {
          // A quoted field: up to the quote that is not doubled.
          let value = '';
          let from = i + 1;
          let q: number;
          for (;;) {
            q = s.indexOf('"', from);
            if (q === -1 || (q + 1 === n && !last)) {
              // The text ends inside the field (or on a quote that may be doubled by the next chunk).
              const partial = cellChars(cells) + value.length + (q === -1 ? n : q) - from;
              if (partial > max) throw new CsvSyntaxError('too-large', line);
              if (last) throw new CsvSyntaxError('quote', line);
              break records;
            }
            if (s.charCodeAt(q + 1) !== QUOTE) break;
            value += s.slice(from, q + 1);
            from = q + 2;
          }
          value = value ? value + s.slice(from, q) : s.slice(from, q);
          breaks += lineBreaks(s, i + 1, q);
          if (d === TAB && !tabs) {
            const tab = s.indexOf('\t', i + 1);
            tabs = tab !== -1 && tab < q;
          }
          cells.push(value);
          i = q + 1;
          const c = i < n ? s.charCodeAt(i) : -1;
          if (c === d) {
            i++;
            continue;
          }
          if (c === LF) i++;
          else if (c === CR) {
            if (i + 1 === n && !last) break records; // CR or CRLF: the next chunk tells
            i += s.charCodeAt(i + 1) === LF ? 2 : 1;
          } else if (c !== -1) {
            if (cellChars(cells) > max) throw new CsvSyntaxError('too-large', line);
            throw new CsvSyntaxError('quote', line);
          }
          break;
        }
        // An unquoted field: up to the delimiter or the line break.
        let j = i;
        let c = -1;
        for (; j < n; j++) {
          c = s.charCodeAt(j);
          if (c === d || c === LF || c === CR) break;
          if (c === QUOTE) {
            if (cellChars(cells) + j - i > max) throw new CsvSyntaxError('too-large', line);
            throw new CsvSyntaxError('quote', line);
          }
        }
        if (j === n) {
          if (!last) {
            if (cellChars(cells) + j - i > max) throw new CsvSyntaxError('too-large', line);
            break records;
          }
          cells.push(s.slice(i, j));
          i = j;
          break;
        }
        cells.push(s.slice(i, j));
        i = j + 1;
        if (c === d) continue;
        if (c === CR) {
          if (i === n && !last) break records;
          if (s.charCodeAt(i) === LF) i++;
        }
        break;
      }
      if (i - start > max && cellChars(cells) > max) throw new CsvSyntaxError('too-large', line);
      if (notPlain < start) notPlain = nextNotPlain(pattern, s, start);
      out.push({ line, columns: this.columns, cells, plain: notPlain >= i && breaks === 0 && !tabs });
      line += 1 + breaks;
    }
    // `start` is where the first unfinished record starts (or the end of the text).
    this.line = line;
    this.rest = start < n ? s.slice(start) : '';
  }
}

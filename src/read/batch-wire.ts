// A batch of CSV records as it crosses from the reader's thread (./csv-worker.ts) to the main thread
// (./csv-thread.ts): the cells of all its records as one text, with where each cell ends, and per record
// its line, its number of cells and its plain mark. A message of a few typed arrays and one string is
// copied by V8 at memory speed; the records themselves as objects (a million arrays of strings) cost
// more to clone than to read the file again. The main thread cuts the cells back out of the text.
import type { Fix, UploadError } from '../errors.js';
import type { Issue } from '../issues.js';
import type { RawRecord, ReadInfo } from './types.js';

export interface WireBatch {
  readonly type: 'batch';
  /** Every cell of the batch, one after another. */
  readonly text: string;
  /** Where each cell ends in `text` (each starts where the one before ends). */
  readonly ends: Uint32Array<ArrayBuffer>;
  /** Per record: its number of cells, its line, and its plain mark (1 plain, 0 not, 2 not said). */
  readonly widths: Uint32Array<ArrayBuffer>;
  readonly lines: Uint32Array<ArrayBuffer>;
  readonly plain: Uint8Array<ArrayBuffer>;
  /** The few records that carry more (the last one cut short, a record's own issues), by their place. */
  readonly extras: readonly { readonly at: number; readonly unterminated?: RawRecord['unterminated']; readonly issues?: RawRecord['issues'] }[];
  readonly info: WireInfo;
}

/** What the reader has found out about the file so far (ReadInfo): sent with every message, as it grows. */
export interface WireInfo {
  readonly delimiter: string | null;
  readonly header: readonly string[] | null;
  readonly headerLine: number | null;
  readonly notes: readonly Issue[];
}

/** A reading error, as data: the main thread throws it again as the class it was. */
export interface WireError {
  readonly className: string;
  readonly code?: string;
  readonly message: string;
  readonly hint?: string;
  readonly fixes?: readonly Fix[];
  readonly cause?: { readonly message: string; readonly code?: string };
  readonly stack?: string;
}

export type WireMessage =
  WireBatch | { readonly type: 'end'; readonly info: WireInfo } | { readonly type: 'error'; readonly error: WireError; readonly info: WireInfo };

export function wireInfo(info: ReadInfo): WireInfo {
  return { delimiter: info.delimiter, header: info.header, headerLine: info.headerLine, notes: info.notes ?? [] };
}

/** A batch as a message; every record shares the file's header (CSV), which goes in `info`. */
export function encodeBatch(batch: readonly RawRecord[], info: ReadInfo): WireBatch {
  let count = 0;
  for (const record of batch) count += record.cells.length;
  const parts = new Array<string>(count);
  const ends = new Uint32Array(count);
  const widths = new Uint32Array(batch.length);
  const lines = new Uint32Array(batch.length);
  const plain = new Uint8Array(batch.length);
  const extras: WireBatch['extras'][number][] = [];
  let cell = 0;
  let at = 0;
  for (let r = 0; r < batch.length; r++) {
    const record = batch[r]!;
    if (record.columns !== info.header) throw new Error('a CSV record without the header of its file');
    const { cells } = record;
    for (let k = 0; k < cells.length; k++) {
      const text = cells[k];
      if (typeof text !== 'string') throw new Error('a CSV cell that is not text');
      parts[cell] = text;
      at += text.length;
      ends[cell++] = at;
    }
    widths[r] = cells.length;
    lines[r] = record.line;
    plain[r] = record.plain === undefined ? 2 : record.plain ? 1 : 0;
    if (record.unterminated !== undefined || record.issues !== undefined) extras.push({ at: r, unterminated: record.unterminated, issues: record.issues });
  }
  return { type: 'batch', text: parts.join(''), ends, widths, lines, plain, extras, info: wireInfo(info) };
}

/** The records of a batch, each with `columns` (the file's header, one array for all, as read in one thread). */
export function decodeBatch(wire: WireBatch, columns: readonly string[]): RawRecord[] {
  const { text, ends, widths, lines, plain } = wire;
  const out: RawRecord[] = [];
  let cell = 0;
  let at = 0;
  for (let r = 0; r < lines.length; r++) {
    const cells: string[] = [];
    for (let k = widths[r]!; k > 0; k--) {
      const end = ends[cell++]!;
      cells.push(text.slice(at, end));
      at = end;
    }
    const mark = plain[r]!;
    out.push(mark === 2 ? { line: lines[r]!, columns, cells } : { line: lines[r]!, columns, cells, plain: mark === 1 });
  }
  for (const { at: r, unterminated, issues } of wire.extras) {
    out[r] = { ...out[r]!, ...(unterminated === undefined ? {} : { unterminated }), ...(issues === undefined ? {} : { issues }) };
  }
  return out;
}

/** An error of the reader's thread, as data. */
export function wireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { className: 'Error', message: String(err) };
  const upload = err as Partial<UploadError>;
  const cause = err.cause instanceof Error ? { message: err.cause.message, code: (err.cause as NodeJS.ErrnoException).code } : undefined;
  return {
    className: err.name,
    message: err.message,
    ...(typeof upload.code === 'string' ? { code: upload.code } : {}),
    ...(typeof upload.hint === 'string' ? { hint: upload.hint } : {}),
    ...(upload.fixes?.length ? { fixes: upload.fixes } : {}),
    ...(cause ? { cause } : {}),
    ...(err.stack ? { stack: err.stack } : {}),
  };
}

// A workbook (.xlsx, .ods) is a zip, and a zip may lie: its directory can declare size 0 for an entry
// that inflates to gigabytes. So nothing the directory declares is trusted: every entry is inflated
// here, in chunks and off the main thread (zlib runs in libuv's pool), and the real bytes, cells and
// shared strings are counted as they come out. The count stops the moment a limit is passed, so a
// bomb costs a limit's worth of inflating (about a second), never its full size in memory.
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

export interface ZipCounts {
  /** Uncompressed bytes of every entry. */
  bytes: number;
  /** Cells in the worksheets (`<c>` of xlsx, `<table:table-cell>` of ods), empty ones included. */
  cells: number;
  /** Entries of the shared-string table (xlsx). */
  strings: number;
}

export type ZipScan = { readonly counts: ZipCounts; readonly over?: keyof ZipCounts } | { readonly unreadable: string };

/**
 * Reads an entry's text as it is inflated: called with the text so far carried over plus the new
 * chunk, and `end`, before which a tag must start to be taken (a later one may be cut off and comes
 * again, whole, with the next chunk). Tags longer than the carry (4 KiB) are not seen.
 */
export type EntryReader = (text: string, end: number) => void;

interface Entry {
  readonly name: string;
  readonly method: number;
  readonly data: Uint8Array;
}

const CELL = /<(?:[A-Za-z]\w*:)?c[\s>/]|<table:table-cell[\s>/]/g;
const STRING = /<(?:[A-Za-z]\w*:)?si[\s>/]/g;
/** Long enough to hold any tag read here whole when a chunk ends inside it. */
const CARRY = 4096;

/** The entries of a zip as its central directory lists them, with their compressed bytes. */
function entries(bytes: Uint8Array): Entry[] | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 bytes plus up to 64 KiB of comment.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) return 'no zip directory at its end';
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const list: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return 'a damaged zip directory';
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const local = view.getUint32(at + 42, true);
    const name = Buffer.from(bytes.subarray(at + 46, at + 46 + nameLength)).toString('utf8');
    // ZIP64 sizes: no honest office file under the 50 MiB input limit needs them.
    if (size === 0xffffffff || local === 0xffffffff) return `zip64 entry '${name}'`;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) return `a damaged entry '${name}'`;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.length) return `entry '${name}' runs past the end of the file`;
    list.push({ name, method, data: bytes.subarray(start, start + size) });
    at += 46 + nameLength + extraLength + view.getUint16(at + 32, true);
  }
  return list;
}

/** What an entry's text is counted for: worksheets hold cells, the shared-string table strings. */
function counter(name: string): RegExp | undefined {
  if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name) || name === 'content.xml') return CELL;
  if (/^xl\/sharedStrings\.xml$/i.test(name)) return STRING;
  return undefined;
}

/** Matches that start before `end` (a match starting later may be cut off: it is counted next time). */
function occurrences(pattern: RegExp, text: string, end = text.length): number {
  pattern.lastIndex = 0;
  let n = 0;
  for (let m = pattern.exec(text); m !== null && m.index < end; m = pattern.exec(text)) n++;
  return n;
}

/**
 * Inflates every entry and counts what it really holds, stopping at the first limit passed. A signal
 * (Ctrl-C) ends it between chunks with the signal's reason.
 */
export async function scanZip(
  bytes: Uint8Array,
  limits: Readonly<ZipCounts>,
  signal?: AbortSignal,
  readerFor: (name: string) => EntryReader | undefined = () => undefined,
): Promise<ZipScan> {
  const list = entries(bytes);
  if (typeof list === 'string') return { unreadable: list };
  const counts: ZipCounts = { bytes: 0, cells: 0, strings: 0 };
  const over = (): keyof ZipCounts | undefined => (['bytes', 'cells', 'strings'] as const).find((k) => counts[k] > limits[k]);
  for (const entry of list) {
    signal?.throwIfAborted();
    const pattern = counter(entry.name);
    const reader = readerFor(entry.name);
    const see = (text: string, end: number) => {
      if (pattern) count(pattern, text, counts, end);
      reader?.(text, end);
    };
    if (entry.method === 0) {
      counts.bytes += entry.data.length;
      const text = Buffer.from(entry.data).toString('latin1');
      see(text, text.length);
      const passed = over();
      if (passed) return { counts, over: passed };
      continue;
    }
    if (entry.method !== 8) return { unreadable: `entry '${entry.name}' uses compression method ${entry.method}` };
    let tail = '';
    try {
      for await (const chunk of Readable.from([entry.data]).pipe(createInflateRaw({ chunkSize: 256 * 1024 }))) {
        const out = chunk as Buffer;
        counts.bytes += out.length;
        if (pattern || reader) {
          // A tag split across two chunks is seen once, whole: it starts in the carried tail.
          const text = tail + out.toString('latin1');
          const end = Math.max(0, text.length - CARRY);
          see(text, end);
          tail = text.slice(end);
        }
        const passed = over();
        if (passed) return { counts, over: passed };
        signal?.throwIfAborted();
      }
    } catch (err) {
      signal?.throwIfAborted();
      return { unreadable: `entry '${entry.name}' does not inflate (${(err as Error).message})` };
    }
    see(tail, tail.length);
    const passed = over();
    if (passed) return { counts, over: passed };
  }
  return { counts };
}

function count(pattern: RegExp, text: string, counts: ZipCounts, end = text.length): void {
  if (pattern === STRING) counts.strings += occurrences(pattern, text, end);
  else counts.cells += occurrences(pattern, text, end);
}

// A large CSV file is read on a second thread (./csv-worker.ts): decoding its bytes and cutting its
// records, a fifth of a 1M-row dry run, then run beside the checks of the records before them, on the
// machine's other core, instead of before them (docs/performance.md, "The reader's thread"). The worker
// reads the file with the very functions the main thread would (./csv.ts, ./decode.ts), so the records,
// their batches, what is learnt of the file and the errors are the same; only where the work is done
// differs. A batch crosses as one text and a few typed arrays (./batch-wire.ts).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InputError, UsageError } from '../errors.js';
import { decodeBatch, type WireError, type WireInfo, type WireMessage } from './batch-wire.js';
import { isWorkbook } from './file-bytes.js';
import type { RawRecord, ReadInfo, ReadOptions } from './types.js';
// The type only: the module loads on first use (process.getBuiltinModule), never with the reader.
import type { Worker } from 'node:worker_threads';

/**
 * From this size a CSV file is read on the thread. Starting it costs a run about 30 ms and saves about
 * 0.7 s of the main thread's time per million rows (70 MB): below a few MB it would not pay.
 */
export const THREAD_FROM_BYTES = 8 * 1024 * 1024;

/** How many batches the reader may be ahead of the checks: the file is not held in memory as text. */
const AHEAD = 4;
const WORKER_YOUNG_MB = 8;

/** The single executable carries the worker bundled as source (scripts/bundle.mjs defines it). */
declare const __CSV_WORKER__: string | undefined;

/**
 * Where the worker's code is: beside this module, built (dist/read/ as compiled, or the program's
 * bundle, scripts/bundle-program.mjs); in the single executable, its source. Under the tests' type
 * stripping (.ts) the worker could not import its modules: the file is read on the main thread there.
 */
function workerCode(): { spec: string | URL; eval: boolean } | undefined {
  if (typeof __CSV_WORKER__ === 'string') return { spec: __CSV_WORKER__, eval: true };
  const here = import.meta.url;
  return here.endsWith('.ts') ? undefined : { spec: new URL('./csv-worker.js', here), eval: false };
}

/**
 * Whether `path` is read on the thread: a regular file of THREAD_FROM_BYTES or more, to be read as CSV,
 * when the worker is at hand. `sniffing`: the format comes from the bytes (no --format), so a workbook
 * named .csv is left to the main thread, which reads it as one.
 */
export function onThread(path: string, sniffing: boolean, from = THREAD_FROM_BYTES): boolean {
  if (path === '-' || workerCode() === undefined) return false;
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size < from) return false;
    return !sniffing || !isWorkbook(head(path));
  } catch {
    // Whatever the matter is, the main thread's reading says it as it always has.
    return false;
  }
}

function head(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const bytes = new Uint8Array(4);
    return bytes.subarray(0, readSync(fd, bytes, 0, 4, 0));
  } finally {
    closeSync(fd);
  }
}

/** The records of a CSV file read on the thread, in the batches the main thread would have read. */
export async function* readOnThread(path: string, options: ReadOptions, info: ReadInfo): AsyncGenerator<readonly RawRecord[]> {
  const code = workerCode()!;
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  // Batches taken by the main thread: the worker waits while it is AHEAD batches in front.
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const { signal, ...plain } = options;
  signal?.throwIfAborted();
  const worker = new Worker(code.spec, {
    eval: code.eval,
    workerData: { path, options: plain, taken, ahead: AHEAD },
    // It holds a few batches at once: a small young generation keeps the process's memory down.
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    stdout: true,
    stderr: true,
  });
  // Nothing of ours prints there; an unread pipe must not fill up.
  worker.stdout.resume();
  worker.stderr.resume();
  const messages = inbox(worker, signal);
  // As on the main thread, where decoding is handed the list to add its notes to before it starts.
  info.notes ??= [];
  let columns: readonly string[] | undefined;
  const learnt = (wire: WireInfo) => {
    info.delimiter = wire.delimiter;
    info.headerLine = wire.headerLine;
    if (wire.header && !columns) columns = wire.header;
    info.header = columns ?? null;
    // As the main thread's reading, the notes are a list from the start.
    info.notes = [...wire.notes];
  };
  try {
    for (;;) {
      const message = await messages.next();
      learnt(message.info);
      if (message.type === 'error') throw rebuilt(message.error);
      if (message.type === 'end') return;
      const batch = decodeBatch(message, columns!);
      Atomics.add(taken, 0, 1);
      Atomics.notify(taken, 0);
      yield batch;
    }
  } finally {
    messages.stop();
    void worker.terminate();
  }
}

/** The worker's messages one at a time; a crash or an early exit is an error, a signal rejects with its reason. */
function inbox(worker: Worker, signal: AbortSignal | undefined) {
  const waiting: { resolve(m: WireMessage): void; reject(e: unknown): void }[] = [];
  const queued: WireMessage[] = [];
  let failed: Error | undefined;
  const fail = (err: Error) => {
    failed ??= err;
    while (waiting.length) waiting.shift()!.reject(failed);
  };
  const onAbort = () => {
    void worker.terminate();
    fail(signal!.reason as Error);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  worker.on('message', (m: WireMessage) => {
    const w = waiting.shift();
    if (w) w.resolve(m);
    else queued.push(m);
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error("the CSV reader's thread stopped before the end of the file")));
  return {
    next(): Promise<WireMessage> {
      const m = queued.shift();
      if (m) return Promise.resolve(m);
      if (failed !== undefined) return Promise.reject(failed);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    stop() {
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** A reading error of the thread, thrown again here as the class it was. */
function rebuilt(e: WireError): Error {
  const cause = e.cause ? Object.assign(new Error(e.cause.message), e.cause.code === undefined ? {} : { code: e.cause.code }) : undefined;
  const options = cause ? { cause } : undefined;
  if ((e.className === 'InputError' || e.className === 'UsageError') && e.code !== undefined) {
    const Class = e.className === 'InputError' ? InputError : UsageError;
    return new Class(e.code as never, e.message, e.hint, options).withFixes(...(e.fixes ?? []));
  }
  const err = new Error(e.message, options);
  if (e.stack) err.stack = e.stack;
  return err;
}

// The main thread's side of ./xlsx-worker.ts: start it with the workbook's bytes, ask for the sheets,
// then for one sheet's cells. A signal (Ctrl-C, SIGTERM) ends the worker at once, mid-parse; a
// workbook that would need more memory than the worker may have ends it too, as "too large".
import { Worker } from 'node:worker_threads';
import type { SheetCells, SheetFacts, WorkerAnswer, WorkerQuestion } from './xlsx-worker.js';

export type { SheetCells, SheetFacts } from './xlsx-worker.js';

/** The worker's heap: with the main thread's own, a workbook read stays under 1 GB. */
export const WORKER_HEAP_MB = 384;

export type WorkerFailure = { readonly failure: 'unreadable'; readonly message: string } | { readonly failure: 'too-large' };

export interface WorkbookSession {
  readonly sheets: readonly SheetFacts[];
  cells(sheet: number): Promise<SheetCells | WorkerFailure>;
  close(): void;
}

/** The single executable carries the worker bundled as source (scripts/build-exe.mjs defines it). */
declare const __XLSX_WORKER__: string | undefined;

/**
 * Where the worker's code is. Built, this module is .js next to the worker's .js; under the tests both
 * are .ts (type stripping); in the single executable there are no files, only the bundled source.
 * Worked out on first use: a CSV run never needs it.
 */
function workerCode(): { spec: string | URL; eval: boolean } {
  if (typeof __XLSX_WORKER__ === 'string') return { spec: __XLSX_WORKER__, eval: true };
  const here = import.meta.url;
  return { spec: new URL(here.endsWith('.ts') ? './xlsx-worker.ts' : './xlsx-worker.js', here), eval: false };
}

/** `styles`: have SheetJS report hidden rows and columns itself (slow for xlsx; see the worker). */
export async function openWorkbook(bytes: Uint8Array, styles: boolean, signal?: AbortSignal): Promise<WorkbookSession | WorkerFailure> {
  signal?.throwIfAborted();
  // A copy of its own, so handing it over cannot detach memory that other Buffers share.
  const own = new Uint8Array(bytes);
  const code = workerCode();
  const worker = new Worker(code.spec, {
    eval: code.eval,
    workerData: { bytes: own, styles },
    transferList: [own.buffer],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    stdout: true,
    stderr: true,
  });
  // SheetJS may print warnings; they are not for the user, and an unread pipe must not fill up.
  worker.stdout.resume();
  worker.stderr.resume();
  const answers = answersOf(worker, signal);
  const close = () => {
    answers.stop();
    void worker.terminate();
  };
  const first = await answers.next().catch((err: unknown) => {
    close();
    throw err;
  });
  if ('failure' in first || first.type !== 'book') {
    close();
    return 'failure' in first ? first : { failure: 'unreadable', message: first.type === 'unreadable' ? first.message : 'no sheet list' };
  }
  return {
    sheets: first.sheets,
    async cells(sheet) {
      worker.postMessage({ sheet } satisfies WorkerQuestion);
      const rows: SheetCells['rows'] = [];
      for (;;) {
        const answer = await answers.next();
        if ('failure' in answer) return answer;
        if (answer.type === 'rows') {
          for (const row of answer.rows) rows.push(row);
          continue;
        }
        if (answer.type === 'sheet') return { ...answer.cells, rows: [...rows, ...answer.cells.rows] };
        return { failure: 'unreadable', message: answer.type === 'unreadable' ? answer.message : 'no cells' };
      }
    },
    close,
  };
}

/** The worker's answers one at a time; a crash or exit is a failure, a signal rejects with its reason. */
function answersOf(worker: Worker, signal: AbortSignal | undefined) {
  const waiting: { resolve(a: WorkerAnswer | WorkerFailure): void; reject(e: unknown): void }[] = [];
  const queued: (WorkerAnswer | WorkerFailure)[] = [];
  let ended: WorkerFailure | undefined;
  let aborted: Error | undefined;
  const deliver = (a: WorkerAnswer | WorkerFailure) => {
    const w = waiting.shift();
    if (w) w.resolve(a);
    else queued.push(a);
  };
  const end = (failure: WorkerFailure) => {
    ended ??= failure;
    while (waiting.length) waiting.shift()!.resolve(ended);
  };
  const onAbort = () => {
    aborted = signal!.reason as Error;
    void worker.terminate();
    while (waiting.length) waiting.shift()!.reject(aborted);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  worker.on('message', deliver);
  worker.on('error', (err: NodeJS.ErrnoException) =>
    end(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { failure: 'too-large' } : { failure: 'unreadable', message: err.message }),
  );
  worker.on('exit', () => end({ failure: 'unreadable', message: 'the reader stopped' }));
  return {
    next(): Promise<WorkerAnswer | WorkerFailure> {
      if (aborted !== undefined) return Promise.reject(aborted);
      const a = queued.shift() ?? ended;
      if (a) return Promise.resolve(a);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    stop() {
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

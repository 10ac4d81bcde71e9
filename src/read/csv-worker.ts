// The CSV reader's thread (see ./csv-thread.ts): reads a large file exactly as the main thread would —
// its bytes, decoded, cut into records — and posts each batch as it is read (./batch-wire.ts), at most
// a few batches ahead of the main thread. Then the end, with what was learnt of the file, or the error.
import { parentPort, workerData } from 'node:worker_threads';
import { encodeBatch, wireError, wireInfo, type WireMessage } from './batch-wire.js';
import { csvRecords } from './csv.js';
import { fileBytes, textBytes } from './file-bytes.js';
import type { ReadInfo, ReadOptions } from './types.js';

const { path, options, taken, ahead } = workerData as { path: string; options: ReadOptions; taken: Int32Array; ahead: number };

const post = (message: WireMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);
const noStdin = (): never => {
  throw new Error("the CSV reader's thread reads files only");
};

const info: ReadInfo = { format: 'csv', delimiter: null, header: null, headerLine: null };

async function read(): Promise<void> {
  let sent = 0;
  try {
    for await (const batch of csvRecords(textBytes(fileBytes(path, noStdin, undefined), options.source, 'csv'), options, info)) {
      // The main thread takes them as it checks them: wait while `ahead` batches are not yet taken.
      for (let seen = Atomics.load(taken, 0); sent - seen >= ahead; seen = Atomics.load(taken, 0)) Atomics.wait(taken, 0, seen, 100);
      const wire = encodeBatch(batch, info);
      post(wire, [wire.ends.buffer, wire.widths.buffer, wire.lines.buffer, wire.plain.buffer]);
      sent++;
    }
    post({ type: 'end', info: wireInfo(info) });
  } catch (err) {
    post({ type: 'error', error: wireError(err), info: wireInfo(info) });
  }
}

// Not a top-level await: the single executable runs this file as CommonJS.
void read();

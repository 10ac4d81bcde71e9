// The export as a command: which recorded set (the latest, or --generation N while its snapshot is
// kept), read from the state store, written as a file or to standard output. It only reads the store.
import { KINDS, type Kind } from '../contract/kinds.js';
import { decodeCanonical } from '../diff/snapshot.js';
import { UsageError } from '../errors.js';
import { nothingRecorded } from '../pipeline/nothing-recorded.js';
import { normaliseBaseUrl } from '../state/paths.js';
import type { Generation, StateKey, StateStore } from '../state/types.js';
import { exportChunks, type ExportFormat } from './index.js';
import { writeExport } from './file.js';

export interface ExportOptions {
  readonly kind: Kind;
  readonly baseUrl: URL;
  readonly generation: number | undefined;
  readonly format: ExportFormat;
  /** The file to write; undefined: standard output (CSV or JSON). */
  readonly output: string | undefined;
}

export interface Exported {
  readonly generation: Generation;
  readonly records: number;
  readonly format: ExportFormat;
  /** The file's mode, when a file was written. */
  readonly mode: number | null;
  readonly store: string;
  readonly baseUrl: string;
}

/** Writes the export from a store its caller opened (and closes). */
export async function runExport(options: ExportOptions, store: StateStore, stdout: NodeJS.WritableStream): Promise<Exported> {
  const key: StateKey = { baseUrl: normaliseBaseUrl(options.baseUrl), kind: options.kind };
  const generation = await pick(store, key, options.generation);
  const body = await store.readSnapshot(key, generation.generation);
  const records = decodeCanonical(body, KINDS[options.kind].keyField);
  if (!records)
    throw new UsageError(
      'BAD_GENERATION',
      `upload #${generation.generation} in ${store.label} is not a body this tool wrote`,
      'pick another with --generation N',
    );
  const chunks = await exportChunks(options.kind, records.values(), options.format, options.output !== undefined);
  let mode: number | null = null;
  if (options.output !== undefined) mode = await writeExport(options.output, chunks);
  else {
    // Every cell is made before the first is written: a record with no exact cell stops the export
    // with nothing on standard output rather than half a file.
    const all = [...chunks];
    for (const chunk of all) stdout.write(chunk);
  }
  return { generation, records: records.size, format: options.format, mode, store: store.label, baseUrl: key.baseUrl };
}

/** The latest upload, or --generation N while its snapshot is still kept. */
async function pick(store: StateStore, key: StateKey, wanted: number | undefined): Promise<Generation> {
  const head = await store.head(key);
  if (!head) throw nothingRecorded(key.kind, { baseUrl: key.baseUrl, store: store.label }, 'to export');
  if (wanted === undefined || wanted === head.generation) return head;
  const kept = (await store.generations(key)).filter((g) => g.kept);
  const target = kept.find((g) => g.generation === wanted);
  if (!target)
    throw new UsageError(
      'BAD_GENERATION',
      `upload #${wanted} is not among the snapshots kept in ${store.label} (${kept.map((g) => `#${g.generation}`).join(', ') || 'none'})`,
      'pick one of them with --generation N; --keep N keeps more in future',
    );
  return target;
}

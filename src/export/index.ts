// `upload export`: a recorded set as a file the tool reads back to the identical records — CSV or a
// workbook in the template's layout (./layout.ts), or the wire JSON itself — or store cards' hours in
// the standards the listings use: OpenStreetMap's opening_hours, schema.org JSON-LD, Google Business
// Profile's bulk sheet (./osm.ts, ./schema-org.ts, ./gbp.ts).
import { extname } from 'node:path';
import type { Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { csvChunks } from './csv.js';
import { jsonChunks } from './json.js';
import { tableOf } from './layout.js';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'json', 'osm', 'schema-org', 'gbp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The formats that write opening hours, which only store cards have. */
export const HOURS_FORMATS: ReadonlySet<ExportFormat> = new Set(['osm', 'schema-org', 'gbp']);

/** Extensions that promise a format this export does not write: a CSV under them would mislead. */
const OTHER_FORMATS = new Set(['.xls', '.xlsm', '.xlsb', '.ods', '.ndjson', '.jsonl', '.tsv']);

/** --format, else what --output's extension says, else CSV. */
export function exportFormat(format: string | undefined, output: string | undefined): ExportFormat {
  if (format !== undefined) {
    if ((EXPORT_FORMATS as readonly string[]).includes(format)) return format as ExportFormat;
    throw new UsageError('BAD_FLAG', `--format '${format}' is not an export format`, 'use --format csv, xlsx, json, osm, schema-org or gbp');
  }
  const ext = output === undefined ? '' : extname(output).toLowerCase();
  if (ext === '.xlsx') return 'xlsx';
  if (ext === '.json') return 'json';
  if (OTHER_FORMATS.has(ext))
    throw new UsageError(
      'BAD_FLAG',
      `--output ${output}: the export writes CSV, xlsx or JSON, and '${ext}' promises none of them`,
      'name the file .csv, .xlsx or .json, or say which with --format',
    );
  return 'csv';
}

/** The file's bytes in pieces. `toFile`: a CSV gets the byte-order mark Excel needs to read UTF-8. */
export async function exportChunks(kind: Kind, records: Iterable<string>, format: ExportFormat, toFile: boolean): Promise<Iterable<string | Uint8Array>> {
  if (format === 'json') return jsonChunks(records);
  if (format === 'schema-org') return jsonChunks((await import('./schema-org.js')).schemaOrgRecords(records));
  if (format === 'osm') return csvChunks((await import('./osm.js')).osmTable(records), toFile);
  if (format === 'gbp') return csvChunks((await import('./gbp.js')).gbpTable(records), toFile);
  const table = tableOf(kind, records);
  if (format === 'csv') return csvChunks(table, toFile);
  const { xlsxBytes } = await import('./xlsx.js');
  return [await xlsxBytes(table, kind)];
}

// Wire records back into the columns people edit: the layout of `upload template` (one column per
// field, one range per weekday, Sunday first), so an export opens like the template and reads back
// through the same stages as any upload. A cell is written only when it reads back to the exact value
// that was recorded; anything else stops the export with the record and the field named.
import { FIELDS } from '../contract/fields.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { parseRange } from '../map/hours.js';

/** The template's weekday columns, Sunday ("0") first. */
export const DAY_COLUMNS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** A cell: text, a number (a numeric field), or empty (null). */
export type Cell = string | number | null;

export interface Table {
  readonly header: readonly string[];
  /** Yields each record's cells, in the header's order. */
  rows(): Iterable<Cell[]>;
}

/** The header of a kind's export: the template's. */
export function headerOf(kind: Kind): readonly string[] {
  const fields = FIELDS[kind].filter((f) => f !== 'opentToGuestsPeriod');
  return kind === 'store-cards' ? [...fields, ...DAY_COLUMNS] : fields;
}

/** Canonical record JSON (a snapshot's) → rows of cells in the template's layout. */
export function tableOf(kind: Kind, records: Iterable<string>): Table {
  const fields = FIELDS[kind].filter((f) => f !== 'opentToGuestsPeriod');
  const keyField = KINDS[kind].keyField;
  return {
    header: headerOf(kind),
    *rows() {
      for (const json of records) {
        const record = JSON.parse(json) as Record<string, unknown>;
        const key = String(record[keyField]);
        const cells: Cell[] = fields.map((f) => cellOf(record[f], key, f));
        if (kind === 'store-cards') cells.push(...hoursCells(record.opentToGuestsPeriod, key));
        yield cells;
      }
    },
  };
}

/** A scalar field's cell, written only when it reads back to the exact value recorded. */
export function cellOf(value: unknown, key: string, field: string): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    // Written as a spreadsheet writes it, which the reader takes back as this number (not 1e+21).
    if (/^-?\d+(?:\.\d+)?$/.test(String(value))) return value;
    throw inexact(key, field, String(value));
  }
  throw inexact(key, field, JSON.stringify(value));
}

/**
 * 8.5 → "08:30", 26 → "02:00" (or "26:00" in the wire's own terms, for 06:00 to 06:00 next day, which
 * as a clock range would read as opening and closing at once). Minutes are rounded; the caller checks
 * that the text reads back exactly.
 */
function clock(hours: number, pastMidnight = false): string {
  const minutes = Math.round(hours * 60);
  const h = Math.floor(minutes / 60);
  return `${String(pastMidnight ? h : h % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

type Day = { since: number; to: number };

/** One range per weekday, `09:00-21:00`, `closed` for a day the record leaves out. */
export function hoursCells(period: unknown, key = '?'): string[] {
  const days = (period ?? {}) as Record<string, Day | undefined>;
  return DAY_COLUMNS.map((name, i) => {
    const day = days[String(i)];
    if (!day) return 'closed';
    // A range the reader would take for other numbers (9.1234 is not a whole minute) is not written.
    for (const text of [`${clock(day.since)}-${clock(day.to)}`, `${clock(day.since)}-${clock(day.to, true)}`]) {
      const back = parseRange(text);
      if (typeof back === 'object' && !('error' in back) && back.since === day.since && back.to === day.to) return text;
    }
    throw inexact(key, `opentToGuestsPeriod.${i} (${name})`, JSON.stringify(day));
  });
}

function inexact(key: string, field: string, value: string): UsageError {
  return new UsageError(
    'EXPORT_INEXACT',
    `record ${key}: ${field} ${value} has no exact form in a CSV or workbook cell, so that file would not upload back to the same records`,
    'export it with --format json, which keeps every value exactly as recorded',
  ).withFixes({ kind: 'flags', args: ['--format', 'json'] });
}

// The recorded week as the hours columns of Google Business Profile's bulk upload sheet: `Store code`,
// then `Sunday hours` … `Saturday hours` in the template's order. A cell is `HH:MM-HH:MM` in 24-hour
// time, `x` for a day closed all day; a closing time before the opening time is on the next day
// (`18:00-02:00`); open 24 hours is `00:00-24:00` (the service's whole day, 6 to 30, which is how the
// tool reads "open 24 hours"). The sheet's other columns (name, address, category) are not the
// tool's to write: the sheet says only what is kept here, and Google's bulk upload changes only the
// columns a sheet has.
import { KINDS } from '../contract/kinds.js';
import type { Cell, Table } from './layout.js';
import { exactClocks, isWholeDay, type Hours } from './week.js';

export const GBP_HEADER = [
  'Store code',
  'Sunday hours',
  'Monday hours',
  'Tuesday hours',
  'Wednesday hours',
  'Thursday hours',
  'Friday hours',
  'Saturday hours',
] as const;

/** The seven hours cells of a store card, Sunday first. */
export function gbpCells(period: unknown, key: string): string[] {
  const days = (period ?? {}) as Record<string, Hours | undefined>;
  return [0, 1, 2, 3, 4, 5, 6].map((day) => {
    const hours = days[String(day)];
    if (!hours) return 'x';
    if (isWholeDay(hours)) return '00:00-24:00';
    const [since, to] = exactClocks(key, day, hours, "Google Business Profile's sheet");
    return `${since}-${to}`;
  });
}

export function gbpTable(records: Iterable<string>): Table {
  const keyField = KINDS['store-cards'].keyField;
  return {
    header: GBP_HEADER,
    *rows() {
      for (const json of records) {
        const record = JSON.parse(json) as Record<string, unknown>;
        const key = String(record[keyField]);
        const cells: Cell[] = [key, ...gbpCells(record.opentToGuestsPeriod, key)];
        yield cells;
      }
    },
  };
}

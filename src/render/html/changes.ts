// Every added, removed and changed record of a run, as rows for the review page: computed from the
// records the run planned and the baseline it compared with (not from the report's five examples).
import type { Kind } from '../../contract/kinds.js';
import { fieldChanges } from '../../diff/index.js';
import type { ReviewRecords } from '../../pipeline/reviewed.js';
import { formatDay, formatPeriod } from '../hours.js';
import type { Week } from './week.js';
import { fieldWords } from '../field-words.js';

export interface FieldLine {
  readonly field: string;
  readonly before: string;
  readonly after: string;
}

export interface ChangeRow {
  readonly change: 'added' | 'removed' | 'changed';
  readonly key: string;
  /** What makes the key recognisable: a person's name, a store's email. */
  readonly label: string;
  /** For a changed record, each field that differs (opening hours day by day). */
  readonly fields: readonly FieldLine[];
  readonly before: Record<string, unknown> | undefined;
  readonly after: Record<string, unknown> | undefined;
}

const WEEK = ['1', '2', '3', '4', '5', '6', '0'];

function shown(field: string, v: unknown): string {
  if (field === 'opentToGuestsPeriod') return formatPeriod(v ?? {});
  if (v === null || v === undefined) return '—';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function lines(before: string, after: string): FieldLine[] {
  return fieldChanges(before, after).flatMap(({ field, before: b, after: a }): FieldLine[] => {
    if (field !== 'opentToGuestsPeriod') return [{ field: fieldWords(field), before: shown(field, b), after: shown(field, a) }];
    const from = (b ?? {}) as Week;
    const to = (a ?? {}) as Week;
    return WEEK.filter((d) => formatDay(from[d]) !== formatDay(to[d])).map((d) => ({
      field: fieldWords(`opentToGuestsPeriod.${d}`),
      before: formatDay(from[d]),
      after: formatDay(to[d]),
    }));
  });
}

function labelOf(kind: Kind, record: Record<string, unknown>): string {
  const value = kind === 'team-members' ? record.name : record.email;
  return typeof value === 'string' ? value : '';
}

const parse = (json: string) => JSON.parse(json) as Record<string, unknown>;

/**
 * Added and changed records in file order, then the removed ones in baseline order. Without a baseline
 * every planned record is listed as added: nothing is known to be on the service.
 */
export function changeRows(r: ReviewRecords): ChangeRow[] {
  const rows: ChangeRow[] = [];
  const baseline = r.baseline ?? new Map<string, string>();
  const present = new Set(r.keys);
  for (let i = 0; i < r.keys.length; i++) {
    const key = r.keys[i]!;
    const after = r.bodies[i]!;
    const before = baseline.get(key);
    if (before === after) continue;
    const record = parse(after);
    if (before === undefined) rows.push({ change: 'added', key, label: labelOf(r.kind, record), fields: [], before: undefined, after: record });
    else rows.push({ change: 'changed', key, label: labelOf(r.kind, record), fields: lines(before, after), before: parse(before), after: record });
  }
  for (const [key, before] of baseline) {
    if (present.has(key)) continue;
    const record = parse(before);
    rows.push({ change: 'removed', key, label: labelOf(r.kind, record), fields: [], before: record, after: undefined });
  }
  return rows;
}

/** A whole record on one line, for an added or removed row: `email "a@b", opening hours Mon–Fri 09:00–21:00`. */
export function recordLine(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([field, value]) => `${fieldWords(field)} ${shown(field, value)}`)
    .join(', ');
}

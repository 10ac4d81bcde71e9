// `--diff-out FILE`: every added, removed and changed record as CSV, one row per changed field, for
// review in Excel — not only the five examples the terminal shows. UTF-8 with a BOM and CRLF.
import type { Bodies } from '../contract/json-array.js';
import type { Kind } from '../contract/kinds.js';
import { fieldChanges, type RecordsByKey } from '../diff/index.js';
import { csvLine } from './csv-cell.js';
import { formatDay, formatPeriod } from './hours.js';
import { formatRecord } from './human.js';

const HEADER = ['change', 'key', 'label', 'field', 'before', 'after'];

/** A person's name or a store's email: what makes a key recognisable. */
function label(kind: Kind, json: string): string {
  const record = JSON.parse(json) as Record<string, unknown>;
  const value = kind === 'team-members' ? record.name : record.email;
  return typeof value === 'string' ? value : '';
}

type Day = { since: number; to: number } | undefined;

function value(field: string, v: unknown): string {
  if (field.startsWith('opentToGuestsPeriod.')) return formatDay(v as Day);
  if (v === null || v === undefined) return '';
  if (field === 'opentToGuestsPeriod') return formatPeriod(v);
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The rows, in file order for added and changed records, then the removed ones in baseline order. */
export function* diffCsvLines(kind: Kind, baseline: RecordsByKey | undefined, keys: readonly string[], bodies: Bodies, delimiter = ','): Generator<string> {
  yield `\uFEFF${csvLine(HEADER, delimiter)}\r\n`;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const r = baseline ? baseline.find(key) : -1;
    if (r === -1) {
      const after = bodies.json(i);
      yield `${csvLine(['added', key, label(kind, after), '', '', formatRecord(after)], delimiter)}\r\n`;
    } else if (!baseline!.same(r, bodies, i)) {
      const [before, after] = [baseline!.json(r), bodies.json(i)];
      for (const change of fieldChanges(before, after)) {
        for (const [field, from, to] of splitHours(change.field, change.before, change.after)) {
          yield `${csvLine(['changed', key, label(kind, after), field, value(field, from), value(field, to)], delimiter)}\r\n`;
        }
      }
    }
  }
  if (!baseline) return;
  const present = new Set(keys);
  for (const [key, before] of baseline) {
    if (!present.has(key)) yield `${csvLine(['removed', key, label(kind, before), '', formatRecord(before), ''], delimiter)}\r\n`;
  }
}

const WEEK = ['1', '2', '3', '4', '5', '6', '0'];
const DAY = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Opening hours change day by day: one row per day that differs, named "opentToGuestsPeriod.Saturday". */
function splitHours(field: string, before: unknown, after: unknown): [string, unknown, unknown][] {
  if (field !== 'opentToGuestsPeriod') return [[field, before, after]];
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  return WEEK.filter((d) => JSON.stringify(b[d]) !== JSON.stringify(a[d])).map((d) => [`opentToGuestsPeriod.${DAY[Number(d)]}`, b[d], a[d]]);
}

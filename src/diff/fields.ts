// What the changed records change, field by field: how many records each field changes in, and which
// values the baseline holds that the upload empties — a filled field becoming null or empty, an open
// weekday becoming closed. Pure, over parsed records, so it does not care how bodies are stored: the
// guards judge it (src/guard/changes.ts), the report shows it.
import { CONTRACT } from '../contract/fields.js';
import type { Kind } from '../contract/kinds.js';

type Fields = Readonly<Record<string, unknown>>;

/** One changed record: its key and its parsed wire record before and after. */
export interface RecordChange {
  readonly key: string;
  readonly before: Fields;
  readonly after: Fields;
}

/** A field and the records it changes in (the first few keys, in plan order). */
export interface FieldCount {
  readonly field: string;
  readonly records: number;
  readonly keys: readonly string[];
}

export interface LossExample {
  readonly key: string;
  readonly before: unknown;
  readonly after: unknown;
}

/**
 * A field whose values the upload empties. An opening-hours day is a field of its own
 * (`opentToGuestsPeriod.1` is Monday): closing every store on Mondays is a loss even when the other
 * days stay.
 */
export interface FieldLoss {
  readonly field: string;
  /** Records whose value the upload empties. */
  readonly records: number;
  /** Records the upload keeps that held a value before it: the base of a percentage limit. */
  readonly held: number;
  readonly examples: readonly LossExample[];
}

export interface ChangeTally {
  /** Records that change at all. */
  readonly changed: number;
  /** Most-changed first. */
  readonly fields: readonly FieldCount[];
  /** Every field that can be emptied, most emptied first; `held` counts only the changed records here. */
  readonly losses: readonly FieldLoss[];
}

const EXAMPLES = 3;
const DAYS = ['1', '2', '3', '4', '5', '6', '0'] as const;

/** The fields a kind's records can lose a value in: optional fields, and each day of the hours. */
export function lossFields(kind: Kind): readonly string[] {
  return Object.entries(CONTRACT[kind]).flatMap(([field, type]) => (type === 'hours' ? DAYS.map((d) => `${field}.${d}`) : type.endsWith('?') ? [field] : []));
}

/** A field's value in a record; `opentToGuestsPeriod.1` is the Monday entry of the hours object. */
export function valueOf(record: Fields, field: string): unknown {
  const dot = field.indexOf('.');
  if (dot === -1) return record[field];
  const outer = record[field.slice(0, dot)];
  return outer !== null && typeof outer === 'object' ? (outer as Fields)[field.slice(dot + 1)] : undefined;
}

export const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '';

/** Equal values; only the hours are objects, and they are written in one key order, so their JSON compares. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

export function tallyChanges(kind: Kind, changes: Iterable<RecordChange>): ChangeTally {
  const fields = Object.keys(CONTRACT[kind]);
  const lossy = lossFields(kind);
  const counts = new Map<string, { records: number; keys: string[] }>(fields.map((f) => [f, { records: 0, keys: [] }]));
  const losses = new Map<string, { records: number; held: number; examples: LossExample[] }>(lossy.map((f) => [f, { records: 0, held: 0, examples: [] }]));
  let changed = 0;
  for (const { key, before, after } of changes) {
    changed++;
    for (const field of fields) {
      if (same(before[field], after[field])) continue;
      const count = counts.get(field)!;
      count.records++;
      if (count.keys.length < EXAMPLES) count.keys.push(key);
    }
    for (const field of lossy) {
      const was = valueOf(before, field);
      if (isEmpty(was)) continue;
      const loss = losses.get(field)!;
      loss.held++;
      const now = valueOf(after, field);
      if (!isEmpty(now)) continue;
      loss.records++;
      if (loss.examples.length < EXAMPLES) loss.examples.push({ key, before: was, after: now ?? null });
    }
  }
  return {
    changed,
    fields: [...counts]
      .filter(([, c]) => c.records > 0)
      .map(([field, c]) => ({ field, ...c }))
      .sort((a, b) => b.records - a.records),
    losses: [...losses].map(([field, l]) => ({ field, ...l })).sort((a, b) => b.records - a.records),
  };
}

/** The tally with each loss's `held` raised by the holders among the records that did not change. */
export function withUnchangedHolders(tally: ChangeTally, unchanged: ReadonlyMap<string, number>): ChangeTally {
  return { ...tally, losses: tally.losses.map((l) => ({ ...l, held: l.held + (unchanged.get(l.field) ?? 0) })) };
}

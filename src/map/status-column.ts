// HR exports carry leavers: ADP's `Position Status`, Paychex's `Status` = T, Deputy's `Active` = 0,
// Rippling's `Role state`, HiBob's `Lifecycle status` (./status-exports.ts has them all, as data). A
// column that reads as an employment status, by its header or by its values, is never sent on a
// default: a team-member upload stops until the person says which statuses to keep
// (`--status-column COL --active VALUES`) or that the column is no status (`--no-status-column COL`).
// A store list's status column (`Closed`, `Geschlossen`) still only makes closed stores errors.
import type { Kind } from '../contract/kinds.js';
import { normalise } from './columns.js';
import { KINDS_OF_WORK, STATUS_EXPORTS, STORE_STATUS } from './status-exports.js';

export interface StatusSetting {
  /** The column named by --status-column or the mapping's "status". */
  readonly column: string;
  /** The statuses whose rows are kept. */
  readonly active: readonly string[];
}

/** What the tool knows of a column's values: which mean still employed, which mean gone, from which exports. */
export interface Vocabulary {
  readonly active: ReadonlySet<string>;
  readonly gone: ReadonlySet<string>;
  readonly sources: readonly string[];
  /** An empty cell means still employed (a `Leaver` column is ticked only for leavers). */
  readonly emptyIsActive?: boolean;
}

/** How --active names an empty status cell (and how the messages show one). */
export const EMPTY_STATUS = '(empty)';

/** A status as --active writes it, compared as a cell is: `(empty)` is the empty cell. */
export function activeKey(status: string): string {
  return status.trim().toLowerCase() === EMPTY_STATUS ? '' : normalise(status);
}

export interface StatusColumn {
  readonly index: number;
  readonly column: string;
  /** Normalised statuses to keep, when the person said; undefined: not decided yet. */
  readonly active: ReadonlySet<string> | undefined;
  readonly vocabulary: Vocabulary;
  /** How it was recognised: the header, or its values (`Status`-like words in an unnamed column). */
  readonly by: 'setting' | 'header' | 'values';
}

const EMPTY: Vocabulary = { active: new Set(), gone: new Set(), sources: [] };

// Per normalised header, the union of the rows naming it.
let byHeader: Map<string, Vocabulary> | undefined;
function headers(): Map<string, Vocabulary> {
  if (byHeader) return byHeader;
  const out = new Map<string, { active: Set<string>; gone: Set<string>; sources: string[]; emptyIsActive: boolean }>();
  for (const row of STATUS_EXPORTS) {
    for (const column of row.columns.map(normalise)) {
      const v = out.get(column) ?? out.set(column, { active: new Set(), gone: new Set(), sources: [], emptyIsActive: false }).get(column)!;
      v.emptyIsActive ||= row.emptyIsActive === true;
      for (const a of row.active) v.active.add(normalise(a));
      for (const g of row.gone) v.gone.add(normalise(g));
      if (!v.sources.includes(row.source)) v.sources.push(row.source);
    }
  }
  return (byHeader = out);
}

// Words that mark a column as a status by its values alone: every word of the table long enough to
// say something by itself (not `A`, `T`, `1`, `yes`), except kinds of work.
let words: { any: Set<string>; telling: Set<string>; active: Set<string>; gone: Set<string> } | undefined;
function valueWords() {
  if (words) return words;
  const booleans = new Set(
    STATUS_EXPORTS.filter((r) => r.active.includes('1') || r.gone.includes('1')).flatMap((r) => [...r.active, ...r.gone].map(normalise)),
  );
  const work = new Set(KINDS_OF_WORK.map(normalise));
  const long = (w: string) => w.length >= 3 && !booleans.has(w);
  const rows = STATUS_EXPORTS.filter((r) => !r.active.includes('1') && !r.gone.includes('1'));
  const active = new Set(rows.flatMap((r) => r.active.map(normalise)).filter(long));
  const gone = new Set(rows.flatMap((r) => r.gone.map(normalise)).filter(long));
  const any = new Set([...active, ...gone, ...rows.flatMap((r) => (r.other ?? []).map(normalise)).filter(long)]);
  return (words = { any, telling: new Set([...any].filter((w) => !work.has(w))), active, gone });
}

/** Whether a value could be part of a status column read by its values (an empty cell could). */
export function statusWord(value: string): boolean {
  const n = normalise(value);
  return n === '' || valueWords().any.has(n);
}

/** What the tool knows of a column by its header; undefined when the header is no status header. */
export function vocabularyOf(kind: Kind, column: string): Vocabulary | undefined {
  const n = normalise(column);
  if (kind === 'store-cards') {
    return STORE_STATUS.columns.map(normalise).includes(n) ? { active: new Set(), gone: new Set(STORE_STATUS.gone.map(normalise)), sources: [] } : undefined;
  }
  return headers().get(n);
}

/**
 * Whether a column's values read as an employment status: every value is a status word of some
 * export, at least one of them says more than a kind of work. Booleans and one-letter codes say so
 * only under their header. Team members only.
 */
export function statusByValues(values: Iterable<string>): Vocabulary | undefined {
  const w = valueWords();
  let telling = false;
  let any = false;
  for (const value of values) {
    const n = normalise(value);
    if (n === '') continue;
    if (!w.any.has(n)) return undefined;
    any = true;
    telling ||= w.telling.has(n);
  }
  return any && telling ? { active: w.active, gone: w.gone, sources: [] } : undefined;
}

export interface StatusChoice {
  readonly setting: StatusSetting | undefined;
  /** Columns the person says are no status (--no-status-column), normalised. */
  readonly notStatus: ReadonlySet<string>;
  /** Columns the mapping feeds to a field: a field, not a status. */
  readonly taken: ReadonlySet<number>;
  /** The first rows' cells, to recognise a status column by its values. */
  readonly sample: readonly (readonly unknown[])[];
}

/**
 * The file's status columns: the one named by --status-column (decided), and every other whose
 * header or values read as a status (undecided). A store list has at most one, by its header.
 */
export function findStatusColumns(kind: Kind, columns: readonly string[], choice: StatusChoice): StatusColumn[] {
  const out: StatusColumn[] = [];
  const named = choice.setting ? columns.findIndex((c) => normalise(c) === normalise(choice.setting!.column)) : -1;
  if (named !== -1) {
    out.push({
      index: named,
      column: columns[named]!,
      active: new Set(choice.setting!.active.map(activeKey)),
      vocabulary: vocabularyOf(kind, columns[named]!) ?? EMPTY,
      by: 'setting',
    });
  }
  columns.forEach((column, index) => {
    if (index === named || column === '' || choice.taken.has(index) || choice.notStatus.has(normalise(column))) return;
    if (kind === 'store-cards' && out.length) return;
    const byName = vocabularyOf(kind, column);
    if (byName) return void out.push({ index, column, active: undefined, vocabulary: byName, by: 'header' });
    if (kind === 'store-cards') return;
    const byValues = statusByValues(choice.sample.map((cells) => statusText(cells[index])));
    if (byValues) out.push({ index, column, active: undefined, vocabulary: byValues, by: 'values' });
  });
  return out;
}

export type StatusVerdict = 'keep' | 'left' | 'excluded';

/** What a row's status cell says: kept, a leaver (an error while undecided), or left out (not one of --active). */
export function statusVerdict(status: StatusColumn, cell: unknown): StatusVerdict {
  const value = normalise(statusText(cell));
  if (status.active) return status.active.has(value) ? 'keep' : 'excluded';
  return status.vocabulary.gone.has(value) ? 'left' : 'keep';
}

/** Whether the tool believes a status (as written) means still employed, gone, or neither. */
export function meaning(status: StatusColumn, value: string): 'active' | 'gone' | 'unknown' {
  const n = normalise(value);
  if (n === '') return status.vocabulary.emptyIsActive ? 'active' : 'unknown';
  return status.vocabulary.active.has(n) ? 'active' : status.vocabulary.gone.has(n) ? 'gone' : 'unknown';
}

/** A status cell as text: a workbook may hold a number or a boolean there; anything else reads as empty. */
export function statusText(cell: unknown): string {
  return typeof cell === 'string' ? cell.trim() : typeof cell === 'number' || typeof cell === 'boolean' ? String(cell) : '';
}

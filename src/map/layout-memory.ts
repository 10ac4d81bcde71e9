// The mapping remembered per header (docs/input.md, "A layout remembered"). Each upload records its
// header and the mapping it was read with; the next file with the same header is read with that
// mapping again, and a header that differs from the last one recorded is named (added, removed,
// renamed columns) before any guard runs. Pure: the recorded layout comes in, a decision goes out.
import { issue, type Issue } from '../issues.js';
import type { Mapping } from './mapping-file.js';

/** What an upload records of its file: the header as written, in order, and the mapping it was read with. */
export interface LayoutRecord {
  readonly header: readonly string[];
  readonly mapping: Mapping;
}

/** The last upload that recorded its layout. */
export interface Remembered {
  readonly generation: number;
  readonly layout: LayoutRecord;
}

export interface HeaderChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly renamed: readonly { readonly from: string; readonly to: string }[];
}

/** What the run did with the recorded layout: the report's `layout` (docs/report.md). */
export interface LayoutOutcome {
  readonly columns: number;
  /** The upload whose layout this file's header was compared with; null when none was recorded. */
  readonly comparedWith: number | null;
  /** The header is that upload's, name for name and in order. */
  readonly same: boolean;
  /** Its recorded mapping was used (in part, where flags were given: `flagsWon`). */
  readonly reused: boolean;
  /** The mapping flags given on the command line, which win over the recorded mapping. */
  readonly flagsWon: readonly string[];
  /** How the header differs from the recorded one; null when it is the same or none was recorded. */
  readonly changes: HeaderChanges | null;
}

export interface LayoutDecision {
  readonly mapping: Mapping;
  readonly outcome: LayoutOutcome;
  readonly issues: readonly Issue[];
  /** What this upload records. */
  readonly record: LayoutRecord;
}

/**
 * The mapping to read a header with. The same header as the last upload's: its recorded mapping, with
 * what the flags given say winning part by part. Any other header: the flags' mapping, and a
 * LAYOUT_CHANGED warning naming the differences (an error under --same-layout: the caller refuses).
 */
export function decideLayout(
  header: readonly string[],
  given: Mapping,
  flags: readonly string[],
  remembered: Remembered | undefined,
  line: number,
): LayoutDecision {
  const columns = header.length;
  if (!remembered) {
    return {
      mapping: given,
      outcome: { columns, comparedWith: null, same: false, reused: false, flagsWon: [], changes: null },
      issues: [],
      record: { header, mapping: given },
    };
  }
  const { generation, layout } = remembered;
  if (sameHeader(layout.header, header)) {
    const mapping = overlay(layout.mapping, given);
    return {
      mapping,
      outcome: { columns, comparedWith: generation, same: true, reused: true, flagsWon: [...flags], changes: null },
      issues: [],
      record: { header, mapping },
    };
  }
  const changes = compareHeaders(layout.header, header);
  const warning = issue(
    'warning',
    'LAYOUT_CHANGED',
    `the header differs from upload #${generation}'s: ${describeChanges(changes)}; check that each column still means what it did`,
    {
      line,
    },
  );
  return {
    mapping: given,
    outcome: { columns, comparedWith: generation, same: false, reused: false, flagsWon: [], changes },
    issues: [warning],
    record: { header, mapping: given },
  };
}

function sameHeader(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** A name without case, spaces or punctuation: `Job Title`, `job_title` and `JOB-TITLE` are one. */
const loose = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Columns gone and columns new, by exact name. Gone and new columns are renamed ones, pair by pair, where
 * as many new columns stand between the same two columns that stayed (or an end of the header) as gone
 * ones stood; and where names differ only in case, spaces and punctuation (`Job Title`, `job_title`).
 */
export function compareHeaders(before: readonly string[], after: readonly string[]): HeaderChanges {
  const inAfter = new Set(after);
  const inBefore = new Set(before);
  const removed = before.filter((c) => !inAfter.has(c));
  const added = after.filter((c) => !inBefore.has(c));
  const renamed: { from: string; to: string }[] = [];
  const take = (from: string, to: string) => {
    renamed.push({ from, to });
    removed.splice(removed.indexOf(from), 1);
    added.splice(added.indexOf(to), 1);
  };
  const gaps = (header: readonly string[], kept: (c: string) => boolean) => {
    const out = new Map<string, string[]>();
    let anchor = '\u0001start';
    let run: string[] = [];
    for (const c of [...header, '\u0001end']) {
      if (c !== '\u0001end' && !kept(c)) {
        run.push(c);
        continue;
      }
      if (run.length) out.set(`${anchor}\u0000${c}`, run);
      anchor = c;
      run = [];
    }
    return out;
  };
  const gone = gaps(before, (c) => inAfter.has(c));
  for (const [between, fresh] of gaps(after, (c) => inBefore.has(c))) {
    const old = gone.get(between);
    if (old?.length === fresh.length) old.forEach((from, i) => take(from, fresh[i]!));
  }
  for (const from of [...removed]) {
    const to = added.find((a) => loose(a) === loose(from));
    if (to !== undefined) take(from, to);
  }
  return { added, removed, renamed };
}

export function describeChanges(c: HeaderChanges): string {
  const list = (names: readonly string[]) => names.map((n) => `'${n}'`).join(', ');
  return [
    c.renamed.length ? `renamed ${c.renamed.map((r) => `'${r.from}' → '${r.to}'`).join(', ')}` : '',
    c.removed.length ? `removed ${list(c.removed)}` : '',
    c.added.length ? `added ${list(c.added)}` : '',
    c.added.length + c.removed.length + c.renamed.length === 0 ? 'the same columns in another order' : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * The recorded mapping with the flags' on top: a field, a weekday or a value table the flags map is
 * theirs; the other settings (time format, split hours, closed days, status) are the flags' where given.
 * A recorded field whose column the flags now leave out is dropped, so no column is both.
 */
export function overlay(recorded: Mapping, given: Mapping): Mapping {
  const ignore = [...new Set([...(recorded.ignore ?? []), ...(given.ignore ?? [])])];
  const givenFields = given.fields ?? {};
  const mappedNow = new Set(Object.values(givenFields).flat());
  const fields = Object.create(null) as Record<string, readonly string[]>;
  for (const [field, cols] of Object.entries(recorded.fields ?? {})) if (!cols.some((c) => (given.ignore ?? []).includes(c))) fields[field] = cols;
  Object.assign(fields, givenFields);
  const values = { ...(recorded.values ?? {}), ...(given.values ?? {}) };
  for (const field of Object.keys(values)) if (!(field in fields)) delete values[field];
  const days = given.days?.length ? given.days : recorded.days;
  const timeFormat = given.timeFormat ?? recorded.timeFormat;
  const splitHours = given.splitHours ?? recorded.splitHours;
  const closedDays = given.closedDays ?? recorded.closedDays;
  // A column the flags call a status (or no status) is theirs to call, whatever was recorded of it.
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const status = given.status ?? (recorded.status && !(given.notStatus ?? []).some((c) => same(c, recorded.status!.column)) ? recorded.status : undefined);
  const notStatus = [...new Set([...(recorded.notStatus ?? []).filter((c) => !given.status || !same(c, given.status.column)), ...(given.notStatus ?? [])])];
  return {
    fields,
    ignore: ignore.filter((c) => !mappedNow.has(c)),
    timeFormat,
    splitHours,
    ...(Object.keys(values).length ? { values } : {}),
    ...(closedDays ? { closedDays } : {}),
    ...(days?.length ? { days } : {}),
    ...(status ? { status } : {}),
    ...(notStatus.length ? { notStatus } : {}),
  };
}

/** A recorded layout as the store gives it back, checked: a record this version cannot read is none. */
export function readRecorded(value: unknown): LayoutRecord | undefined {
  const v = value as { header?: unknown; mapping?: unknown } | null | undefined;
  if (!v || typeof v !== 'object' || !Array.isArray(v.header) || !v.header.every((c) => typeof c === 'string')) return undefined;
  if (!v.mapping || typeof v.mapping !== 'object' || Array.isArray(v.mapping)) return undefined;
  const m = v.mapping as Record<string, unknown>;
  // The parts the reader walks are checked; a record edited by hand into another shape is no record.
  const texts = (x: unknown) => x === undefined || (Array.isArray(x) && x.every((c) => typeof c === 'string'));
  const lists = (x: unknown) => x === undefined || (isObject(x) && Object.values(x).every(texts));
  const tables = (x: unknown) => x === undefined || (isObject(x) && Object.values(x).every(isObject));
  if (!lists(m.fields) || !texts(m.ignore) || !texts(m.notStatus) || !tables(m.values)) return undefined;
  return { header: v.header, mapping: m };
}

const isObject = (x: unknown): x is object => x !== null && typeof x === 'object' && !Array.isArray(x);

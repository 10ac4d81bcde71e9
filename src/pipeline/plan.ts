// Plan, then execute: read → map → validate → diff, as data. A dry run and a real run build the same
// plan; only a real run goes on to send it. Everything the later steps need comes back in the plan:
// the records, the issues, the diff, and what was learnt about the file (delimiter, header, rejected rows).
import type { Bodies, Spool } from '../contract/json-array.js';
import type { Kind } from '../contract/kinds.js';
import { StatusTally, excludedWarning, keepByStatus, upFront, type ExcludedRow } from './status-rows.js';
import { diffRecords, noBaseline, type BaselineSource, type Diff, type RecordsByKey } from '../diff/index.js';
import { issue, type Issue } from '../issues.js';
import { describeMapping, type FieldSource } from '../map/describe.js';
import type { Mapping } from '../map/mapping-file.js';
import { compilePlan, type ColumnPlan } from '../map/column-plan.js';
import { mapRecord, type Mapped } from '../map/record.js';
import { clockFromEvidence } from '../map/clock-evidence.js';
import { mergeDayRows, missingDayRows, type RowOfStore } from '../map/day-rows.js';
import { decideLayout, type LayoutDecision, type Remembered } from '../map/layout-memory.js';
import { guardRecordedNames } from './recorded-names.js';
import { hasHeaderRow, openRecords, type ReadOptions } from '../read/index.js';
import { markHiddenColumns, readNotes } from '../read/notes.js';
import { MAX_ISSUES, NEEDS_SCHEMA, Validator, type RejectedRecord } from '../validate/index.js';
import type { RawRecord, Stdin } from '../read/types.js';

export type { RejectedRecord } from '../validate/index.js';

export interface Baseline {
  readonly source: Exclude<BaselineSource, 'none'>;
  /** Each record's canonical wire JSON (as bytes), by key. */
  readonly records: RecordsByKey;
}

export interface PlanInput {
  readonly kind: Kind;
  readonly path: string;
  readonly read: ReadOptions;
  readonly mapping: Mapping;
  /** --hours-as-of (./options.ts). */
  readonly hoursAsOf?: string | undefined;
  readonly knownParents?: ReadonlySet<string> | undefined;
  readonly knownParentsFrom?: string | undefined;
  readonly baseline?: Baseline | undefined;
  readonly stdin?: Stdin;
  /** How many issues to keep in full (the rest are counted). */
  readonly maxIssues?: number | undefined;
  /** Keep each rejected record with its issues (for --errors-csv). */
  readonly keepRejected?: boolean;
  /** The body is to be sent (not a dry run): its sha256 is worked out as it is made (Bodies.hashAsItGoes). */
  readonly hashAsItGoes?: boolean;
  /** And its bytes written, as they are made, to a file the store opens for them (StateStore.spool). */
  readonly spool?: (() => Spool | undefined) | undefined;
  /** Called now and then with the number of records read, for progress displays. */
  readonly onProgress?: ((records: number) => void) | undefined;
  /**
   * An upload's file: its header is compared with the last one recorded (../map/layout-memory.ts), and
   * `flags` names the mapping flags given, which win over the recorded mapping.
   */
  readonly layoutMemory?: { readonly remembered: Remembered | undefined; readonly flags: readonly string[] } | undefined;
}

export interface Plan {
  readonly kind: Kind;
  readonly source: string;
  /** Records read from the file, valid or not (one per store where the file has one row per store per day). */
  readonly rows: number;
  /** Key and canonical wire JSON (the UTF-8 bytes that are sent) of each valid record, in file order. */
  readonly keys: string[];
  /** The file line of the valid record at an index of `keys` (found when a service names a record). */
  readonly lineOf: (index: number) => number | undefined;
  readonly bodies: Bodies;
  /** The first issues found (validate/index.ts MAX_ISSUES); all of them are counted in issueCounts. */
  readonly issues: Issue[];
  readonly issueCounts: Readonly<Record<string, number>>;
  readonly issuesTruncated: boolean;
  readonly errors: number;
  readonly warnings: number;
  readonly diff: Diff;
  /** The CSV delimiter (null for JSON), so files written for the user can match it. */
  readonly delimiter: string | null;
  /** The first header (a CSV header, or the first JSON record's keys); null when there was none. */
  readonly header: readonly string[] | null;
  /** Rejected records, when asked for with keepRejected; otherwise empty. */
  readonly rejected: readonly RejectedRecord[];
  /** Which column fed which field (for the first header: JSON records may each bring their own keys). */
  readonly mapping: readonly FieldSource[];
  /** The header compared with the last one recorded, and what this upload records; null for JSON records and baselines. */
  readonly layout: LayoutDecision | null;
}

/** How many rows a header's plan sees to judge its columns by their values. */
const SAMPLE_ROWS = 500;

export async function buildPlan(input: PlanInput): Promise<Plan> {
  const { kind } = input;
  const validator = new Validator(kind, {
    knownParents: input.knownParents,
    knownParentsFrom: input.knownParentsFrom,
    maxIssues: input.maxIssues,
    keepRejected: input.keepRejected,
    recordedKeys: input.baseline ? () => input.baseline!.records.keys() : undefined,
    recordedEmails: input.baseline && kind === 'team-members' ? () => recordedEmails(input.baseline!.records) : undefined,
    recordedIn: input.baseline?.source === 'file' ? 'the --baseline file' : 'the last upload',
  });
  // The records the baseline holds already are kept once, as its bytes (the repeat upload's memory).
  if (input.baseline) validator.bodies.shareWith(input.baseline.records);
  // A body that is to be sent is hashed as it is made, on a thread of its own, once it is large.
  if (input.hashAsItGoes) validator.bodies.hashAsItGoes({ spool: input.spool });
  const plans = new Map<string, ColumnPlan>();
  const reported = new Set<string>();
  let last: ColumnPlan | undefined;
  let first: ColumnPlan | undefined;
  let rows = 0;
  const excluded: ExcludedRow[] = [];
  const tally = new StatusTally();
  let clockNoted = false;

  // One row per store per day: each key's rows, kept until the end of the file, then one card each.
  const stores = new Map<string, { plan: ColumnPlan; rows: RowOfStore[] }>();
  // Only the record that first needs zod waits (for it to load); the others are checked without an
  // await each: a million awaits cost 3 % of a 1M dry run (docs/performance.md, round 6).
  const checkWithSchema = async (raw: RawRecord, plan: ColumnPlan, mapped: Mapped) => {
    // Its values are mapRecord's until the next record is mapped: kept across the wait, when another
    // plan in this process (the tests run several at once) may map one.
    const kept = mapped.values ? { ...mapped, values: [...mapped.values] } : mapped;
    await validator.loadSchema();
    if (validator.check(raw, plan, kept) === NEEDS_SCHEMA) throw new Error('the schema did not load');
  };

  const source = openRecords(input.path, input.read, input.stdin);
  const perRecordColumns = !hasHeaderRow(source.info.format);
  // A file with a header row is read with the mapping its header calls for: decided once, at the header,
  // and its warning is the first thing said about the file (before any guard).
  let layout: LayoutDecision | undefined;
  const mappingFor = (columns: readonly string[]) => {
    const memory = input.layoutMemory;
    if (perRecordColumns || memory === undefined) return input.mapping;
    if (!layout) {
      layout = decideLayout(columns, input.mapping, memory.flags, memory.remembered, source.info.headerLine ?? 1);
      for (const found of layout.issues) validator.add(found);
    }
    return layout.mapping;
  };
  records: for await (const batch of source.batches) {
    for (const raw of batch) {
      let plan = last?.columns === raw.columns ? last : undefined;
      if (!plan) {
        // CSV shares one header array; JSON records each bring their keys, so plans are cached by them.
        const signature = raw.columns.join('\u0000');
        plan = plans.get(signature);
        if (!plan) {
          plan = compilePlan(kind, raw.columns, {
            mapping: mappingFor(raw.columns),
            hoursAsOf: input.hoursAsOf,
            line: perRecordColumns ? raw.line : (source.info.headerLine ?? 1),
            perRecordColumns,
            // The batch's first rows under this header: a column's values say what it can be.
            sample: batch
              .filter((r) => r.columns === raw.columns || r.columns.join('\u0000') === signature)
              .slice(0, SAMPLE_ROWS)
              .map((r) => r.cells),
          });
          plans.set(signature, plan);
          first ??= plan;
          for (const found of plan.issues) {
            const id = `${found.code}\u0000${found.column}`;
            if (reported.has(id)) continue;
            validator.add(found);
            reported.add(id);
          }
        }
        last = plan;
      }
      if (plan.fatal) break records;
      rows++;
      if (input.onProgress && rows % 10_000 === 0) input.onProgress(rows);
      if (plan.watch.length) tally.watch(plan, raw);
      let leavers: readonly Issue[] = [];
      if (plan.statuses.length) {
        const verdict = keepByStatus(plan, raw, excluded, tally);
        if (verdict === 'excluded') continue;
        leavers = verdict;
      }
      // A leaver is this row's error: checked with it, so --errors-csv lists the row.
      const found = mapRecord(plan, raw, (layout?.mapping ?? input.mapping).values);
      if (found.settled && !clockNoted) {
        // Once per file: the cells that settled the clock, at the first record it settled.
        clockNoted = true;
        validator.add(clockFromEvidence(found.settled, raw.line));
      }
      const mapped = leavers.length ? { ...found, issues: [...(found.issues ?? []), ...leavers] } : found;
      if (plan.dayRows) {
        const key = typeof mapped.candidate.nodeKey === 'string' && mapped.candidate.nodeKey !== '' ? mapped.candidate.nodeKey : `\u0000${raw.line}`;
        const store = stores.get(key) ?? stores.set(key, { plan, rows: [] }).get(key)!;
        store.rows.push({ raw, candidate: mapped.candidate, issues: mapped.issues, row: mapped.dayRow });
        continue;
      }
      if (validator.check(raw, plan, mapped) === NEEDS_SCHEMA) await checkWithSchema(raw, plan, mapped);
    }
  }
  // A store's rows are one record: the counts (N records valid, N rejected) are of store cards.
  for (const { rows: storeRows } of stores.values()) rows -= storeRows.length - 1;
  for (const { plan, rows: storeRows } of stores.values()) {
    const merged = mergeDayRows(storeRows, plan.splitHours, (f) => plan.fed.find((x) => x.field === f)?.column ?? null);
    if (validator.check(storeRows[0]!.raw, plan, merged) === NEEDS_SCHEMA) await checkWithSchema(storeRows[0]!.raw, plan, merged);
  }
  if (stores.size) {
    const named = new Set([...stores.values()].flatMap((s) => s.rows.flatMap((r) => (r.row ? [r.row.day] : []))));
    const missing = missingDayRows(named, (layout?.mapping ?? input.mapping).closedDays ?? [], 1);
    if (missing) validator.add(missing);
  }
  input.onProgress?.(rows);
  if (excluded.length)
    validator.add(
      excludedWarning(
        excluded,
        first?.statuses.find((s) => s.active),
      ),
    );
  const undecided = tally.issues(perRecordColumns ? null : (source.info.headerLine ?? 1));
  for (const found of undecided) validator.add(found);
  validator.finish();
  const { keys, bodies } = validator;

  const header = source.info.header;
  const diff = input.baseline ? diffRecords(input.baseline.records, input.baseline.source, keys, bodies, validator.hasKey) : noBaseline();
  let notes = readNotes(source.info, input.read.sheet);
  if (input.baseline) notes = guardRecordedNames(notes, input.baseline.records, keys, bodies, diff, (i) => validator.lineOfBody(i));
  for (const note of notes) validator.add(note);
  if (rows === 0 && validator.errors === 0 && plans.size === 0) {
    if (header) {
      // A header and no records: its columns are still checked, so a wrong header is not hidden.
      const plan = compilePlan(kind, header, { mapping: mappingFor(header), line: source.info.headerLine ?? 1, perRecordColumns: false });
      for (const found of plan.issues) validator.add(found);
    }
    if (header || source.info.format === 'json') {
      validator.add(issue('warning', 'NO_RECORDS', 'the file holds no records', { line: null }));
    } else {
      // Not even a header: what a failed export leaves behind. It must never read as "delete everything".
      validator.add(
        issue(
          'error',
          'EMPTY_FILE',
          'the file is empty (no header line, no records): was the export cut short? To upload no records on purpose, use a file with just the header line (or a JSON file holding []) and --allow-empty',
          { line: null },
        ),
      );
    }
  }
  return {
    kind,
    source: input.read.source,
    rows,
    keys,
    lineOf: (index) => validator.lineOfBody(index),
    bodies,
    issues: markHiddenColumns(upFront(undecided, validator.issues, input.maxIssues ?? MAX_ISSUES), source.info),
    issueCounts: validator.counts,
    issuesTruncated: validator.truncated,
    errors: validator.errors,
    warnings: validator.warnings,
    diff,
    delimiter: source.info.delimiter,
    header: header ?? first?.columns ?? null,
    rejected: everyRow(validator.rejected, stores),
    mapping: first ? describeMapping(first) : [],
    layout: layout ?? null,
  };
}

/** A rejected store of one row per day is each of its rows (--errors-csv): a row left out would be a day lost. */
function everyRow(rejected: readonly RejectedRecord[], stores: ReadonlyMap<string, { rows: readonly RowOfStore[] }>): readonly RejectedRecord[] {
  if (!stores.size) return rejected;
  const rowsOf = new Map([...stores.values()].map(({ rows }) => [rows[0]!.raw, rows]));
  return rejected.flatMap((r) => rowsOf.get(r.raw)?.map((row) => ({ raw: row.raw, issues: r.issues })) ?? [r]);
}

/** The emails of the recorded team members (a look-alike check reads them, rarely). */
function* recordedEmails(records: RecordsByKey): Iterable<string> {
  for (const json of records.values()) {
    const email = (JSON.parse(json) as { email?: unknown }).email;
    if (typeof email === 'string') yield email;
  }
}

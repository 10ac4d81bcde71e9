// Plan, then execute: read → map → validate → diff, as data. A dry run and a real run build the same
// plan; only a real run goes on to send it.
import type { Kind } from './contract/kinds.js';
import type { Mapping } from './map/mapping-file.js';
import { diffRecords, noBaseline, type Diff } from './diff/index.js';
import { issue, type Issue } from './issues.js';
import { compilePlan, type ColumnPlan } from './map/plan.js';
import { mapRecord } from './map/record.js';
import { formatFor, hasHeaderRow, readRecordBatches, type RawRecord, type ReadOptions } from './read/index.js';
import { Validator } from './validate/index.js';

export interface Baseline {
  readonly source: 'snapshot' | 'file';
  readonly records: ReadonlyMap<string, string>;
}

export interface PlanInput {
  readonly kind: Kind;
  readonly path: string;
  readonly read: ReadOptions;
  readonly mapping: Mapping;
  readonly knownParents?: ReadonlySet<string> | undefined;
  readonly knownParentsFrom?: string | undefined;
  readonly baseline?: Baseline | undefined;
  readonly stdin?: NodeJS.ReadableStream;
  /** Called now and then with the number of records read, for progress displays. */
  readonly onProgress?: ((records: number) => void) | undefined;
  /** Called with each distinct header (a JSON record's keys), for --errors-csv. */
  readonly onColumns?: ((columns: readonly string[]) => void) | undefined;
  /** Called with each record that has an error, for --errors-csv. */
  readonly onRejected?: ((raw: RawRecord, issues: readonly Issue[]) => void) | undefined;
}

export interface Plan {
  readonly kind: Kind;
  readonly source: string;
  /** Records read from the file, valid or not. */
  readonly rows: number;
  /** Key and canonical wire JSON of each valid record, in file order. */
  readonly keys: string[];
  readonly bodies: string[];
  readonly issues: Issue[];
  readonly errors: number;
  readonly warnings: number;
  readonly diff: Diff;
}

export async function buildPlan(input: PlanInput): Promise<Plan> {
  const { kind } = input;
  const validator = new Validator(kind, { knownParents: input.knownParents, knownParentsFrom: input.knownParentsFrom });
  const keys: string[] = [];
  const bodies: string[] = [];
  const plans = new Map<string, ColumnPlan>();
  const reported = new Set<string>();
  let last: ColumnPlan | undefined;
  let rows = 0;
  const perRecordColumns = !hasHeaderRow(formatFor(input.path, input.read.format));

  let header: readonly string[] | undefined;
  const read: ReadOptions = { ...input.read, onHeader: (columns) => (header = columns) };
  records: for await (const batch of readRecordBatches(input.path, read, input.stdin)) {
    for (const raw of batch) {
      let plan = last?.columns === raw.columns ? last : undefined;
      if (!plan) {
        // CSV shares one header array; JSON records each bring their keys, so plans are cached by them.
        const signature = raw.columns.join('\u0000');
        plan = plans.get(signature);
        if (!plan) {
          plan = compilePlan(kind, raw.columns, { mapping: input.mapping, line: perRecordColumns ? raw.line : 1, perRecordColumns });
          plans.set(signature, plan);
          input.onColumns?.(raw.columns);
          for (const found of plan.issues) {
            const id = `${found.code}\u0000${found.column}`;
            if (!reported.has(id)) validator.add(found), reported.add(id);
          }
        }
        last = plan;
      }
      if (plan.fatal) break records;
      rows++;
      if (input.onProgress && rows % 10_000 === 0) input.onProgress(rows);
      const errorsBefore = validator.errors;
      const issuesBefore = validator.issues.length;
      const ok = validator.check(raw, plan, mapRecord(plan, raw));
      if (ok) {
        keys.push(ok.key);
        bodies.push(ok.json);
      } else if (input.onRejected && validator.errors > errorsBefore) {
        input.onRejected(raw, validator.issues.slice(issuesBefore));
      }
    }
  }
  input.onProgress?.(rows);

  if (rows === 0 && validator.errors === 0 && plans.size === 0) {
    if (header) {
      // A header and no records: its columns are still checked, so a wrong header is not hidden.
      const plan = compilePlan(kind, header, { mapping: input.mapping, line: 1, perRecordColumns: false });
      input.onColumns?.(header);
      for (const found of plan.issues) validator.add(found);
    }
    if (header || formatFor(input.path, input.read.format) === 'json') {
      validator.add(issue('warning', 'NO_RECORDS', 'the file holds no records', { line: null }));
    } else {
      // Not even a header: what a failed export leaves behind. It must never read as "delete everything".
      validator.add(issue('error', 'EMPTY_FILE', 'the file is empty (no header line, no records): was the export cut short? To upload no records on purpose, use a file with just the header line (or a JSON file holding []) and --allow-empty', { line: null }));
    }
  }
  const diff = input.baseline ? diffRecords(input.baseline.records, input.baseline.source, keys, bodies) : noBaseline();
  return { kind, source: input.read.source, rows, keys, bodies, issues: validator.issues, errors: validator.errors, warnings: validator.warnings, diff };
}

// `upload store-cards|team-members FILE`: the planned set is the file's records, read through the stages
// (read → map → validate → diff), compared with --baseline FILE or the last confirmed upload.
import { commandBasics } from './definition.js';
import { analyseChanges } from '../diff/changed.js';
import { GuardRefusal, InputError } from '../errors.js';
import type { Issue } from '../issues.js';
import { plural, thousands } from '../numbers.js';
import { loadBaseline, loadKnownParents } from './baseline.js';
import type { RunContext } from './context.js';
import { runFrame, type Definition, type Planned } from './frame.js';
import type { UploadOptions } from './options.js';
import { buildPlan, type Plan } from './plan.js';
import type { RunResult } from '../report/result.js';
import { layoutNotice, rememberedLayout } from './layout.js';

export function runUpload(options: UploadOptions, ctx: RunContext): Promise<RunResult> {
  return runFrame(uploadDefinition(options), ctx);
}

export function uploadDefinition(options: UploadOptions): Definition {
  const { kind, source } = options;
  return {
    ...commandBasics(options, { kind, source, dryRun: options.dryRun, ...(options.hoursAsOf ? { hoursAsOf: options.hoursAsOf } : {}) }),
    guards: {
      limits: options.limits,
      acknowledgeNoBaseline: options.noBaseline,
      holdRemovals: options.holdRemovals,
    },
    outputs: options,
    // Without an address (a dry run may have none) there is no history to compare with.
    locate: () => Promise.resolve({ kind, baseUrl: options.baseUrl }),
    baseline: ({ state, head }, ctx) =>
      loadBaseline({
        kind,
        file: options.baseline,
        input: options.file,
        encoding: options.encoding,
        mapping: options.mapping,
        hoursAsOf: options.hoursAsOf,
        stdin: ctx.stdin,
        state,
        head,
      }),
    plan: async ({ state }, against, ctx): Promise<Planned> => {
      const parents = await loadKnownParents({ kind, storeCards: options.storeCards, state, stdin: ctx.stdin });
      if (parents.warning) ctx.emit({ type: 'warning', message: parents.warning });
      ctx.emit({ type: 'reading', source, records: null });
      const plan = await buildPlan({
        kind,
        path: options.file,
        read: {
          source,
          format: options.format,
          delimiter: options.delimiter,
          encoding: options.encoding,
          sheet: options.sheet,
          headerRow: options.headerRow,
          hiddenRows: options.hiddenRows,
          signal: ctx.signal,
        },
        mapping: options.mapping,
        hoursAsOf: options.hoursAsOf,
        layoutMemory: { remembered: await rememberedLayout(state), flags: options.mappingFlags ?? [] },
        baseline: against.baseline,
        knownParents: parents.knownParents,
        knownParentsFrom: parents.knownParentsFrom,
        stdin: ctx.stdin,
        keepRejected: options.errorsCsv !== undefined,
        hashAsItGoes: !options.dryRun,
        spool: options.dryRun || !state ? undefined : () => state.store.spool?.(state.key),
        onProgress: (records) => {
          ctx.signal?.throwIfAborted();
          ctx.emit({ type: 'reading', source, records });
        },
      });
      ctx.emit({ type: 'read', source });
      const said = layoutNotice(plan.layout);
      if (said) ctx.emit({ type: 'notice', message: said });
      const changed = options.sameLayout ? layoutNotSame(plan, source) : undefined;
      const counts = { rows: plan.rows, valid: plan.keys.length, errors: plan.errors, warnings: plan.warnings };
      ctx.emit({ type: 'planned', source, issues: plan.issues, truncated: plan.issuesTruncated, ...counts });
      let encoded: ReturnType<Planned['payload']> | undefined;
      return {
        source,
        records: plan.rows,
        count: plan.keys.length,
        diff: plan.diff,
        changes: () => analyseChanges(kind, against.baseline?.records, plan.keys, plan.bodies, plan.diff),
        file: plan,
        what: { operation: 'upload' },
        // The bodies are the bytes already: only the sha256 is computed, once, when sent or written.
        payload: () => (encoded ??= Promise.resolve(plan.bodies.payload())),
        // A changed layout under --same-layout is the first thing to say: it may explain every other error.
        ...(changed ? { invalid: changed } : plan.errors > 0 ? { invalid: invalid(counts, source, options.errorsCsv, plan.issues) } : {}),
      };
    },
  };
}

/** --same-layout: a header that differs from the last upload's is refused, nothing sent. */
function layoutNotSame(plan: Plan, source: string): GuardRefusal | undefined {
  const layout = plan.layout?.outcome;
  if (!layout?.changes) return undefined;
  const what = plan.layout!.issues[0]?.message ?? 'the header differs from the last upload';
  return new GuardRefusal(
    'LAYOUT_NOT_SAME',
    `${source}: ${what}; --same-layout refuses a file whose layout changed, so nothing was sent`,
    `check the new columns (run the same command with --dry-run, without --same-layout, to see how they are read); if the layout is meant, upload it once without --same-layout, which records it for the runs after`,
  );
}

function invalid(counts: Parameters<typeof invalidSummary>[1], source: string, errorsCsv: string | undefined, issues: readonly Issue[]): InputError {
  const { message, hint } = invalidSummary(source, counts, errorsCsv, issues);
  return new InputError('INVALID_RECORDS', message, hint);
}

// Problems with the header, not with the cells of a record: the advice is about the header.
const HEADER_CODES: ReadonlySet<string> = new Set([
  'MISSING_COLUMN',
  'MAPPED_COLUMN_MISSING',
  'AMBIGUOUS_COLUMN',
  'UNPLACED_COLUMN',
  'AMBIGUOUS_WEEKDAY',
  'HOURS_PAIR_INCOMPLETE',
  'HOURS_TWICE',
  'MISSING_DAYS',
  'UNUSED_COLUMNS',
]);

/** The closing lines of an invalid run: the counts, then what to do next. */
export function invalidSummary(
  source: string,
  counts: { rows: number; valid: number; errors: number; warnings: number },
  errorsCsv: string | undefined,
  issues: readonly Issue[] = [],
): { message: string; hint: string } {
  const rejected = counts.rows - counts.valid;
  const found = `${plural(counts.errors, 'error')}${counts.warnings ? ` and ${plural(counts.warnings, 'warning')}` : ''}`;
  const rows = counts.rows ? ` in ${plural(counts.rows, 'record')} (${thousands(rejected)} rejected)` : '';
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length && errors.every((i) => HEADER_CODES.has(i.code))) {
    return {
      message: `${source}: ${found} in the header; nothing was sent`,
      hint: 'fix the header as said above (rename a column, map it with --map, leave it out with --ignore-column, or declare closed days with --closed-days), then run again',
    };
  }
  return {
    message: `${source}: ${found}${rows}; nothing was sent`,
    hint: errorsCsv
      ? `fix the cells named above (the rejected rows are in ${errorsCsv}, with an errors column) in the file, then run again`
      : 'fix the cells named above in the file, then run again (--errors-csv FILE writes the rejected rows to a file)',
  };
}

// One raw record to a wire-shaped candidate. Values are trimmed and typed the way the wire wants
// them; whether they are valid is the validate stage's question.
import type { Fix } from '../errors.js';
import { issue, asText, type Issue } from '../issues.js';
import type { RawRecord } from '../read/types.js';
import { hoursFromJson } from './hours-json.js';
import type { ColumnPlan, ScalarField } from './column-plan.js';
import { daysLabel, hoursFromColumns } from './record-hours.js';
import { dayIndex } from './layout.js';
import { parseTimeFormats, type TimeFormats } from './time-format.js';
import { evidenceFormat, type ClockEvidence } from './clock-evidence.js';
import { readDayRow, type DayRow } from './day-rows.js';
import type { Mapping } from './mapping-file.js';
import type { Kind } from '../contract/kinds.js';

const NUMERIC = /^[+-]?\d+(?:[.,]\d+)?$/;

export interface Mapped {
  readonly candidate: Record<string, unknown>;
  readonly issues: readonly Issue[] | undefined;
  /** The cells that settled a clock question of this record: the file's (plan.clockEvidence) or its week's own. */
  readonly settled?: ClockEvidence;
  /** One row per store per day (plan.dayRows): the day this row gives, when it could be read. */
  readonly dayRow?: DayRow | undefined;
  /**
   * A team member's values as the candidate holds them, in wire order (plan.scalars), read by place
   * where the candidate would be read by name: valid until the next record is mapped, and only while
   * the candidate is not changed (a plain record's never is).
   */
  readonly values?: readonly unknown[];
}

/** How many of a reading's problems are a clock question. */
function questions(problems: readonly { readonly code?: string }[] | undefined): number {
  return problems?.filter((p) => p.code === 'AMBIGUOUS_TIME').length ?? 0;
}

/**
 * The hours read as written, and where that asks a clock question the file's evidence answers,
 * read again with it: the reading with fewer questions, and whether the evidence settled one.
 */
function withEvidence<T extends { readonly problems?: readonly { readonly code?: string }[] }>(
  plan: ColumnPlan,
  read: (plan: ColumnPlan) => T,
): { result: T; settled: ClockEvidence | undefined } {
  const first = read(plan);
  const asked = questions(first.problems);
  if (!asked || !plan.clockEvidence) return { result: first, settled: undefined };
  const again = read({ ...plan, timeFormat: evidenceFormat(plan.timeFormat, plan.clockEvidence) });
  return questions(again.problems) < asked ? { result: again, settled: plan.clockEvidence } : { result: first, settled: undefined };
}

/** The note for a cell read as the service's whole day. */
function allDayNote(what: string, line: number, column: string | null, value: unknown): Issue {
  return issue(
    'warning',
    'OPEN_ALL_DAY',
    `${what} is read as open around the clock: the service's whole day, 06:00 to 06:00 next day (6-30), the widest it holds`,
    { line, column, field: 'opentToGuestsPeriod', value },
  );
}

/** A character trim() never takes: printable ASCII (most cells start and end with one). */
function kept(c: number): boolean {
  return c > 32 && c < 127;
}

function scalar(field: ScalarField, value: unknown): unknown {
  if (typeof value === 'string' && !(kept(value.charCodeAt(0)) && kept(value.charCodeAt(value.length - 1)))) value = value.trim();
  if (field.nullable && (value === undefined || value === null || value === '')) return null;
  if (field.numeric) {
    return typeof value === 'string' && NUMERIC.test(value) ? Number(value.replace(',', '.')) : value;
  }
  // Every other field is a string on the wire; an identifier exported as a whole number is sent as
  // text. A fraction or a number too large to be exact (12345678901234567890) stays a number, which
  // the contract rejects: its text would not be the ID the user had.
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
}

function cellText(value: unknown): string {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : asText(value);
}

/** The last record lacks a line break: complete, or the export stopped mid-row? Only the user can tell. */
function cutShort(plan: ColumnPlan, raw: RawRecord): Issue {
  let index = raw.cells.length - 1;
  while (index > 0 && cellText(raw.cells[index]).trim() === '') index--;
  return issue(
    'warning',
    'NO_FINAL_LINE_BREAK',
    `the last record has no line break after it: was the file cut short? Check that its last value '${cellText(raw.cells[index]).trim()}' is complete`,
    {
      line: raw.line,
      column: plan.columns[index] ?? null,
      value: raw.cells[index],
    },
  );
}

/** Combined columns: the non-empty parts, trimmed, joined with one space. */
function joined(parts: readonly number[], raw: RawRecord): string {
  let out = '';
  for (const i of parts) {
    const part = cellText(raw.cells[i]).trim();
    if (part) out = out ? `${out} ${part}` : part;
  }
  return out;
}

/** A JSON record's hours object: the day's own value as written, not the whole week; else the cell. */
export function dayValue(cell: unknown, day: number): unknown {
  if (cell === null || typeof cell !== 'object' || Array.isArray(cell)) return cell;
  const key = Object.keys(cell).find((k) => dayIndex(k) === day);
  return key === undefined ? cell : (cell as Record<string, unknown>)[key];
}

/**
 * The flags each hours problem's message offers, whatever the cell: SPLIT_HOURS always says
 * `--split-hours span`, AMBIGUOUS_TIME `--time-format 12h` or `24h` (./hours.ts, ./twelve-hour.ts);
 * an INVALID_HOURS offers flags only where its text does (a dotted time), and brings them along.
 * The text to write instead is left to the person: it is one of the readings the message names.
 */
const HOURS_FIXES: Record<'INVALID_HOURS' | 'SPLIT_HOURS' | 'AMBIGUOUS_TIME', readonly Fix[] | undefined> = {
  INVALID_HOURS: undefined,
  SPLIT_HOURS: [{ kind: 'flags', args: ['--split-hours', 'span'] }],
  AMBIGUOUS_TIME: [
    { kind: 'flags', args: ['--time-format', '12h'] },
    { kind: 'flags', args: ['--time-format', '24h'] },
  ],
};

/** A --time-format fix keeps what the run already said of the other question: `clock` and `12h` give `clock,12h`. */
function alongside(fixes: readonly Fix[] | undefined, said: TimeFormats | undefined): readonly Fix[] | undefined {
  if (fixes === undefined || said === undefined) return fixes;
  return fixes.map((fix) => {
    if (fix.kind !== 'flags' || fix.args[0] !== '--time-format') return fix;
    const both = parseTimeFormats(`${said},${fix.args[1]!}`);
    return typeof both === 'string' ? { kind: 'flags', args: ['--time-format', both] } : fix;
  });
}

/** A problem's fixes, and the text its message says to write as a fix of the cell it names (its line, its column as headed). */
function withCell(p: { readonly fixes?: readonly Fix[]; readonly write?: string }, column: string | undefined, line: number): readonly Fix[] | undefined {
  if (p.write === undefined || column === undefined) return p.fixes;
  return [...(p.fixes ?? []), { kind: 'cell', line, column, text: p.write }];
}

/**
 * A kind's candidate record from its scalar fields' values, in wire order (plan.scalars): one object
 * literal, so every record is made with one shape. Stored field by field under names read from the
 * plan, a million records cost 0.16 s of a 1M dry run (docs/performance.md, round 6).
 * test/unit/map-record.test.ts holds the names to FIELDS.
 */
export const CANDIDATE: Readonly<Record<Kind, (v: readonly unknown[]) => Record<string, unknown>>> = {
  'team-members': (v) => ({ employeeID: v[0], email: v[1], name: v[2], roleCode: v[3], parentKey: v[4] }),
  'store-cards': (v) => ({ nodeKey: v[0], email: v[1], storeConceptCode: v[2] }),
};

/** The values of the record being mapped, reused: a record makes no array of its own. */
const scratch: unknown[] = [];

/** `values`: the mapping's value tables (--map `"roleCode": {"column": "Job", "values": {…}}`). */
export function mapRecord(plan: ColumnPlan, raw: RawRecord, values?: Mapping['values']): Mapped {
  const { scalars } = plan;
  let issues: Issue[] | undefined;
  for (let k = 0; k < scalars.length; k++) {
    const field = scalars[k]!;
    const cell = field.parts ? joined(field.parts, raw) : field.index < 0 ? undefined : raw.cells[field.index];
    const table = values?.[field.field];
    if (table === undefined) {
      scratch[k] = scalar(field, cell);
      continue;
    }
    const looked = lookUp(table, cell, field, plan, raw);
    scratch[k] = looked.value;
    if (looked.issue) (issues ??= []).push(looked.issue);
  }
  const candidate = CANDIDATE[plan.kind](scratch);
  // Google Sheets ends every CSV without a line break, its lines ending in CRLF: there only a last
  // record short of cells is evidence that the export stopped mid-row.
  if (raw.unterminated && (raw.unterminated !== 'crlf' || raw.cells.length < plan.columns.length)) (issues ??= []).push(cutShort(plan, raw));
  if (plan.kind !== 'store-cards') return { candidate, issues, values: scratch };

  const problem = (
    code: 'INVALID_HOURS' | 'SPLIT_HOURS' | 'AMBIGUOUS_TIME',
    days: readonly number[],
    index: number,
    message: string,
    fixes?: readonly Fix[],
  ): void => {
    (issues ??= []).push(
      issue('error', code, days.length ? `${daysLabel(days)}${message}` : message, {
        fixes: alongside(fixes ?? HOURS_FIXES[code], plan.timeFormat),
        line: raw.line,
        column: plan.columns[index] ?? null,
        field: days.length ? `opentToGuestsPeriod.${days[0]}` : 'opentToGuestsPeriod',
        value: days.length === 1 ? dayValue(raw.cells[index], days[0]!) : raw.cells[index],
      }),
    );
  };

  if (plan.dayRows) {
    // The week is the rows' together (../pipeline/plan.ts merges them); this row gives one day.
    const read = readDayRow(plan.dayRows, plan.dayRows.since === undefined ? plan.hoursJson : undefined, raw, plan.timeFormat);
    if ('problems' in read) for (const p of read.problems) problem(p.code ?? 'INVALID_HOURS', [], p.index, p.message, p.fixes);
    candidate.opentToGuestsPeriod = {};
    return { candidate, issues, dayRow: 'row' in read ? read.row : undefined };
  }

  if (plan.hoursJson !== undefined) {
    const value = raw.cells[plan.hoursJson];
    const { result: parsed, settled: byFile } = withEvidence(plan, (p) => hoursFromJson(value, p));
    const settled = byFile ?? parsed.clock;
    for (const rule of parsed.allDay ?? []) (issues ??= []).push(allDayNote(`'${rule}'`, raw.line, plan.columns[plan.hoursJson] ?? null, value));
    for (const p of parsed.problems ?? []) {
      const days = p.days ?? (p.day === undefined ? [] : [p.day]);
      problem(p.code ?? 'INVALID_HOURS', days, plan.hoursJson, p.message, withCell(p, plan.columns[plan.hoursJson], raw.line));
    }
    if (parsed.holidays) {
      const rules = parsed.holidays.map((r) => `'${r}'`).join(', ');
      (issues ??= []).push(
        issue(
          'warning',
          'HOLIDAYS_LEFT_OUT',
          `${rules}: the service holds one week without holidays, so the holidays were left out and the rest of the week was read`,
          {
            line: raw.line,
            column: plan.columns[plan.hoursJson] ?? null,
            field: 'opentToGuestsPeriod',
            value,
          },
        ),
      );
    }
    // The days that could be read are still checked against the contract, as with day columns.
    candidate.opentToGuestsPeriod = parsed.period;
    return settled ? { candidate, issues, settled } : { candidate, issues };
  }

  // Days whose cells could not be read are left out; the days that could are still checked against
  // the contract, so one bad cell hides no other problem of the record.
  const { result, settled } = withEvidence(plan, (p) => hoursFromColumns(p, raw));
  for (const p of result.problems) problem(p.code, p.days, p.index, p.message, withCell(p, plan.columns[p.index], raw.line));
  for (const cell of result.allDay)
    (issues ??= []).push(
      allDayNote(`${daysLabel(cell.days)}'${cellText(raw.cells[cell.index]).trim()}'`, raw.line, plan.columns[cell.index] ?? null, raw.cells[cell.index]),
    );
  candidate.opentToGuestsPeriod = result.period;
  return settled ? { candidate, issues, settled } : { candidate, issues };
}

/**
 * A cell through its field's value table: an empty cell stays empty (REQUIRED or null, as without a
 * table); text the table does not list is VALUE_NOT_IN_TABLE, naming it, for no value is a guess.
 */
function lookUp(
  table: NonNullable<Mapping['values']>[string],
  cell: unknown,
  field: ScalarField,
  plan: ColumnPlan,
  raw: RawRecord,
): { value: unknown; issue?: Issue } {
  const text = cellText(cell).trim();
  if (text === '') return { value: scalar(field, cell) };
  if (Object.prototype.hasOwnProperty.call(table, text)) return { value: scalar(field, table[text]) };
  const listed = Object.keys(table).map((t) => `'${t}'`);
  const column = field.parts ? field.parts.map((i) => plan.columns[i]).join(' + ') : (plan.columns[field.index] ?? null);
  return {
    value: text,
    issue: issue(
      'error',
      'VALUE_NOT_IN_TABLE',
      `'${text}' is not in the value table of ${field.field} in --map (it lists ${listed.join(', ')}): add it to the table, or correct the cell`,
      { line: raw.line, column, field: field.field, value: text },
    ),
  };
}

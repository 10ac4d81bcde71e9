// Evidence for every value: a field or a weekday the file gives no column for would be sent as a
// default (null, "closed") that nobody wrote. Where the file also has columns the tool did not use,
// the value is most likely in one of them (a Portuguese `Segunda-feira`, an HR `Funktion`): the run
// stops and names both, with the exact flag that settles it.
import type { Kind } from '../contract/kinds.js';
import { NULLABLE, FIELDS } from '../contract/fields.js';
import type { Fix } from '../errors.js';
import { issue, type Issue } from '../issues.js';
import { DAY_CODES, dayCodes } from './closed-days.js';
import { dayList } from './day-words.js';
import { DAY_NAMES } from './hours.js';

/** A value for a shell's single quotes, as a person pastes it: `'…'` with `'\''` for a quote. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const quoted = (columns: readonly string[]) => columns.map((c) => `'${c}'`).join(', ');

export interface DayEvidence {
  readonly columns: readonly string[];
  /** Per weekday: whether a column (or pair) gives it. */
  readonly covered: readonly boolean[];
  /** A whole-week (or JSON) hours column gives every day. */
  readonly weekColumn: string | undefined;
  readonly closedDays: readonly number[] | undefined;
  /** Indices of the columns that feed nothing. */
  readonly unused: readonly number[];
  readonly line: number;
  /** JSON records each bring their keys: --closed-days speaks for the records without a week of their own. */
  readonly perRecord: boolean;
}

/** MISSING_DAYS for the weekdays nothing accounts for; HOURS_TWICE where --closed-days contradicts a column. */
export function accountDays(e: DayEvidence): Issue[] {
  const at = { line: e.line, field: 'opentToGuestsPeriod' };
  const closed = e.closedDays ?? [];
  if (e.weekColumn !== undefined && closed.length && !e.perRecord) {
    return [
      issue(
        'error',
        'HOURS_TWICE',
        `--closed-days ${dayCodes(closed)} says which days are closed, but column '${e.weekColumn}' gives the whole week; drop --closed-days (a day the column leaves out is closed)`,
        { ...at, column: e.weekColumn },
      ),
    ];
  }
  if (e.weekColumn !== undefined) return [];
  const twice = closed.filter((d) => e.covered[d]);
  if (twice.length) {
    return [
      issue(
        'error',
        'HOURS_TWICE',
        `${dayList(twice)} ${twice.length > 1 ? 'are' : 'is'} declared closed with --closed-days but ${twice.length > 1 ? 'have' : 'has'} a column; drop ${dayCodes(twice)} from --closed-days, or leave the column out with --ignore-column`,
        at,
      ),
    ];
  }
  const missing = [0, 1, 2, 3, 4, 5, 6].filter((d) => !e.covered[d] && !closed.includes(d));
  if (!missing.length) return [];
  const unused = e.unused.map((i) => e.columns[i]!);
  const some = missing.length > 1 ? 'have' : 'has';
  const line = unused.length ? mapLine(missing, unused) : undefined;
  const found = unused.length
    ? `; the column${unused.length > 1 ? 's' : ''} not used ${unused.length > 1 ? 'are' : 'is'} ${quoted(unused)}: if ${unused.length > 1 ? 'they hold' : 'it holds'} the hours, name ${unused.length > 1 ? 'them' : 'it'} with --map ${shellQuote(line!.json)}${line!.periods ? ` (each column one period of ${DAY_NAMES[missing[0]!]}, in order)` : line!.complete && unused.length > 1 ? ' (the columns are paired with the days in their order: check each pair)' : ''}`
    : `; add a column for ${missing.length > 1 ? 'each' : 'it'}, or name the column that holds ${missing.length > 1 ? 'each' : 'it'} with --map`;
  // A later --closed-days replaces an earlier one: the value to give is every closed day, not only these.
  const allClosed = dayCodes([...closed, ...missing]);
  // As data, only what needs no more words: --closed-days where no unused column may hold the hours it
  // would send as closed. Never the --map line: a second --map replaces the run's first, mapping and all.
  const fixes: Fix[] = unused.length ? [] : [{ kind: 'flags', args: ['--closed-days', allClosed] }];
  const closedDays = unused.length
    ? `if the stores are closed then and ${unused.length > 1 ? 'those columns hold' : 'that column holds'} no hours, say so with --closed-days ${allClosed} and leave ${unused.length > 1 ? 'them' : 'it'} out with ${unused.map((c) => `--ignore-column ${shellQuote(c)}`).join(' ')}`
    : `if the stores are closed then, say so with --closed-days ${allClosed}`;
  return [
    issue(
      'error',
      'MISSING_DAYS',
      `${dayList(missing)} ${some} no column in the file, so ${missing.length > 1 ? 'they' : 'it'} would be sent as closed${found}; ${closedDays}`,
      { ...at, column: unused[0] ?? null, value: dayCodes(missing), fixes },
    ),
  ];
}

/**
 * The mapping that would give the missing days their columns. Where the unused columns are as many as
 * the days, they are paired in order (the user reads and confirms the line before using it); one
 * column for a whole missing week is the week column; two or three for one day are its periods;
 * otherwise the columns are left to fill in.
 */
function mapLine(missing: readonly number[], unused: readonly string[]): { json: string; complete: boolean; periods?: true } {
  if (missing.length === 7 && unused.length === 1) return { json: JSON.stringify({ opentToGuestsPeriod: unused[0] }), complete: true };
  // One day and two or three columns (`Mo Mittagstisch`, `Mo Abendkarte`): the day's periods, in order.
  if (missing.length === 1 && (unused.length === 2 || unused.length === 3))
    return { json: JSON.stringify({ opentToGuestsPeriod: { [DAY_CODES[missing[0]!]!]: unused } }), complete: true, periods: true };
  const order = [...missing].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));
  const days: Record<string, string> = {};
  const complete = unused.length === missing.length;
  order.forEach((d, k) => (days[DAY_CODES[d]!] = complete ? unused[k]! : `COLUMN OF ${DAY_NAMES[d]!.toUpperCase()}`));
  return { json: JSON.stringify({ opentToGuestsPeriod: days }), complete };
}

/**
 * UNUSED_COLUMNS: nullable fields that no column feeds (sent as null for every record) in a file that
 * has columns the tool did not use. Unused columns alone stay warnings (UNKNOWN_COLUMN). A status
 * column is never among them (./status-column.ts takes it first), so it is never offered to
 * --ignore-column. `fits` says whether a column's values could be a field's: the one concrete --map
 * line is offered as a fix only then.
 */
export function unusedColumns(
  kind: Kind,
  columns: readonly string[],
  fed: (field: string) => boolean,
  unused: readonly number[],
  line: number,
  fits: (field: string, index: number) => boolean = () => true,
): Issue[] {
  const defaulted = FIELDS[kind].filter((f) => NULLABLE.has(f) && !fed(f));
  if (!defaulted.length || !unused.length) return [];
  const names = unused.map((i) => columns[i]!);
  // A concrete line only where there is one answer to give; otherwise the user fills in the column.
  const concrete = defaulted.length === 1 && names.length === 1 && fits(defaulted[0]!, unused[0]!);
  const example = JSON.stringify({ [defaulted[0]!]: concrete ? names[0] : 'ITS COLUMN' });
  const ignore = names.map((c) => `--ignore-column ${shellQuote(c)}`).join(' ');
  const fixes: Fix[] = [
    ...(concrete ? [{ kind: 'flags' as const, args: ['--map', example] }] : []),
    { kind: 'flags', args: names.flatMap((c) => ['--ignore-column', c]) },
  ];
  return [
    issue(
      'error',
      'UNUSED_COLUMNS',
      `${defaulted.join(' and ')} ${defaulted.length > 1 ? 'have' : 'has'} no column, so ${defaulted.length > 1 ? 'they' : 'it'} would be sent empty (null) for every record, while the column${names.length > 1 ? 's' : ''} ${quoted(names)} ${names.length > 1 ? 'are' : 'is'} not used; if one of them holds it, map it (--map ${shellQuote(example)}); if not, leave ${names.length > 1 ? 'them' : 'it'} out with ${ignore}`,
      { line, column: names[0]!, field: defaulted.join(','), fixes },
    ),
  ];
}

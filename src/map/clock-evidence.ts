// `7-11` is 07:00-11:00 on a 24-hour clock and 07:00-23:00 on a US sign: where the range itself does
// not say, the file may. Other hours cells written unambiguously on one clock (`17:00`, `13-21`,
// `0900-1730`; or `9am-5pm`) settle the question for the file, and the run names them
// (CLOCK_FROM_EVIDENCE). Cells of both kinds settle nothing: the question is asked.
import { issue, type Issue } from '../issues.js';
import type { TimeFormats } from './time-format.js';

export interface ClockEvidence {
  readonly format: '12h' | '24h';
  /** The cells that said so, as the warning names them: `'13-21' (column 'Tue')`, at most three; a week cell's own text. */
  readonly cells: readonly string[];
  /** How many cells said so in all. */
  readonly count: number;
}

// A time on its own: an hour, optional minutes, optional AM/PM. An hour from 13 to 23 without AM/PM
// is a 24-hour clock's; any AM/PM a 12-hour clock's.
const TIME = /(?<![\d:.,/])(\d{1,2})(?:[:.]\d{2})?(?![\d/])(\s*[ap]\.?\s?m\b\.?)?/gi;
// Four-digit military times as a range (`0900-1730`): a 24-hour clock by their form.
const MILITARY = /(?<!\d)(?:[01]\d|2[0-3])[0-5]\d\s*[-–]\s*(?:[01]\d|2[0-4])[0-5]\d(?!\d)/;

function says(text: string): '12h' | '24h' | 'both' | undefined {
  let twelve = false;
  let twentyFour = MILITARY.test(text);
  for (const m of text.matchAll(TIME)) {
    if (m[2]) twelve = true;
    else if (Number(m[1]) >= 13 && Number(m[1]) <= 23) twentyFour = true;
  }
  return twelve && twentyFour ? 'both' : twelve ? '12h' : twentyFour ? '24h' : undefined;
}

/** What the hours cells (`indices` of each sampled row) say of the clock, or undefined when nothing, or both. */
export function clockEvidence(rows: readonly (readonly unknown[])[], indices: readonly number[], columns?: readonly string[]): ClockEvidence | undefined {
  const found = { '12h': [] as string[], '24h': [] as string[] };
  for (const cells of rows) {
    for (const index of indices) {
      // A JSON record's hours object is read as its text: `{"mon": "13-21"}`, `{"since": 9, "to": 17}`.
      const cell = cells[index];
      const value = typeof cell === 'string' ? cell : cell !== null && typeof cell === 'object' ? JSON.stringify(cell) : undefined;
      if (value === undefined || value.length > 1000) continue;
      const clock = says(value);
      if (clock === 'both') return undefined;
      if (clock) found[clock].push(`'${value.trim()}'${columns ? ` (column '${columns[index]}')` : ''}`);
    }
  }
  if (found['12h'].length && found['24h'].length) return undefined;
  const format = found['12h'].length ? '12h' : found['24h'].length ? '24h' : undefined;
  if (!format) return undefined;
  const cells = [...new Set(found[format])];
  return { format, cells: cells.slice(0, 3), count: found[format].length };
}

/**
 * The formats to read a record with once the file has said which clock it keeps: `seen12h` or
 * `seen24h` beside what the user said. Evidence is weaker than a flag: a 24-hour file's `9-5` still
 * asks (./twelve-hour.ts), since such a file writes a night's close as `05:00`.
 */
export function evidenceFormat(format: TimeFormats | undefined, evidence: ClockEvidence): TimeFormats {
  return format === undefined ? `seen${evidence.format}` : `${format},seen${evidence.format}`;
}

/** The warning that says which cells settled the file's clock, with the flag for the other reading. */
export function clockFromEvidence(evidence: ClockEvidence, line: number): Issue {
  const other = evidence.format === '24h' ? '12h' : '24h';
  const more = evidence.count > evidence.cells.length ? ` and ${evidence.count - evidence.cells.length} more` : '';
  const clock = evidence.format === '24h' ? 'a 24-hour clock (7-11 is 07:00-11:00)' : 'a 12-hour clock (7-11 is 07:00-23:00, 9-5 is 09:00-17:00)';
  return issue(
    'warning',
    'CLOCK_FROM_EVIDENCE',
    `hours without AM/PM that have two readings (the first on this line) are read on ${clock}, as the file's hours cells write times: ${evidence.cells.join(', ')}${more}; if that is wrong, say --time-format ${other}`,
    { line, field: 'opentToGuestsPeriod', fixes: [{ kind: 'flags', args: ['--time-format', other] }] },
  );
}

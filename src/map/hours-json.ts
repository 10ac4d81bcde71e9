// The JSON hours layout: one cell (or a JSON record's key) holding the object itself. The wire form
// passes through as it is, so its bounds are checked by the contract; for hand-made files, weekday
// names are accepted as keys and a day may hold a range as written ("09:00-22:00") or written times.
import { MAX_DEPTH, tooDeep } from '../read/json.js';
import { dayHours, isAllDay, isClosed, onePeriod, parseDay, type CellOptions, type DayHours, type DayProblem, type HoursResult } from './hours.js';
import { hoursFromSpecifications, specifications } from './hours-schema-org.js';
import { dayIndex } from './layout.js';
import { parseWeek, type WeekHours } from './week.js';
import { isYextHours, yextWeek } from './yext-hours.js';

const EXAMPLE = '{"1": {"since": 9, "to": 22}} or {"mon": "09:00-22:00"}';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function oneDay(value: unknown, options: CellOptions): HoursResult | { split: string } {
  if (value === null || value === undefined) return 'closed';
  if (typeof value === 'string') {
    const day = parseDay(value, options.timeFormat);
    return day === 'closed' || 'error' in day ? day : onePeriod(day.periods, options.splitHours);
  }
  if (!isPlainObject(value)) return { error: `${JSON.stringify(value)} is not opening hours such as {"since": 9, "to": 22} or "09:00-22:00"` };
  const extra = Object.keys(value).filter((k) => k !== 'since' && k !== 'to');
  if (extra.length) return { error: `unknown key${extra.length > 1 ? 's' : ''} ${extra.map((k) => `'${k}'`).join(', ')}; a day holds only since and to` };
  const { since, to } = value;
  // Numbers are the wire's own terms and pass unchanged; written times follow the same rules as cells.
  if (typeof since === 'number' && typeof to === 'number') return { since, to };
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  if (isClosed(text(since)) && isClosed(text(to))) return 'closed';
  return dayHours(text(since), text(to), options.timeFormat);
}

/**
 * The hours cell's value (an object from JSON input, or its text from CSV) to the wire object. Text
 * that is not JSON is the week as written (`Mo-Fr 9-18, Sa 9-14`, OpenStreetMap, Google's list), or
 * Yext's legacy `2:9:00:17:00,…` (./yext-hours.ts).
 * Every day is read even after one fails, and the days read are returned with the problems, so the
 * contract still checks them: a record's hours errors are all reported in one run.
 */
export function hoursFromJson(value: unknown, options: CellOptions = {}): WeekHours {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return { period: {} };
  let object = value;
  if (typeof value === 'string' && isYextHours(value)) return yextWeek(value, options);
  if (typeof value === 'string' && !/^\s*[{["]/.test(value)) return parseWeek(value, options);
  if (typeof value === 'string') {
    // Walking (or quoting) a value nested without end would exhaust the stack: refused unread.
    if (tooDeep(value))
      return {
        period: {},
        problems: [{ day: undefined, message: `the opening hours nest objects or arrays more than ${MAX_DEPTH} levels deep; write them as ${EXAMPLE}` }],
      };
    try {
      object = JSON.parse(value) as typeof object;
    } catch {
      return { period: {}, problems: [{ day: undefined, message: `'${value}' is not a JSON object such as ${EXAMPLE}` }] };
    }
  }
  // schema.org's OpeningHoursSpecification, as listings publish hours (./hours-schema-org.ts).
  const specs = specifications(object);
  if (specs) return hoursFromSpecifications(specs, options);
  if (!isPlainObject(object)) return { period: {}, problems: [{ day: undefined, message: `opening hours must be a JSON object such as ${EXAMPLE}` }] };

  const period: Record<string, DayHours> = {};
  const problems: DayProblem[] = [];
  const allDay: string[] = [];
  const seen = new Set<number>();
  for (const [key, dayValue] of Object.entries(object)) {
    const day = dayIndex(key);
    if (day === undefined) {
      problems.push({ day: undefined, message: `opening hours have key '${key}'; use the weekday numbers 0 (Sunday) to 6 (Saturday) or day names` });
      continue;
    }
    if (seen.has(day)) {
      problems.push({ day, message: `the day is given twice (key '${key}'); keep one` });
      delete period[String(day)];
      continue;
    }
    seen.add(day);
    if (typeof dayValue === 'string' && isAllDay(dayValue)) allDay.push(`${key}: ${dayValue.trim()}`);
    const result = oneDay(dayValue, options);
    if (result === 'closed') continue;
    if ('split' in result) problems.push({ day, message: result.split, code: 'SPLIT_HOURS' });
    else if ('error' in result)
      problems.push({ day, message: result.error, ...(result.code && { code: result.code }), ...(result.fixes && { fixes: result.fixes }) });
    else period[String(day)] = result;
  }
  const notes = allDay.length ? { allDay } : {};
  return problems.length ? { period, problems, ...notes } : { period, ...notes };
}

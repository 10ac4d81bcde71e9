// A whole week in one cell, as people and services write it:
//   Mo-Fr 9-18, Sa 9-14                                   day ranges with times
//   Mo-Fr 09:00-18:00; Sa 09:00-14:00; Su off             OpenStreetMap's opening_hours
//   Monday: 9 AM – 6 PM, Tuesday: 9 AM – 6 PM, …          Google's list
//   du lundi au vendredi de 9h à 19h, samedi 9h-13h       the same in words, in six languages
// A day the cell does not name is closed (as in OpenStreetMap). Anything not understood is an error
// for the whole cell, never a closed day. See docs/decisions.md for why this is not the
// `opening_hours` package.
import type { Fix } from '../errors.js';
import { clockEvidence, evidenceFormat, type ClockEvidence } from './clock-evidence.js';
import { daysWithin, parseDates, today } from './date-rules.js';
import {
  AND,
  EVERY_DAY,
  checkLetters,
  expand,
  parseSelector,
  refsOf,
  resolveRefs,
  tokenize,
  unclearItems,
  type DayItem,
  type DayRef,
  type Token,
} from './day-words.js';
import { WHOLE_DAY, isAllDay, isClosed, onePeriod, parseRange, type CellOptions, type DayHours, type DayProblem } from './hours.js';

const BEFORE_TIME = new Set(['from', 'von', 'van', 'vanaf', 'de', 'du', 'des', 'desde', 'dalle', 'dal', 'da', 'ab', 'das', 'od', 'fra', 'fran']);
// Between two times `do` is Polish `od 9 do 17`, never a day.
const THROUGH = new Set(['to', 'till', 'until', 'through', 'thru', 'bis', 'tot', 't/m', 'a', 'au', 'al', 'alle', 'hasta', 'as', 'ate', 'do', 'til']);
const EXAMPLE = 'Mo-Fr 09:00-18:00; Sa 09:00-14:00; Su off';
// Public and school holidays (OpenStreetMap's PH and SH, Japanese 祝): the service holds one template
// week, so a rule about them is left out, with a note saying so.
const HOLIDAYS = new Set(['ph', 'sh', '祝']);

interface Rule {
  readonly items: readonly DayItem[];
  readonly periods: readonly DayHours[] | 'closed';
  /** After a `;` or a line break a rule overrides earlier ones for its days (OpenStreetMap's reading). */
  readonly overrides: boolean;
  /** A rule bound to dates (`Apr 10-15 off`): the weekdays of the --hours-as-of week it holds for. */
  readonly within?: ReadonlySet<number>;
  /** The rule as written, for messages: made only when one is written. */
  readonly text: () => string;
}

class Unreadable extends Error {
  constructor(
    message: string,
    readonly code?: 'AMBIGUOUS_TIME',
    readonly fixes?: readonly Fix[],
    /** The message says what to do: it is not followed by the example of a week. */
    readonly alone?: boolean,
  ) {
    super(message);
  }
}

/** A week's hours: the days that could be read, and the problems of the rest (none when absent). */
export interface WeekHours {
  readonly period: Record<string, DayHours>;
  readonly problems?: DayProblem[];
  /** What was read but left out, for a warning: the rules about holidays (`PH off`). */
  readonly holidays?: readonly string[];
  /** The rules read as the service's whole day, 6-30, for a note (`24/7`, `Sa-Su open 24 hours`). */
  readonly allDay?: readonly string[];
  /** The week's own times that settled a clock question (`10am` in `Mon-Fri 10am - 6`), for a note. */
  readonly clock?: ClockEvidence;
}

/**
 * Noon and midnight in words (`noon`, `12nn`, `midday`; `midnight`, `12mn` after a dash or `to`) as
 * the times the week reader knows: 12:00, and 24:00 for a closing midnight.
 */
function clockWords(text: string): string {
  return text
    .replace(/\b(?:12(?::00)?\s*(?:noon|nn|n\.n\.)|noon|midday)(?![\p{L}])/giu, '12:00')
    .replace(/([-–—]\s*|\bto\s+)(?:12(?::00)?\s*(?:midnight|mn|m\.n\.)|midnight)(?![\p{L}])/giu, '$124:00');
}

/** The cell as messages quote it: a cell of a megabyte is not repeated whole in each message. */
function quoted(text: string): string {
  const t = text.trim();
  return t.length <= 200 ? t : `${t.slice(0, 200)}…`;
}

/**
 * The days of a week cell. Days that could be read are returned even when others could not, so the
 * contract still checks them: one problem hides no other of the record (the `problems` say which
 * days are missing). An unreadable cell as a whole gives no days.
 */
export function parseWeek(text: string, options: CellOptions): WeekHours {
  const cell = quoted(text);
  const problem = (message: string, code?: 'AMBIGUOUS_TIME', fixes?: readonly Fix[], write?: string): WeekHours => ({
    period: {},
    problems: [{ day: undefined, message, ...(code && { code }), ...(fixes && { fixes }), ...(write !== undefined && { write }) }],
  });
  // `Open 24 hours` is every day the service's whole day (6-30), noted; `Closed` is a week closed every day.
  if (isAllDay(text)) return { period: Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [String(d), { ...WHOLE_DAY }])), allDay: [cell] };
  if (isClosed(text)) return { period: {} };
  const source = clockWords(text);
  const attempt = (timeFormat: CellOptions['timeFormat']): Rules | Unreadable => {
    try {
      return readRules(tokenize(source, true), { ...options, timeFormat });
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      return err;
    }
  };
  let read = attempt(options.timeFormat);
  let clock: ClockEvidence | undefined;
  if (read instanceof Unreadable && read.code === 'AMBIGUOUS_TIME') {
    // The same week written elsewhere on one clock (`Mon-Fri 10am - 6`, `Mo-Sa 7-11, Su 10-16`) settles it.
    const evidence = clockEvidence([[text]], [0]);
    const again = evidence && attempt(evidenceFormat(options.timeFormat, evidence));
    if (again && !(again instanceof Unreadable)) [read, clock] = [again, evidence];
  }
  if (read instanceof Unreadable) {
    if (read.code || read.alone) return problem(`'${cell}': ${read.message}`, read.code, read.alone ? read.fixes : undefined);
    return problem(`'${cell}' is not a week the tool can read: ${read.message}; write it as ${EXAMPLE}, or use one column per day`, undefined, read.fixes);
  }
  const { rules, holidays, allDay } = read;
  const notes = { ...(holidays.length && { holidays }), ...(allDay.length && { allDay }), ...(clock && { clock }) };
  if (!rules.length && holidays.length) return { period: {}, ...notes };
  if (!rules.length) return problem(`'${cell}' names no weekday; write the week as ${EXAMPLE}`);

  const refs = rules.flatMap((r) => refsOf(r.items));
  const letters = checkLetters(refs, (ref) => `'${ref.raw}'`);
  if (letters) return problem(`the days in '${cell}' are unclear: ${letters}`);
  const resolved = resolveRefs(refs, (ref) => `'${ref.raw}'`);
  if ('ambiguous' in resolved) {
    return problem(`the days in '${cell}' can be read in more than one language: ${resolved.ambiguous}; write full day names (Dienstag, dimanche…)`);
  }
  const dayOf = (ref: DayRef) => resolved.days.get(ref)!;
  for (const rule of rules) {
    const unclear = unclearItems(rule.items, dayOf);
    if (unclear) return problem(`the days in '${cell}' are unclear: ${unclear}`);
  }

  const ruleOf = new Map<number, number>();
  const problems: DayProblem[] = [];
  const twice = new Set<number>();
  rules.forEach((rule, r) => {
    for (const day of expand(rule.items, dayOf)) {
      if (rule.within && !rule.within.has(day)) continue;
      const earlier = ruleOf.get(day);
      // Each day once, however often it is repeated: the problems stay as few as the days.
      if (earlier !== undefined && !rule.overrides && !twice.has(day)) {
        twice.add(day);
        problems.push({
          day,
          message: `the day is given twice in '${cell}' ('${rules[earlier]!.text()}' and '${rule.text()}'); keep one, or separate the rules with ';' to let the later one replace the earlier`,
        });
      }
      ruleOf.set(day, r);
    }
  });

  const period: Record<string, DayHours> = {};
  const byRule = new Map<number, number[]>();
  for (const [day, r] of ruleOf) if (!twice.has(day)) byRule.set(r, [...(byRule.get(r) ?? []), day]);
  for (const [r, days] of byRule) {
    const periods = rules[r]!.periods;
    if (periods === 'closed') continue;
    const one = onePeriod(periods, options.splitHours);
    if (one === 'closed') continue;
    if ('split' in one) problems.push({ day: days[0], days, message: one.split, code: 'SPLIT_HOURS' });
    else for (const day of days) period[String(day)] = one;
  }
  return problems.length ? { period, problems, ...notes } : { period, ...notes };
}

interface Rules {
  readonly rules: Rule[];
  /** The rules about public or school holidays, left out (see HOLIDAYS). */
  readonly holidays: string[];
  /** The rules read as the service's whole day (`24/7`, `Mo-Fr 24h`). */
  readonly allDay: string[];
}

function readRules(tokens: readonly Token[], options: CellOptions): Rules {
  const rules: Rule[] = [];
  const holidays: string[] = [];
  const allDay: string[] = [];
  // The rule just read was about holidays only: times after it have no days to belong to.
  let afterHolidays = false;
  // A week written with AM/PM reads as Google writes it (see meridiem in ./hours.ts).
  const google = tokens.some((t) => t.kind === 'time' && /[ap]\.?\s?m\.?$/i.test(t.text));
  let i = 0;
  const word = (k: number, set: ReadonlySet<string>) => tokens[k]?.kind === 'word' && set.has(tokens[k].text);
  const shown = (from: number, to: number) =>
    tokens
      .slice(from, to)
      .map((t) => t.raw.trim())
      .join(' ')
      .replace(/ ([,、])/g, '$1');
  // A long week repeats its ranges: each is read once.
  const ranges = new Map<string, ReturnType<typeof parseRange>>();
  const joint = (k: number) => tokens[k]?.kind === 'comma' || tokens[k]?.kind === 'and' || word(k, AND);
  // How many tokens from k say "open around the clock" (`open 24 hours`, `24h`, `24/7`), or 0.
  const wholeDay = (k: number) => [3, 2, 1].find((n) => k + n <= tokens.length && isAllDay(shown(k, k + n))) ?? 0;
  const startsTime = (k: number) => tokens[k]?.kind === 'time' || (word(k, BEFORE_TIME) && tokens[k + 1]?.kind === 'time');
  while (i < tokens.length) {
    let overrides = false;
    for (; tokens[i]?.kind === 'semi' || tokens[i]?.kind === 'comma'; i++) if (tokens[i]!.kind === 'semi') overrides = true;
    if (i >= tokens.length) break;
    const start = i;
    if (tokens[i]!.text === '24/7') {
      // Every day around the clock: the service's whole day (6-30), noted.
      allDay.push('24/7');
      rules.push({ items: [{ group: EVERY_DAY, raw: '' }], periods: [{ ...WHOLE_DAY }], overrides: overrides && rules.length > 0, text: () => '24/7' });
      i++;
      continue;
    }
    // A rule bound to dates comes first (`Apr 10-15 off`, `Dec 24-26 Mo-Fr 10-14`).
    const dates = parseDates(tokens, i);
    if (dates) i = dates.end;
    // Holidays before the days: joined to them (`PH, Su off`) the rule is about both; written before
    // them (`SH Mo-Fr 09:00-19:00`) it is about those days in the holidays only (OpenStreetMap's reading).
    let holiday = false;
    let joined = false;
    for (; word(i, HOLIDAYS); i++) {
      holiday = true;
      joined = joint(i + 1) && (word(i + 2, HOLIDAYS) || parseSelector(tokens, i + 2, false) !== undefined);
      if (joined) i++;
    }
    const onlyHolidays = holiday && !joined;
    const selector = parseSelector(tokens, i, false);
    if (selector) i = selector.end;
    for (; selector && joint(i) && word(i + 1, HOLIDAYS); i += 2) holiday = true;
    // Times with no day before them are every day's (OpenStreetMap's `10:00-20:00`).
    const items = onlyHolidays ? undefined : (selector?.items ?? (!holiday && (dates || startsTime(i)) ? [{ group: EVERY_DAY, raw: '' }] : undefined));
    if (!items && !holiday) throw new Unreadable(`'${shown(i, i + 3)}' is not a day such as Mo, Monday or Mo-Fr`);
    if (tokens[i]?.kind === 'colon') i++;
    let periods: DayHours[] | 'closed';
    if (tokens[i] && isClosedWord(tokens[i]!)) {
      periods = 'closed';
      i++;
      // `Su closed all day`
      if (tokens[i]?.text === 'all' && tokens[i + 1]?.text === 'day') i += 2;
    } else if (wholeDay(i) > 0) {
      // `Sa-Su open 24 hours`, `Mo-Fr 24h`: the service's whole day (6-30), noted.
      i += wholeDay(i);
      periods = [{ ...WHOLE_DAY }];
      allDay.push(shown(start, i));
    } else {
      periods = [];
      for (;;) {
        if (word(i, BEFORE_TIME)) i++;
        const since = tokens[i];
        const through = tokens[i + 1];
        const to = tokens[i + 2];
        if (since?.kind !== 'time' || !(through?.kind === 'dash' || word(i + 1, THROUGH)) || to?.kind !== 'time') {
          throw new Unreadable(`after '${shown(start, i)}' comes '${shown(i, i + 3) || 'nothing'}', not a range such as 09:00-18:00 or closed`);
        }
        const written = `${since.text}-${to.text}`;
        const range = ranges.get(written) ?? ranges.set(written, parseRange(written, options.timeFormat, google)).get(written)!;
        if (range === 'closed' || 'error' in range)
          throw new Unreadable(
            range === 'closed' ? 'an empty range' : range.error,
            range === 'closed' ? undefined : range.code,
            range === 'closed' ? undefined : range.fixes,
          );
        periods.push(range);
        i += 3;
        const next = word(i + 1, BEFORE_TIME) ? i + 2 : i + 1;
        if (joint(i) && tokens[next]?.kind === 'time') i++;
        else break;
      }
    }
    // A rule ends at `;`, `,` or where the next one's days begin (`Mo-Fr 10-21 Sa 9-21`).
    const after = tokens[i];
    if (after && after.kind !== 'semi' && after.kind !== 'comma' && !word(i, HOLIDAYS) && !parseSelector(tokens, i, false)) {
      throw new Unreadable(`'${shown(i, i + 3)}' after '${shown(start, i)}' is not understood`);
    }
    if (holiday) holidays.push(shown(start, i));
    const end = i;
    const text = () => shown(start, end);
    if (dates && !options.hoursAsOf) {
      throw new Unreadable(
        `'${text()}' holds on some dates only, and the service holds one week; pass --hours-as-of YYYY-MM-DD to send the week holding that date (--hours-as-of ${today()} for this week)`,
        undefined,
        [{ kind: 'flags', args: ['--hours-as-of', today()] }],
        true,
      );
    }
    const within = dates && daysWithin(dates, options.hoursAsOf!);
    // `PH 10-14` alone is only about holidays; `Su,PH off` is still about Sunday.
    if (!items) {
      afterHolidays = true;
      continue;
    }
    const prior = rules.at(-1);
    if (overrides && prior && !selector && !dates && !holiday) {
      // Times alone after `;` (`Mo-Fr 8:30-11:30; 13:00-16:30`) are a second period of the rule
      // before, as people mean them; OpenStreetMap would give the whole week 13:00-16:30 and drop
      // the morning (docs/decisions.md, "Departures from opening_hours.js").
      if (afterHolidays || prior.within || periods === 'closed' || prior.periods === 'closed') {
        throw new Unreadable(
          `'${text()}' names no days, and after '${prior.text()}' its days are unclear; write the days before it (Mo-Fr 08:30-11:30, 13:00-16:30; Sa 10:00-14:00)`,
          undefined,
          undefined,
          true,
        );
      }
      const before = prior.text;
      rules[rules.length - 1] = { ...prior, periods: [...prior.periods, ...periods], text: () => `${before()}; ${text()}` };
    } else rules.push({ items, periods, overrides: overrides && rules.length > 0, text, ...(within && { within }) });
    afterHolidays = false;
  }
  return { rules, holidays, allDay };
}

function isClosedWord(token: Token): boolean {
  return token.kind === 'word' && isClosed(token.raw);
}

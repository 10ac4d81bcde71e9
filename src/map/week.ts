// A whole week in one cell, as people and services write it:
//   Mo-Fr 9-18, Sa 9-14                                   day ranges with times
//   Mo-Fr 09:00-18:00; Sa 09:00-14:00; Su off             OpenStreetMap's opening_hours
//   Monday: 9 AM – 6 PM, Tuesday: 9 AM – 6 PM, …          Google's list
//   du lundi au vendredi de 9h à 19h, samedi 9h-13h       the same in words, in six languages
// A day the cell does not name is closed (as in OpenStreetMap). Anything not understood is an error
// for the whole cell, never a closed day. See docs/decisions.md for why this is not the
// `opening_hours` package.
import { checkLetters, expand, parseSelector, refsOf, resolveRefs, tokenize, type DayItem, type Token } from './day-words.js';
import { isAllDay, isClosed, onePeriod, parseRange, type CellOptions, type DayHours, type DayProblem } from './hours.js';

const BEFORE_TIME = new Set(['from', 'von', 'van', 'vanaf', 'de', 'du', 'des', 'desde', 'dalle', 'dal', 'da', 'ab']);
const THROUGH = new Set(['to', 'till', 'until', 'through', 'thru', 'bis', 'tot', 't/m', 'a', 'au', 'al', 'alle', 'hasta']);
const AND = new Set(['and', 'und', 'en', 'et', 'e', 'y']);
const EXAMPLE = 'Mo-Fr 09:00-18:00; Sa 09:00-14:00; Su off';

interface Rule {
  readonly items: readonly DayItem[];
  readonly periods: readonly DayHours[] | 'closed';
  /** After a `;` or a line break a rule overrides earlier ones for its days (OpenStreetMap's reading). */
  readonly overrides: boolean;
  readonly text: string;
}

class Unreadable extends Error {}

/** A week's hours: the days that could be read, and the problems of the rest (none when absent). */
export interface WeekHours {
  readonly period: Record<string, DayHours>;
  readonly problems?: DayProblem[];
}

/**
 * The days of a week cell. Days that could be read are returned even when others could not, so the
 * contract still checks them: one problem hides no other of the record (the `problems` say which
 * days are missing). An unreadable cell as a whole gives no days.
 */
export function parseWeek(text: string, options: CellOptions): WeekHours {
  const problem = (message: string): WeekHours => ({ period: {}, problems: [{ day: undefined, message }] });
  if (isAllDay(text))
    return problem(`'${text.trim()}' (open around the clock) has no exact form on the wire; write Mo-Su 6-30, the widest day the service accepts`);
  let rules: Rule[];
  try {
    rules = readRules(tokenize(text, true), options);
  } catch (err) {
    if (!(err instanceof Unreadable)) throw err;
    return problem(`'${text.trim()}' is not a week the tool can read: ${err.message}; write it as ${EXAMPLE}, or use one column per day`);
  }
  if (!rules.length) return problem(`'${text.trim()}' names no weekday; write the week as ${EXAMPLE}`);

  const refs = rules.flatMap((r) => refsOf(r.items));
  const letters = checkLetters(refs, (ref) => `'${ref.raw}'`);
  if (letters) return problem(`the days in '${text.trim()}' are unclear: ${letters}`);
  const resolved = resolveRefs(refs, (ref) => `'${ref.raw}'`);
  if ('ambiguous' in resolved) {
    return problem(`the days in '${text.trim()}' can be read in more than one language: ${resolved.ambiguous}; write full day names (Dienstag, dimanche…)`);
  }

  const ruleOf = new Map<number, number>();
  const problems: DayProblem[] = [];
  rules.forEach((rule, r) => {
    for (const day of expand(rule.items, (ref) => resolved.days.get(ref)!)) {
      const earlier = ruleOf.get(day);
      if (earlier !== undefined && !rule.overrides) {
        problems.push({
          day,
          message: `the day is given twice in '${text.trim()}' ('${rules[earlier]!.text}' and '${rule.text}'); keep one, or separate the rules with ';' to let the later one replace the earlier`,
        });
      }
      ruleOf.set(day, r);
    }
  });
  const twice = new Set(problems.map((p) => p.day));

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
  return problems.length ? { period, problems } : { period };
}

function readRules(tokens: readonly Token[], options: CellOptions): Rule[] {
  const rules: Rule[] = [];
  // A week written with AM/PM reads as Google writes it (see meridiem in ./hours.ts).
  const google = tokens.some((t) => t.kind === 'time' && /[ap]\.?\s?m\.?$/i.test(t.text));
  let i = 0;
  const word = (k: number, set: ReadonlySet<string>) => tokens[k]?.kind === 'word' && set.has(tokens[k].text);
  const shown = (from: number, to: number) =>
    tokens
      .slice(from, to)
      .map((t) => t.raw.trim())
      .join(' ');
  while (i < tokens.length) {
    let overrides = false;
    for (; tokens[i]?.kind === 'semi' || tokens[i]?.kind === 'comma'; i++) if (tokens[i]!.kind === 'semi') overrides = true;
    if (i >= tokens.length) break;
    const start = i;
    const whole = tokens.slice(i).map((t) => t.text);
    if (whole[0] === '24/7')
      throw new Unreadable(`'24/7' (open around the clock) has no exact form on the wire; write Mo-Su 6-30, the widest day the service accepts`);
    // Public and school holidays have no place on the wire: a closed one changes nothing.
    if (word(i, new Set(['ph', 'sh'])) && tokens[i + 1] && isClosedWord(tokens[i + 1]!)) {
      i += 2;
      continue;
    }
    const selector = parseSelector(tokens, i, false);
    if (!selector) throw new Unreadable(`'${shown(i, i + 3)}' is not a day such as Mo, Monday or Mo-Fr`);
    i = selector.end;
    if (tokens[i]?.kind === 'colon') i++;
    let periods: DayHours[] | 'closed';
    if (tokens[i] && isClosedWord(tokens[i]!)) {
      periods = 'closed';
      i++;
    } else if (tokens[i]?.text === 'open' && /^24\b/.test(tokens[i + 1]?.text ?? '') && tokens[i + 2]?.text === 'hours') {
      throw new Unreadable(`'${shown(start, i + 3)}' (open around the clock) has no exact form on the wire; write 6-30, the widest day the service accepts`);
    } else {
      periods = [];
      for (;;) {
        if (word(i, BEFORE_TIME)) i++;
        const since = tokens[i];
        const joint = tokens[i + 1];
        const to = tokens[i + 2];
        if (since?.kind !== 'time' || !(joint?.kind === 'dash' || word(i + 1, THROUGH)) || to?.kind !== 'time') {
          throw new Unreadable(`after '${shown(start, i)}' comes '${shown(i, i + 3) || 'nothing'}', not a range such as 09:00-18:00 or closed`);
        }
        const range = parseRange(`${since.text}-${to.text}`, options.timeFormat, google);
        if (range === 'closed' || 'error' in range) throw new Unreadable(range === 'closed' ? 'an empty range' : range.error);
        periods.push(range);
        i += 3;
        const between = tokens[i]?.kind === 'comma' || tokens[i]?.kind === 'and' || word(i, AND);
        const next = word(i + 1, BEFORE_TIME) ? i + 2 : i + 1;
        if (between && tokens[next]?.kind === 'time') i++;
        else break;
      }
    }
    const after = tokens[i];
    if (after && after.kind !== 'semi' && after.kind !== 'comma') {
      throw new Unreadable(`'${shown(i, i + 3)}' after '${shown(start, i)}' is not understood`);
    }
    rules.push({ items: selector.items, periods, overrides: overrides && rules.length > 0, text: shown(start, i) });
  }
  return rules;
}

function isClosedWord(token: Token): boolean {
  return token.kind === 'word' && isClosed(token.raw);
}

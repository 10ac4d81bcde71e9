// Opening hours as people write them, to the wire's numbers: 9:30 is 9.5, and a closing time at or
// before the opening time is past midnight (18:00-02:00 is since 18, to 26).

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * A time of day in hours, or undefined when the text is not one. `24:00` is midnight at close; with
 * `pastMidnight`, a closing time may also be written in the wire's own terms, up to 30 (26 is 02:00).
 */
import type { Fix } from '../errors.js';
import { says, type TimeFormats } from './time-format.js';

import { bareClock, clock, pastMidnight } from './twelve-hour.js';

export { clock };

/** `21.30` or `8,45`: two digits after a dot or comma read as minutes in some files, as hundredths in others. */
export const AMBIGUOUS = 'ambiguous';

/**
 * The hour words people write after a time, dropped before reading it: `20:00 Uhr`, `9 uur`, `9 ore`,
 * `18 hrs`; and the French hour `9h`, `19h30`, `9 h 30`, read as `9`, `19:30`, `9:30`.
 */
export function plainTime(text: string): string {
  return text
    .normalize('NFKC')
    .trim()
    .replace(/\s*(?:uhr|uur|ore|hrs?|std\.?)$/i, '')
    .replace(/^(\d{1,2})\s*h(?:\s*(\d{2}))?$/i, (_, h: string, m?: string) => (m === undefined ? h : `${h}:${m}`));
}

// Noon and midnight in words, as signs write them: `noon`, `midday`, `12 noon`, `12nn` (the
// Philippines), `midnight`, `12 midnight`, `12mn`. They say which 12 they are, so no clock is asked.
const NOON = /^(?:12(?::00)?\s*(?:noon|midday|n\.?n\.?)|noon|midday)$/i;
const MIDNIGHT = /^(?:12(?::00)?\s*(?:midnight|m\.?n\.?)|midnight)$/i;
// Military time, four digits: `0900`, `1730` (a 24-hour clock by its form).
const MILITARY = /^([01]\d|2[0-4])([0-5]\d)$/;

export function parseTime(text: string, pastMidnight = false, format?: TimeFormats): number | undefined | typeof AMBIGUOUS {
  const plain = plainTime(text);
  if (NOON.test(plain)) return 12;
  // Midnight closes a day at 24:00 (the wire's end of the day) and opens one at 00:00.
  if (MIDNIGHT.test(plain)) return pastMidnight ? 24 : 0;
  const military = MILITARY.exec(plain);
  if (military) {
    const hours = Number(military[1]) + Number(military[2]) / 60;
    return hours > 24 || (hours === 24 && !pastMidnight) ? undefined : hours;
  }
  // 9 | 9.5 | 9,5 | 9:30 | 09:30 | 09:30:00, then an optional AM/PM marker: 9 AM, 9:30pm, 9:30 p.m.
  // Spreadsheets display times with seconds (09:30:00 AM); seconds other than :00 are not a time we send.
  const m = /^(\d{1,2})(?:([:.,])(\d{1,2})(?::(\d{2}))?)?(?:\s*([ap])\.?\s*m?\.?)?$/i.exec(plain);
  if (!m) return undefined;
  const [, h, sep, frac, seconds, ampm] = m;
  if (seconds !== undefined && (sep !== ':' || seconds !== '00')) return undefined;
  let hours = Number(h);
  let minutes = 0;
  if (frac !== undefined) {
    if (sep === ':') {
      if (frac.length !== 2) return undefined;
      minutes = Number(frac);
    } else if (ampm && frac.length === 2) {
      // `5.30pm`: AM/PM says it is a clock, and a clock's two digits are minutes (17:30, never 5.3 hours).
      minutes = Number(frac);
    } else if (frac === '00') {
      // 9.00 is nine o'clock read either way: minutes or hundredths of an hour agree.
      minutes = 0;
    } else if (frac.length === 2 && (says(format, 'clock') || (!says(format, 'decimal') && Number(frac) < 60))) {
      // 08,30 is 08:30 to many Europeans and 8.3 hours to a spreadsheet: only the user can say which.
      // (Undeclared, 21,75 can only be hours: no clock has 75 minutes.)
      if (!says(format, 'clock')) return AMBIGUOUS;
      minutes = Number(frac);
    } else {
      // 9.5 and 9,5 are decimal hours
      minutes = Number(`0.${frac}`) * 60;
    }
    if (minutes >= 60) return undefined;
  }
  if (ampm) {
    if (hours < 1 || hours > 12) return undefined;
    const pm = ampm.toLowerCase() === 'p';
    if (hours === 12) hours = pm ? 12 : 0;
    else if (pm) hours += 12;
  }
  const max = pastMidnight && !ampm ? 30 : 24;
  if (hours > max || (hours === max && minutes > 0)) return undefined;
  return hours + minutes / 60;
}

export type DayHours = { since: number; to: number };
/** A problem with a day's hours; AMBIGUOUS_TIME where the text has two readings (./twelve-hour.ts). */
export interface HoursError {
  readonly error: string;
  readonly code?: 'AMBIGUOUS_TIME';
  /** The flags its message offers: for a time written with a dot or a comma, CLOCK_OR_DECIMAL. */
  readonly fixes?: readonly Fix[];
  /** The text its message says to write instead of the whole cell (`6-30` for `24h`). */
  readonly write?: string;
}

/** A time such as `21.30` reads as a clock or as hours: the message offers both flags (timeError). */
export const CLOCK_OR_DECIMAL: readonly Fix[] = [
  { kind: 'flags', args: ['--time-format', 'clock'] },
  { kind: 'flags', args: ['--time-format', 'decimal'] },
];
export type HoursResult = DayHours | 'closed' | HoursError;

// "Closed" in the languages of ./weekdays.ts, compared folded (fermé as ferme, stängt as stangt).
// Made on first use: folding normalises each word twice, a millisecond of every start-up, and only a
// run that reads opening hours asks.
let closedMade: ReadonlySet<string> | undefined;
const CLOSED = () =>
  (closedMade ??= new Set(
    [
      '',
      'closed',
      'close',
      'closed all day',
      'closed all-day',
      '-',
      '–',
      'x',
      'none',
      'no',
      'off',
      'geschlossen',
      'zu',
      'ruhetag',
      'gesloten',
      'dicht',
      'ferme',
      'fermee',
      'cerrado',
      'cerrada',
      'chiuso',
      'chiusa',
      'fechado',
      'fechada',
      'encerrado',
      'zamknięte',
      'zamknięty',
      'nieczynne',
      'nieczynny',
      'stängt',
      'lukket',
      'stengt',
      'kapalı',
      '休み',
      '休業',
      '休業日',
      '定休',
      '定休日',
    ].map(folded),
  ));

function folded(text: string): string {
  return text
    .trim()
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i');
}

export function isClosed(text: string): boolean {
  return CLOSED().has(folded(text));
}

// "Around the clock" has no exact wire form: the service's whole day is 6-30 (06:00 to 06:00 next
// day), which is what a sign saying `Open 24 hours` means to a customer. Read as that, with a note.
const ALL_DAY =
  /^(?:open\s+)?(?:24\s*(?:h|hrs?|hours?|std\.?|stunden|uur|ore)(?:\s*\/\s*24)?|24\s*\/\s*7|24\s*x\s*7|(?:a?round|all)\s+the\s+clock|rund um die uhr|ganztagig|jour et nuit|dia y noche|non stop|nonstop|always open)$/;

export function isAllDay(text: string): boolean {
  return ALL_DAY.test(folded(text));
}

/** The service's whole day, 06:00 to 06:00 next day: what `Open 24 hours` is sent as. */
export const WHOLE_DAY: DayHours = { since: 6, to: 30 };

export function timeError(which: 'opening' | 'closing', text: string, result: undefined | typeof AMBIGUOUS): string {
  const t = text.trim();
  if (result === AMBIGUOUS) {
    const m = /^(\d{1,2})[.,](\d{2})/.exec(t)!;
    return `${which} time '${t}' could be ${m[1]!.padStart(2, '0')}:${m[2]} or ${Number(`${m[1]}.${m[2]}`)} hours; say how the file writes times with --time-format clock (${t} is ${m[1]!.padStart(2, '0')}:${m[2]}) or --time-format decimal, or write ${m[1]!.padStart(2, '0')}:${m[2]}`;
  }
  if (!t) return `the ${which} time is missing`;
  return which === 'opening' ? `opening time '${t}' is not a time such as 9, 9:30 or 9:30 AM` : `closing time '${t}' is not a time such as 22, 22:00 or 10 PM`;
}

/** Both ends of a day; a close at or before the open means past midnight. */
export function dayHours(sinceText: string, toText: string, format?: TimeFormats): HoursResult {
  const since = parseTime(sinceText, false, format);
  const to = parseTime(toText, true, format);
  if ((since === AMBIGUOUS || to === AMBIGUOUS) && !says(format, 'decimal')) {
    // `9.30-5.30` (a UK sign): read as clocks it closes before it opens, as no spreadsheet's decimal
    // hours do from a daytime opening, so the dots are a clock's; the 12- or 24-hour question remains.
    const clockFormat = format === undefined ? 'clock' : `${format},clock`;
    const s = parseTime(sinceText, false, clockFormat);
    const t = parseTime(toText, true, clockFormat);
    if (typeof s === 'number' && typeof t === 'number' && t < s && s < 13) return dayHours(sinceText, toText, clockFormat);
  }
  if (since === undefined || since === AMBIGUOUS)
    return { error: timeError('opening', sinceText, since), ...(since === AMBIGUOUS && { fixes: CLOCK_OR_DECIMAL }) };
  if (to === undefined || to === AMBIGUOUS) return { error: timeError('closing', toText, to), ...(to === AMBIGUOUS && { fixes: CLOCK_OR_DECIMAL }) };
  const bare = bareClock(sinceText, toText, since, to, format);
  if (bare !== undefined) return 'ambiguous' in bare ? { error: bare.ambiguous, code: 'AMBIGUOUS_TIME' } : bare;
  if (to === since) {
    return {
      // A pair of columns cannot hold "6-30": each end is said for both layouts.
      error: `opening and closing time are both ${sinceText.trim()}; for a day open around the clock write 6-30 (opening 6, closing 30: the widest the service accepts), for a closed day leave it empty`,
    };
  }
  if (to > since) return { since: round(since), to: round(to) };
  const night = pastMidnight(sinceText, toText, since, to, format);
  return 'ambiguous' in night ? { error: night.ambiguous, code: 'AMBIGUOUS_TIME' } : { since: round(since), to: round(night.to) };
}

/** Google writes `9 AM – 6 PM` with narrow and thin no-break spaces; they are spaces. */
export function spaced(text: string): string {
  return text.normalize('NFKC').replace(/[\u00a0\u2007\u2009\u200a\u202f]/g, ' ');
}

// Words that open a range (`von 9 bis 18`, `de 9h à 19h`, `dalle 9 alle 19`, `van 9 tot 18`) and
// that join its ends; the dashes include the hyphen, the en and em dash and the minus sign.
const FROM = /^(?:from|von|ab|van|vanaf|de|du|des|dès|desde|dalle|dalla|dal|da|das|od|fra|från)\s+(?=\d)/i;
const TO = /\s*[-–—‐−~〜]\s*|\s+(?:to|till|until|through|thru|bis|tot|t\/m|à|a|au|al|alle|hasta|às|as|até|do|til)\s+/i;

/** A range in one cell: `09:00-22:00`, `9-22`, `9:30 – 1:00`, `9 AM - 5 PM`, `closed` or empty. */
export function parseRange(text: string, format?: TimeFormats, google = false): HoursResult {
  if (isClosed(text)) return 'closed';
  // The caller notes that it was read so (OPEN_ALL_DAY), finding it with isAllDay.
  if (isAllDay(text)) return { ...WHOLE_DAY };
  const parts = spaced(text).trim().replace(FROM, '').split(TO);
  if (parts.length !== 2) return { error: `'${text.trim()}' is not a range such as 09:00-22:00, 9-22 or closed` };
  const [since, to] = google ? meridiem(parts[0]!, parts[1]!) : [parts[0]!, parts[1]!];
  const result = dayHours(since, to, format);
  if (typeof result !== 'object' || !('error' in result)) return result;
  // The ambiguity names the range itself.
  return result.code ? result : { ...result, error: `'${text.trim()}': ${result.error}` };
}

/**
 * Google's list leaves out the first AM/PM when both ends share it (`11 AM – 2 PM, 5 – 10 PM`): there
 * the opening time takes the closing time's marker. Only in a week written with AM/PM: in a cell of
 * its own, an opening time without a marker is a 24-hour time (`09:00 - 10 PM` is 9 to 22).
 */
function meridiem(since: string, to: string): [string, string] {
  const marker = /\s*([ap])\.?\s*m\.?$/i.exec(to.trim());
  if (!marker || /[ap]\.?\s*m?\.?$/i.test(since.trim()) || !/^\d{1,2}(?::\d{2})?$/.test(since.trim())) return [since, to];
  return [`${since.trim()} ${marker[1]}m`, to];
}

/** One day's cell: a range, closed, or several ranges (a lunch break: `9-12, 14-18`, `9-12 / 14-18`). */
export type DayResult = { periods: DayHours[] } | 'closed' | HoursError;

// Between the periods of one day: `,` `;` `/` `&` `+` a line break, `and` in the six languages, or
// nothing but a space between two ranges (`9:00-12:00 14:00-18:00`).
// The look-ahead reads one time, never the rest of the cell: a cell of a megabyte is read in one pass.
const BETWEEN =
  /\s*(?:[,;/&+\n、]|\s(?:and|und|en|et|e|y|i|och|og|ve)\s)\s*|(?<=\d(?:\s*(?:[ap]\.?m\.?|h|uhr))?)\s+(?=(?:de\s+|von\s+|dalle\s+)?\d{1,2}(?:[:.,h]\d{1,2}(?::\d{2})?)?\s?(?:[ap]\.?m\.?|h|uhr)?\s?[-–—~〜])/i;

export function parseDay(text: string, format?: TimeFormats): DayResult {
  const whole = parseRange(text, format);
  if (whole === 'closed') return whole;
  if (!('error' in whole)) return { periods: [whole] };
  // Runs of spaces made one, so no pattern scans a long run again from each of its characters.
  const parts = spaced(text)
    .replace(/[^\S\n]+/g, ' ')
    .trim()
    .split(BETWEEN)
    .filter((p) => p !== '');
  if (parts.length < 2) return whole;
  const periods: DayHours[] = [];
  // `11 AM – 2 PM, 5 – 10 PM`: a cell written with AM/PM shares a marker as Google's list does (meridiem).
  const google = /\d\s*[ap]\.?\s?m\b/i.test(text);
  for (const part of parts) {
    const one = parseRange(part, format, google);
    // A part that is no range (`8,30-21,30` cut at its comma) means the cut was wrong: the whole's
    // error stands. A part with two readings (`9-12, 1-5`) is that part's question.
    if (one !== 'closed' && 'code' in one) return one;
    if (one === 'closed' || 'error' in one) return whole;
    periods.push(one);
  }
  return { periods };
}

/** Minutes as a fraction, without floating-point noise: 9:20 is 9.333333, not 9.333333333333334. */
function round(hours: number): number {
  return Math.round(hours * 1e6) / 1e6;
}

/**
 * A day's periods as the one the service holds. Two or more (a lunch break) are an error naming
 * them, unless `span` was asked for: then first opening to last closing, the break counted as open.
 */
export function onePeriod(periods: readonly DayHours[], split: 'span' | undefined): DayHours | 'closed' | { split: string } {
  if (periods.length === 0) return 'closed';
  if (periods.length === 1) return periods[0]!;
  const since = Math.min(...periods.map((p) => p.since));
  const to = Math.max(...periods.map((p) => p.to));
  if (split === 'span') return { since, to };
  const listed = periods.map((p) => `${clock(p.since)}-${clock(p.to)}`);
  return {
    split: `${periods.length === 2 ? 'two' : periods.length} opening periods, ${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}, but the service holds one period per day; write one range, or pass --split-hours span to send ${clock(since)}-${clock(to)} (first opening to last closing, the break counted as open)`,
  };
}

export interface DayProblem {
  /** The weekday the problem is about, or undefined for the object as a whole. */
  readonly day: number | undefined;
  readonly message: string;
  /** SPLIT_HOURS for a day with two periods, AMBIGUOUS_TIME for a 12- or 24-hour range; INVALID_HOURS otherwise. */
  readonly code?: 'SPLIT_HOURS' | 'AMBIGUOUS_TIME';
  /** When one rule of a written week names several days (`Mo-Fr 9-12, 14-18`), all of them. */
  readonly days?: readonly number[];
  /** The flags its message offers, where they depend on the text (HoursError). */
  readonly fixes?: readonly Fix[];
  /** The text its message says to write instead of the whole cell (`Mo-Su 6-30` for `24/7`). */
  readonly write?: string;
}

export interface CellOptions {
  readonly timeFormat?: TimeFormats | undefined;
  readonly splitHours?: 'span' | undefined;
  /** --hours-as-of: the date whose ISO week date-bound rules (`Apr 10-15 off`) are read for; unset, they are refused. */
  readonly hoursAsOf?: string | undefined;
}

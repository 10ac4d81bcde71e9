// Opening hours as people write them, to the wire's numbers: 9:30 is 9.5, and a closing time at or
// before the opening time is past midnight (18:00-02:00 is since 18, to 26).

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * A time of day in hours, or undefined when the text is not one. `24:00` is midnight at close; with
 * `pastMidnight`, a closing time may also be written in the wire's own terms, up to 30 (26 is 02:00).
 */
export type TimeFormat = 'clock' | 'decimal';

/** `21.30` or `8,45`: two digits after a dot or comma read as minutes in some files, as hundredths in others. */
export const AMBIGUOUS = 'ambiguous';

export function parseTime(text: string, pastMidnight = false, format?: TimeFormat): number | undefined | typeof AMBIGUOUS {
  // 9 | 9.5 | 9,5 | 9:30 | 09:30 | 09:30:00, then an optional AM/PM marker: 9 AM, 9:30pm, 9:30 p.m.
  // Spreadsheets display times with seconds (09:30:00 AM); seconds other than :00 are not a time we send.
  const m = /^(\d{1,2})(?:([:.,])(\d{1,2})(?::(\d{2}))?)?(?:\s*([ap])\.?\s*m?\.?)?$/i.exec(text.trim());
  if (!m) return undefined;
  const [, h, sep, frac, seconds, ampm] = m;
  if (seconds !== undefined && (sep !== ':' || seconds !== '00')) return undefined;
  let hours = Number(h);
  let minutes = 0;
  if (frac !== undefined) {
    if (sep === ':') {
      if (frac.length !== 2) return undefined;
      minutes = Number(frac);
    } else if (frac.length === 2 && (format === 'clock' || (format === undefined && Number(frac) < 60))) {
      // 08,30 is 08:30 to many Europeans and 8.3 hours to a spreadsheet: only the user can say which.
      // (Undeclared, 21,75 can only be hours: no clock has 75 minutes.)
      if (format !== 'clock') return AMBIGUOUS;
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
export type HoursResult = DayHours | 'closed' | { error: string };

// "Closed" in the six languages of ./weekdays.ts, written without accents (fermé is compared as ferme).
const CLOSED = new Set([
  '',
  'closed',
  'close',
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
]);

function folded(text: string): string {
  return text
    .trim()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function isClosed(text: string): boolean {
  return CLOSED.has(folded(text));
}

// "Around the clock" has no wire form: the contract's widest day is 6-30 (06:00 to 06:00).
const ALL_DAY =
  /^(?:24\s*(?:h|hrs?|hours?|std\.?|stunden|uur|ore)(?:\s*\/\s*24)?|24\s*\/\s*7|rund um die uhr|ganztagig|jour et nuit|dia y noche|non stop|nonstop|always open|open 24 hours)$/;

export function isAllDay(text: string): boolean {
  return ALL_DAY.test(folded(text));
}

function timeError(which: 'opening' | 'closing', text: string, result: undefined | typeof AMBIGUOUS): string {
  const t = text.trim();
  if (result === AMBIGUOUS) {
    const m = /^(\d{1,2})[.,](\d{2})/.exec(t)!;
    return `${which} time '${t}' could be ${m[1]!.padStart(2, '0')}:${m[2]} or ${Number(`${m[1]}.${m[2]}`)} hours; say how the file writes times with --time-format clock (${t} is ${m[1]!.padStart(2, '0')}:${m[2]}) or --time-format decimal, or write ${m[1]!.padStart(2, '0')}:${m[2]}`;
  }
  if (!t) return `the ${which} time is missing`;
  return which === 'opening' ? `opening time '${t}' is not a time such as 9, 9:30 or 9:30 AM` : `closing time '${t}' is not a time such as 22, 22:00 or 10 PM`;
}

/** Both ends of a day; a close at or before the open means past midnight. */
export function dayHours(sinceText: string, toText: string, format?: TimeFormat): HoursResult {
  const since = parseTime(sinceText, false, format);
  const to = parseTime(toText, true, format);
  if (since === undefined || since === AMBIGUOUS) return { error: timeError('opening', sinceText, since) };
  if (to === undefined || to === AMBIGUOUS) return { error: timeError('closing', toText, to) };
  if (to === since) {
    return {
      error: `opening and closing time are both ${sinceText.trim()}; for a day open around the clock write 6-30 (the widest the service accepts), for a closed day leave it empty`,
    };
  }
  return { since: round(since), to: round(to < since ? to + 24 : to) };
}

/** A range in one cell: `09:00-22:00`, `9-22`, `9:30 – 1:00`, `9 AM - 5 PM`, `closed` or empty. */
export function parseRange(text: string, format?: TimeFormat): HoursResult {
  if (isClosed(text)) return 'closed';
  if (isAllDay(text))
    return {
      error: `'${text.trim()}' (open around the clock) has no exact form on the wire; write 6-30, the widest day the service accepts (06:00 to 06:00 next day)`,
    };
  const parts = text.split(/\s*[-–—]\s*|\s+(?:to|until|bis|tot|à|a|al|alle)\s+/i);
  if (parts.length !== 2) return { error: `'${text.trim()}' is not a range such as 09:00-22:00, 9-22 or closed` };
  const result = dayHours(parts[0]!, parts[1]!, format);
  return typeof result === 'object' && 'error' in result ? { error: `'${text.trim()}': ${result.error}` } : result;
}

/** Minutes as a fraction, without floating-point noise: 9:20 is 9.333333, not 9.333333333333334. */
function round(hours: number): number {
  return Math.round(hours * 1e6) / 1e6;
}

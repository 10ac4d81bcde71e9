// Opening hours as people write them, to the wire's numbers: 9:30 is 9.5, and a closing time at or
// before the opening time is past midnight (18:00-02:00 is since 18, to 26).

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * A time of day in hours, or undefined when the text is not one. `24:00` is midnight at close; with
 * `pastMidnight`, a closing time may also be written in the wire's own terms, up to 30 (26 is 02:00).
 */
export function parseTime(text: string, pastMidnight = false): number | undefined {
  // 9 | 9.5 | 9,5 | 9:30 | 09:30, then an optional AM/PM marker: 9 AM, 9:30pm, 9:30 p.m.
  const m = /^(\d{1,2})(?:([:.,])(\d{1,2}))?(?:\s*([ap])\.?\s*m?\.?)?$/i.exec(text.trim());
  if (!m) return undefined;
  const [, h, sep, frac, ampm] = m;
  let hours = Number(h);
  let minutes = 0;
  if (frac !== undefined) {
    if (sep === ':') {
      if (frac.length !== 2) return undefined;
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

const CLOSED = new Set(['', 'closed', 'close', '-', '–', 'x', 'none', 'no', 'off']);

export function isClosed(text: string): boolean {
  return CLOSED.has(text.trim().toLowerCase());
}

/** Both ends of a day; a close at or before the open means past midnight. */
export function dayHours(sinceText: string, toText: string): HoursResult {
  const since = parseTime(sinceText);
  const to = parseTime(toText, true);
  if (since === undefined) return { error: sinceText.trim() ? `opening time '${sinceText.trim()}' is not a time such as 9, 9:30 or 9:30 AM` : 'the opening time is missing' };
  if (to === undefined) return { error: toText.trim() ? `closing time '${toText.trim()}' is not a time such as 22, 22:00 or 10 PM` : 'the closing time is missing' };
  if (to === since) {
    return { error: `opening and closing time are both ${sinceText.trim()}; for a day open around the clock write 6-30 (the widest the service accepts), for a closed day leave it empty` };
  }
  return { since: round(since), to: round(to < since ? to + 24 : to) };
}

/** A range in one cell: `09:00-22:00`, `9-22`, `9:30 – 1:00`, `9 AM - 5 PM`, `closed` or empty. */
export function parseRange(text: string): HoursResult {
  if (isClosed(text)) return 'closed';
  const parts = text.split(/\s*[-–—]\s*|\s+to\s+/i);
  if (parts.length !== 2) return { error: `'${text.trim()}' is not a range such as 09:00-22:00, 9-22 or closed` };
  const result = dayHours(parts[0]!, parts[1]!);
  return typeof result === 'object' && 'error' in result ? { error: `'${text.trim()}': ${result.error}` } : result;
}

/** Minutes as a fraction, without floating-point noise: 9:20 is 9.333333, not 9.333333333333334. */
function round(hours: number): number {
  return Math.round(hours * 1e6) / 1e6;
}

// `9-5`: on a 24-hour clock 09:00 to 05:00 next day, on a 12-hour clock written without AM/PM 09:00
// to 17:00. Both are written every day (US shop signs; `Mo-Fr 07:45 - 4:00` is in OpenStreetMap
// hundreds of times), so where nothing in the range says which clock it is, the run stops and asks.
// The rule, with its reasons, is in docs/input.md ("Ambiguous clocks").
import { says, type TimeFormats } from './time-format.js';

/** What a range past midnight is, once the clock question has been asked. */
export type NightReading = { readonly to: number } | { readonly ambiguous: string };

const MARKER = /[ap]\.?\s*m?\.?$/i;

/**
 * For a range whose closing time is at or before its opening (`since`, `to` in hours, as written),
 * the closing hour to send: past midnight (`to + 24`), or the same afternoon (`to + 12`) where the
 * file says it writes 12-hour times. Evidence of a 24-hour clock: an hour above 12 at either end, or
 * a closing hour written with its zero (`02:00`); AM/PM at the closing end says it outright.
 */
export function pastMidnight(sinceText: string, toText: string, since: number, to: number, format: TimeFormats | undefined): NightReading {
  const opening = sinceText.trim();
  const closing = toText.trim();
  const twelve = to >= 1 && to < 12 && since < 13 && !MARKER.test(closing) && !/p\.?\s*m?\.?$/i.test(opening) && !/^0\d/.test(closing);
  if (!twelve || says(format, '24h')) return { to: to + 24 };
  // A file that writes `9am-5pm` elsewhere means 17:00 here; one that writes `13-21` elsewhere
  // would write a night's close as `05:00`, so its `9-5` is still asked.
  if (says(format, '12h') || says(format, 'seen12h')) return { to: to + 12 };
  const day = clock(to + 12);
  const night = clock(to);
  const from = clock(since);
  return {
    ambiguous: `'${opening}-${closing}' could be ${from}-${day} (a 12-hour clock) or ${from}-${night} next day (a 24-hour clock); say which with --time-format 12h or --time-format 24h, or write ${day} (or ${night}) for the closing time`,
  };
}

// An hour a 12-hour sign writes bare: 1 to 12, no leading zero, no AM/PM (`7`, `11`, `11:30`). An
// opening of two digits with minutes (`10:00-11:00`) is how a 24-hour clock writes it, and is read so.
const BARE = /^(?:[1-9]|1[0-2])(?:[:.][0-5]\d)?$/;
const BARE_OPENING = /^(?:[1-9]|1[0-2])$|^[1-9][:.][0-5]\d$/;

/**
 * A range of two bare hours that closes after (or at) its opening: `7-11` is 07:00-11:00 on a 24-hour
 * clock and 07:00-23:00 on a US sign; `2-10` (a second shift) is 02:00-10:00 or 14:00-22:00; `10-10`
 * is 10:00-22:00 or around the clock. Undefined where the two clocks agree (`9-12`: 12 is noon on
 * both) or the range is not of this kind; the 12-hour reading where the file says 12h; undefined
 * (read as written) where it says 24h; otherwise the question, naming both readings.
 */
export function bareClock(
  sinceText: string,
  toText: string,
  since: number,
  to: number,
  format: TimeFormats | undefined,
): { since: number; to: number } | { readonly ambiguous: string } | undefined {
  const opening = sinceText.trim();
  const closing = toText.trim();
  if (to < since || !BARE_OPENING.test(opening) || !BARE.test(closing)) return undefined;
  // On a sign, an opening from 1 to 5 is in the afternoon (a second shift); from 6 on, the morning.
  const open12 = since < 6 ? since + 12 : since;
  let close12 = to < 12 ? to + 12 : to;
  if (close12 <= open12) close12 += 12;
  if (open12 === since && close12 === to) return undefined;
  // The file's evidence (./clock-evidence.ts) settles this question as a flag would.
  if (says(format, '24h') || says(format, 'seen24h')) return undefined;
  if (says(format, '12h') || says(format, 'seen12h')) return { since: open12, to: close12 };
  // Midnight as the close is 24:00: `00:00` would read as the same day's start.
  const twelve = `${clock(open12)}-${close12 === 24 ? '24:00' : clock(close12)}`;
  const aroundTheClock = to === since;
  const twentyFour = aroundTheClock
    ? `${clock(since)}-${clock(to)} next day (a 24-hour clock: open around the clock)`
    : `${clock(since)}-${clock(to)} (a 24-hour clock)`;
  // The whole range, each end with its zero (`07:00-11:00`): an opening written so is a 24-hour clock's,
  // and is not asked again, where `7-11:00` would be.
  const write = aroundTheClock ? `write ${twelve} (or 6-30, the service's whole day)` : `write ${twelve} (or ${clock(since)}-${clock(to)})`;
  return {
    ambiguous: `'${opening}-${closing}' could be ${twelve} (a 12-hour clock) or ${twentyFour}; say which with --time-format 12h or --time-format 24h, or ${write}`,
  };
}

/** `09:00`, `14:30`; past midnight as the clock shows it (26 is `02:00`). */
export function clock(hours: number): string {
  const minutes = Math.round(hours * 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;
}

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
  if (says(format, '12h')) return { to: to + 12 };
  const day = clock(to + 12);
  const night = clock(to);
  const from = clock(since);
  return {
    ambiguous: `'${opening}-${closing}' could be ${from}-${day} (a 12-hour clock) or ${from}-${night} next day (a 24-hour clock); say which with --time-format 12h or --time-format 24h, or write ${day} (or ${night}) for the closing time`,
  };
}

/** `09:00`, `14:30`; past midnight as the clock shows it (26 is `02:00`). */
export function clock(hours: number): string {
  const minutes = Math.round(hours * 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;
}

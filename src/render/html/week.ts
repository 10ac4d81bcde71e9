// A store's week as a grid: one row per day, Monday first, a bar for the hours before and after on a
// scale from 06:00 to 06:00 the next morning (the contract's hours run to 30, past midnight), the
// midnight line drawn, a closed day written as such, and the days that differ marked.
import { formatDay } from '../hours.js';
import { esc } from './escape.js';

type Day = { since: number; to: number } | undefined;
export type Week = Readonly<Record<string, Day>>;

const WEEK = ['1', '2', '3', '4', '5', '6', '0'] as const;
const SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const FULL = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The grid line of an hour: 06:00 is line 1, midnight line 73, 06:00 next morning line 97. */
export function gridLine(hours: number): number {
  return Math.min(97, Math.max(1, 1 + Math.round((hours - 6) * 4)));
}

function track(which: 'before' | 'after', day: Day): string {
  if (!day) return `<div class="track ${which}"><span class="closed">closed</span></div>`;
  const start = gridLine(day.since);
  const end = Math.max(start + 1, gridLine(day.to));
  return `<div class="track ${which}"><span class="bar gs-${start} ge-${end}" title="${esc(`${which}: ${formatDay(day)}`)}"></span></div>`;
}

const SCALE =
  '<div class="scale" aria-hidden="true"><span></span><div class="ticks">' +
  '<span class="gs-1">06:00</span><span class="gs-25">12:00</span><span class="gs-49">18:00</span>' +
  '<span class="gs-73">00:00 midnight</span><span class="gs-85 ge-97 end">06:00</span></div><span></span></div>';

/**
 * One store's week. `before` is undefined for a store that is added (only its new hours are drawn).
 * Every day's hours are also written out, so the grid reads without colour and in a screen reader.
 */
export function weekGrid(caption: string, change: 'added' | 'changed', before: Week | undefined, after: Week): string {
  const days = WEEK.map((d) => {
    const b = before?.[d];
    const a = after[d];
    const differs = before !== undefined && formatDay(b) !== formatDay(a);
    const text = before === undefined ? esc(formatDay(a)) : differs ? `<del>${esc(formatDay(b))}</del> → <ins>${esc(formatDay(a))}</ins>` : esc(formatDay(a));
    return (
      `<div class="day${differs ? ' differs' : ''}" data-day="${FULL[Number(d)]}"><span class="dn" title="${FULL[Number(d)]}">${SHORT[Number(d)]}</span>` +
      `<div class="tracks">${before !== undefined ? track('before', b) : ''}${track('after', a)}</div><span class="txt">${text}</span></div>`
    );
  });
  return `<figure class="week" data-change="${change}"><figcaption>${esc(caption)}<span class="tag ${change}">${change}</span></figcaption>${SCALE}${days.join('')}</figure>`;
}

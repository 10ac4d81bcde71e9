// The recorded week as the listings' standards see it: days with the same hours grouped, Monday
// first (as OpenStreetMap, schema.org and Google write a week), and each time as a whole-minute clock.
// The wire's day runs from 6 to 30: a closing hour past 24 is that time on the next day.
import { UsageError } from '../errors.js';

/** The wire's weekday numbers, Sunday "0"; the standards' week starts on Monday. */
export const MONDAY_FIRST = [1, 2, 3, 4, 5, 6, 0] as const;

export interface Hours {
  readonly since: number;
  readonly to: number;
}

/** Days (wire numbers, Monday first) that share the same hours. */
export interface DayGroup {
  readonly days: readonly number[];
  readonly hours: Hours;
}

/** The open days grouped by identical hours, in the order of each group's first day from Monday. */
export function dayGroups(period: unknown): DayGroup[] {
  const days = (period ?? {}) as Record<string, Hours | undefined>;
  const groups: { days: number[]; hours: Hours }[] = [];
  for (const day of MONDAY_FIRST) {
    const hours = days[String(day)];
    if (!hours) continue;
    const same = groups.find((g) => g.hours.since === hours.since && g.hours.to === hours.to);
    if (same) same.days.push(day);
    else groups.push({ days: [day], hours });
  }
  return groups;
}

/**
 * The service's whole day: 06:00 to 06:00 next morning, the widest day it takes, which is how the
 * tool reads "Open 24 hours" (docs/input.md). Listings that have an "open 24 hours" of their own get it.
 */
export const isWholeDay = (hours: Hours): boolean => hours.since === 6 && hours.to === 30;

/** The wire days no hours are recorded for, Monday first. */
export function closedDays(period: unknown): number[] {
  const days = (period ?? {}) as Record<string, Hours | undefined>;
  return MONDAY_FIRST.filter((d) => !days[String(d)]);
}

/**
 * An hour of the wire as `HH:MM`: 8.5 → "08:30"; past midnight (26) → "02:00" unless `extended`
 * ("26:00", OpenStreetMap's extended time). Undefined when it is not a whole minute: written rounded,
 * it would read back as another hour.
 */
export function clockOf(hours: number, extended = false): string | undefined {
  const minutes = Math.round(hours * 60);
  if (Math.abs(minutes - hours * 60) > 1e-9) return undefined;
  const h = Math.floor(minutes / 60);
  return `${String(extended ? h : h % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The export refused: a day whose hours the standard cannot write exactly. */
export function notExact(key: string, day: number, hours: Hours, standard: string): UsageError {
  return new UsageError(
    'EXPORT_INEXACT',
    `record ${key}: opentToGuestsPeriod.${day} ${JSON.stringify(hours)} is not whole minutes, which ${standard} cannot write, so the listing would show other hours than recorded`,
    'export it with --format json, which keeps every value exactly as recorded',
  ).withFixes({ kind: 'flags', args: ['--format', 'json'] });
}

/** Both ends of a day as clocks, or the export refused. */
export function exactClocks(key: string, day: number, hours: Hours, standard: string, extended = false): [string, string] {
  const since = clockOf(hours.since);
  const to = clockOf(hours.to, extended);
  if (since === undefined || to === undefined) throw notExact(key, day, hours, standard);
  return [since, to];
}

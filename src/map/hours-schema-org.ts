// schema.org's OpeningHoursSpecification in the JSON hours layout, as listings publish it:
//   [{"@type": "OpeningHoursSpecification", "dayOfWeek": ["Monday", "Tuesday"], "opens": "09:00", "closes": "18:00"},
//    {"@type": "OpeningHoursSpecification", "opens": "00:00", "closes": "00:00", "validFrom": "2026-12-24", "validThrough": "2026-12-26"}]
// A specification with validFrom or validThrough holds on those dates only (Google's special hours;
// opens and closes both 00:00 is closed): it is read for the --hours-as-of week, replacing the regular
// hours of the days it covers, and without --hours-as-of it is refused (the service holds one week).
import { parseIsoDate, today } from './date-rules.js';
import { dayHours, onePeriod, type CellOptions, type DayHours, type DayProblem } from './hours.js';
import { dayIndex } from './layout.js';
import type { WeekHours } from './week.js';

type Spec = Record<string, unknown>;

/** A value as written: a string as it is, anything else as JSON (`{}` is never `[object Object]`). */
const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

/** The specifications a value holds, or undefined when it is not schema.org's form. */
export function specifications(value: unknown): Spec[] | undefined {
  const isSpec = (v: unknown): v is Spec => v !== null && typeof v === 'object' && !Array.isArray(v) && (v as Spec)['@type'] === 'OpeningHoursSpecification';
  if (Array.isArray(value)) return value.length > 0 && value.every(isSpec) ? value : undefined;
  if (isSpec(value)) return [value];
  if (value !== null && typeof value === 'object' && 'openingHoursSpecification' in value) return specifications((value as Spec).openingHoursSpecification);
  return undefined;
}

/** `https://schema.org/Monday`, `schema:Monday` or `Monday` as a weekday (0 Sunday). */
function weekday(value: unknown): number | undefined {
  return typeof value === 'string' ? dayIndex(value.replace(/^(?:https?:\/\/schema\.org\/|schema:)/, '')) : undefined;
}

/** The weekdays of the --hours-as-of week a dated specification covers: each day's date within validFrom…validThrough. */
function datedDays(spec: Spec, asOf: string): Set<number> | string {
  const from = spec.validFrom === undefined ? undefined : parseIsoDate(text(spec.validFrom));
  const through = spec.validThrough === undefined ? undefined : parseIsoDate(text(spec.validThrough));
  if ((spec.validFrom !== undefined && !from) || (spec.validThrough !== undefined && !through)) {
    return `validFrom and validThrough must be dates written YYYY-MM-DD (found ${JSON.stringify(spec.validFrom ?? spec.validThrough)})`;
  }
  const asOfDate = parseIsoDate(asOf)!;
  const monday = asOfDate.getTime() - ((asOfDate.getUTCDay() + 6) % 7) * 86_400_000;
  const days = new Set<number>();
  for (let k = 0; k < 7; k++) {
    const date = new Date(monday + k * 86_400_000);
    if ((!from || date >= from) && (!through || date <= through)) days.add(date.getUTCDay());
  }
  return days;
}

export function hoursFromSpecifications(specs: readonly Spec[], options: CellOptions): WeekHours {
  const regular = new Map<number, DayHours[]>();
  const special = new Map<number, DayHours[]>();
  const problems: DayProblem[] = [];
  for (const spec of specs) {
    const named = spec.dayOfWeek === undefined ? [] : Array.isArray(spec.dayOfWeek) ? spec.dayOfWeek : [spec.dayOfWeek];
    const days = named.map(weekday);
    if (days.some((d) => d === undefined)) {
      problems.push({
        day: undefined,
        message: `dayOfWeek ${JSON.stringify(spec.dayOfWeek)} is not a weekday such as "Monday" or "https://schema.org/Monday"`,
      });
      continue;
    }
    const dated = spec.validFrom !== undefined || spec.validThrough !== undefined;
    if (dated && !options.hoursAsOf) {
      problems.push({
        day: undefined,
        message: `the opening hours valid from ${text(spec.validFrom) || '…'} through ${text(spec.validThrough) || '…'} hold on some dates only, and the service holds one week; pass --hours-as-of YYYY-MM-DD to send the week holding that date (--hours-as-of ${today()} for this week)`,
        fixes: [{ kind: 'flags', args: ['--hours-as-of', today()] }],
      });
      continue;
    }
    if (!dated && !days.length) {
      problems.push({ day: undefined, message: 'an OpeningHoursSpecification without validFrom or validThrough names its days in dayOfWeek' });
      continue;
    }
    let covered = days as number[];
    if (dated) {
      const within = datedDays(spec, options.hoursAsOf!);
      if (typeof within === 'string') {
        problems.push({ day: undefined, message: within });
        continue;
      }
      covered = [...within].filter((d) => !days.length || days.includes(d));
    }
    const [opens, closes] = [text(spec.opens), text(spec.closes)];
    // Both 00:00 is Google's "closed" for special hours.
    const read = /^00:00(?::00)?$/.test(opens) && /^00:00(?::00)?$/.test(closes) ? 'closed' : dayHours(opens, closes, options.timeFormat);
    if (read !== 'closed' && 'error' in read) {
      problems.push({ day: covered[0], ...(covered.length > 1 && { days: covered }), message: read.error, ...(read.code && { code: read.code }) });
      continue;
    }
    const into = dated ? special : regular;
    for (const day of covered) into.set(day, [...(into.get(day) ?? []), ...(read === 'closed' ? [] : [read])]);
  }
  const period: Record<string, DayHours> = {};
  for (const day of new Set([...regular.keys(), ...special.keys()])) {
    const one = onePeriod(special.get(day) ?? regular.get(day)!, options.splitHours);
    if (one === 'closed') continue;
    if ('split' in one) problems.push({ day, message: one.split, code: 'SPLIT_HOURS' });
    else period[String(day)] = one;
  }
  return problems.length ? { period, problems } : { period };
}

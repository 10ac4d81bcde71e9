// schema.org's OpeningHoursSpecification list (the JSON-LD `upload export --format schema-org` writes,
// and websites carry) as the wire week. Google's conventions for it: a closing time at or before the
// opening time is on the next day (`22:00` to `02:00` is 22-26; `06:00` to `06:00` the whole day,
// 6-30), and opens and closes both `00:00` is a day closed all day.
import { onePeriod, type CellOptions, type DayHours, type DayProblem } from './hours.js';
import type { WeekHours } from './week.js';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const TIME = /^([01]\d|2[0-4]):([0-5]\d)(?::00)?$/;

/** A list of objects that say they are OpeningHoursSpecifications (or carry dayOfWeek). */
export function isSpecificationList(value: unknown): value is Record<string, unknown>[] {
  const spec = (v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && ('dayOfWeek' in v || (v as Record<string, unknown>)['@type'] === 'OpeningHoursSpecification');
  return Array.isArray(value) && value.length > 0 && value.every(spec);
}

/** `Monday`, `https://schema.org/Monday`, `schema:Monday` → 1. */
function dayOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const i = DAYS.indexOf(value.replace(/^.*[/:#]/, '').toLowerCase());
  return i === -1 ? undefined : i;
}

function hoursOf(text: unknown): number | undefined {
  const m = typeof text === 'string' ? TIME.exec(text.trim()) : null;
  return m ? Number(m[1]) + Number(m[2]) / 60 : undefined;
}

export function specificationWeek(list: readonly Record<string, unknown>[], options: CellOptions = {}): WeekHours {
  const problems: DayProblem[] = [];
  const periods = new Map<number, DayHours[]>();
  for (const spec of list) {
    const shown = JSON.stringify(spec);
    if ('validFrom' in spec || 'validThrough' in spec) {
      problems.push({ day: undefined, message: `${shown} holds for dates (validFrom/validThrough), not the regular week; leave it out` });
      continue;
    }
    const names = Array.isArray(spec.dayOfWeek) ? (spec.dayOfWeek as unknown[]) : [spec.dayOfWeek];
    const days = names.map(dayOf);
    const opens = hoursOf(spec.opens);
    const closes = hoursOf(spec.closes);
    if (days.some((d) => d === undefined) || !days.length || opens === undefined || closes === undefined) {
      problems.push({
        day: undefined,
        message: `${shown} is not an OpeningHoursSpecification such as {"dayOfWeek": ["Monday"], "opens": "09:00", "closes": "18:00"}`,
      });
      continue;
    }
    if (opens === 0 && closes === 0) continue;
    const to = closes <= opens ? closes + 24 : closes;
    for (const day of days as number[]) periods.set(day, [...(periods.get(day) ?? []), { since: opens, to }]);
  }
  const period: Record<string, DayHours> = {};
  for (const [day, list_] of periods) {
    const one = onePeriod(list_, options.splitHours);
    if (one === 'closed') continue;
    if ('split' in one) problems.push({ day, message: one.split, code: 'SPLIT_HOURS' });
    else period[String(day)] = one;
  }
  return problems.length ? { period, problems } : { period };
}

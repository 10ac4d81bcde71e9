// Which column feeds which wire field, as data for the user to check before anything is sent:
// `employeeID ← Personnel Number`.
import { DAY_NAMES } from './hours.js';
import type { ColumnPlan } from './column-plan.js';

export interface FieldSource {
  readonly field: string;
  /** The source columns, as written in the file (several for a day's opening and closing columns). */
  readonly columns: readonly string[];
  /** How the columns are read, where that is not obvious ("Monday: open, close"). */
  readonly note?: string;
}

export function describeMapping(plan: ColumnPlan): FieldSource[] {
  // In wire order; a field joined from several columns (First Name + Last Name) names them all.
  const out: FieldSource[] = plan.scalars
    .filter((s) => s.index >= 0)
    .map(({ field, index, parts }) => ({ field, columns: (parts ?? [index]).map((i) => plan.columns[i]!) }));
  if (plan.dayRows) {
    const { day, since, to } = plan.dayRows;
    const hours = since === undefined ? [plan.hoursJson!] : [since, to!];
    out.push({ field: 'opentToGuestsPeriod', columns: [day, ...hours].map((i) => plan.columns[i]!), note: 'one row per store per day' });
    return out;
  }
  if (plan.hoursJson !== undefined)
    out.push({ field: 'opentToGuestsPeriod', columns: [plan.columns[plan.hoursJson]!], note: 'JSON object or the week as text' });
  // Monday first, as people read a week; the wire's Sunday = "0" is the tool's business.
  for (const day of [1, 2, 3, 4, 5, 6, 0]) {
    const d = plan.days[day];
    if (!d) continue;
    // A lunch break's second period (`Monday Afternoon`) feeds the same day.
    const indexes = [d, ...(plan.later[day] ?? [])].flatMap((p) =>
      p.layout === 'range' ? [p.index] : [p.since, p.to].filter((i): i is number => i !== undefined),
    );
    out.push({ field: `opentToGuestsPeriod.${day}`, columns: indexes.map((i) => plan.columns[i]!), note: DAY_NAMES[day] });
  }
  return out;
}

// The recorded week as schema.org JSON-LD (https://schema.org/OpeningHoursSpecification): one `Store`
// per store card, its key as `branchCode` (schema.org's "store code"), its `email`, and one
// OpeningHoursSpecification per set of days with the same hours. The conventions are Google's for
// structured data: a closing time before the opening time is on the next day (`22:00` to `02:00`),
// open 24 hours is opens `00:00` and closes `23:59` (the service's whole day, 6 to 30, which is how
// the tool reads "open 24 hours"), and a day closed all day has opens and closes both `00:00`.
import { KINDS } from '../contract/kinds.js';
import { closedDays, dayGroups, exactClocks, isWholeDay } from './week.js';

const DAYS: Readonly<Record<number, string>> = {
  0: 'Sunday',
  1: 'Monday',
  2: 'Tuesday',
  3: 'Wednesday',
  4: 'Thursday',
  5: 'Friday',
  6: 'Saturday',
};
const dayIri = (day: number) => `https://schema.org/${DAYS[day]}`;

export interface Specification {
  readonly '@type': 'OpeningHoursSpecification';
  readonly dayOfWeek: readonly string[];
  readonly opens: string;
  readonly closes: string;
}

/** A store card's week as OpeningHoursSpecification objects. */
export function specifications(period: unknown, key: string): Specification[] {
  const open = dayGroups(period).map((g): Specification => {
    const [opens, closes] = isWholeDay(g.hours) ? ['00:00', '23:59'] : exactClocks(key, g.days[0]!, g.hours, 'schema.org');
    return { '@type': 'OpeningHoursSpecification', dayOfWeek: g.days.map(dayIri), opens, closes };
  });
  const closed = closedDays(period);
  return closed.length ? [...open, { '@type': 'OpeningHoursSpecification', dayOfWeek: closed.map(dayIri), opens: '00:00', closes: '00:00' }] : open;
}

/** Each canonical store card as the JSON text of its JSON-LD object. */
export function* schemaOrgRecords(records: Iterable<string>): Generator<string> {
  const keyField = KINDS['store-cards'].keyField;
  for (const json of records) {
    const record = JSON.parse(json) as Record<string, unknown>;
    const key = String(record[keyField]);
    yield JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Store',
      branchCode: key,
      ...(typeof record.email === 'string' && { email: record.email }),
      openingHoursSpecification: specifications(record.opentToGuestsPeriod, key),
    });
  }
}

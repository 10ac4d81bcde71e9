// The listings' hours read back by each standard's documented conventions, for the export's round
// trips (test/unit/hours-export.test.ts, test/e2e/hours-export.test.ts). The tool's own readers of
// schema.org lists and of Google Business Profile's columns are other work of the same issue; these
// small parsers say what the standards say, and nothing the exporter decided:
// - a closing time before the opening time is on the next day (`22:00` to `02:00` is 22–26);
// - open 24 hours (schema.org `00:00`–`23:59`, GBP `00:00-24:00`) is the service's whole day, 6–30,
//   as the tool reads "open 24 hours";
// - closed all day is schema.org `00:00`–`00:00`, GBP `x`, or a day not named.
export type Period = Record<string, { since: number; to: number }>;

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function clock(text: string): number {
  const m = /^(\d\d):(\d\d)$/.exec(text);
  if (!m) throw new Error(`'${text}' is not HH:MM`);
  return Number(m[1]) + Number(m[2]) / 60;
}

function day(opens: string, closes: string, allDay: string): { since: number; to: number } | undefined {
  if (opens === '00:00' && closes === '00:00') return undefined;
  if (opens === '00:00' && closes === allDay) return { since: 6, to: 30 };
  const [since, to] = [clock(opens), clock(closes)];
  return { since, to: to < since ? to + 24 : to };
}

interface Specification {
  readonly '@type': string;
  readonly dayOfWeek: readonly string[];
  readonly opens: string;
  readonly closes: string;
}

/** schema.org's OpeningHoursSpecification list as the wire week; a day given twice throws. */
export function schemaOrgWeek(specs: readonly Specification[]): Period {
  const period: Period = {};
  const seen = new Set<number>();
  for (const spec of specs) {
    if (spec['@type'] !== 'OpeningHoursSpecification') throw new Error(`@type ${spec['@type']}`);
    for (const iri of spec.dayOfWeek) {
      const d = DAYS.indexOf(iri.replace('https://schema.org/', ''));
      if (d === -1 || seen.has(d)) throw new Error(`dayOfWeek ${iri} unknown or given twice`);
      seen.add(d);
      const hours = day(spec.opens, spec.closes, '23:59');
      if (hours) period[String(d)] = hours;
    }
  }
  return period;
}

/** Google Business Profile's seven hours cells, Sunday first, as the wire week. */
export function gbpWeek(cells: readonly string[]): Period {
  const period: Period = {};
  cells.forEach((cell, d) => {
    if (cell.trim().toLowerCase() === 'x') return;
    const m = /^(\d\d:\d\d)-(\d\d:\d\d)$/.exec(cell);
    if (!m) throw new Error(`'${cell}' is not a GBP hours cell`);
    const hours = day(m[1]!, m[2]!, '24:00');
    if (hours) period[String(d)] = hours;
  });
  return period;
}

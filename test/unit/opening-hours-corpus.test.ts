// The OpenStreetMap reference corpus (test/corpus/README.md): each value of the reference parser's
// own tests is read by the week reader and by `opening_hours` (the oracle) over one week. A value is
// read the same, refused, or read differently; the last only where docs/decisions.md says why
// ("Departures from opening_hours.js"). The counts go to the log for the closing note of issue 28.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import OpeningHours from 'opening_hours';
import { expect, it } from 'vitest';
import { hoursFromJson } from '../../src/map/hours-json.js';

const VALUES = JSON.parse(readFileSync(fileURLToPath(new URL('../corpus/opening-hours-values.json', import.meta.url)), 'utf8')) as string[];

// A week without public holidays where the oracle is told it is (Stuttgart, Germany): Monday 8 to
// Monday 15 October 2012, no daylight-saving change.
const FROM = new Date(2012, 9, 8);
const TO = new Date(2012, 9, 15);
const WEEK = 7 * 1440;
const WHERE = { lat: 48.7758, lon: 9.1829, address: { country_code: 'de', state: 'Baden-Württemberg' } };

/** Documented departures (docs/decisions.md), each value with the row that explains it. */
const DEPARTURES: Readonly<Record<string, string>> = {
  // A later `;` rule does not cut the previous night's tail: the night is the earlier day's period.
  '22:00-02:00; Tu 12:00-14:00': 'night tail',
  '22:00-02:00; Tu12:00-14:00': 'night tail',
  'Mo,Tu,We,Th,Fr,Su 11:00-01:00; Sa 11:00-02:00': 'night tail',
  'Mo, Tu, We, Th, Fr, Su 11:00-01:00; Sa 11:00-02:00': 'night tail',
  'Fr 22:00-04:00; Sa 21:00-04:00': 'night tail',
  'Su 22:00-04:00; Mo 21:00-04:00': 'night tail',
  'Th 22:00-04:00, Fr 22:00-04:00; Sa 21:00-04:00': 'night tail',
  'We 22:00-04:00, Fr 22:00-04:00; Sa 21:00-04:00, Mo 21:00-04:00': 'night tail',
  // An opening time without AM/PM takes the closing time's, as Google writes it (`4-10 pm` is 16-22).
  '4-10 pm': 'shared marker',
  '4:00-10:00 pm': 'shared marker',
  '2 a 6 pm': 'shared marker',
  // Rules with no separator are read as written: each rule for its own days.
  'Mo-Do 8:30-20:00 Fr 8:29-18:00': 'no separator',
  'Mo-Sa 11:00-21:00 Su off': 'no separator',
  // A day around the clock is the service's whole day, 06:00 to 06:00 next day (docs/input.md).
  'Mo,We 24/7': 'whole day',
  'Jan 12:00-13:00 Mo 15:00-16:00': 'no separator',
  // The reference refuses these; an empty cell is a store with no hours, and trailing commas say nothing.
  'We 12:00-18:00,,,,,,': 'trailing separators',
};

/** Why a value is read differently, or undefined when it should not be. */
const departure = (value: string): string | undefined => DEPARTURES[value] ?? (value.trim() === '' ? 'empty cell' : undefined);

type Reading = readonly (readonly [number, number])[] | 'refused';

function merged(intervals: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of intervals.sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else if (b > a) out.push([a, b]);
  }
  return out;
}

/** The oracle's open minutes of the week from Monday 00:00, or refused (an error, or a state it does not know). */
function reference(value: string): Reading {
  try {
    const intervals = new OpeningHours(value, WHERE, 0 /* time ranges, as opening_hours is read */).getOpenIntervals(FROM, TO);
    if (intervals.some(([, , unknown]) => unknown)) return 'refused';
    return merged(intervals.map(([a, b]) => [(a.getTime() - FROM.getTime()) / 60000, (b.getTime() - FROM.getTime()) / 60000]));
  } catch {
    return 'refused';
  }
}

/** The tool's reading as open minutes of the same week; a night past Sunday runs into Monday. */
function ours(value: string): Reading {
  // Date-bound rules (`Oct off`) are read for the oracle's week, as --hours-as-of reads them.
  const week = hoursFromJson(value, { hoursAsOf: '2012-10-08' });
  if (week.problems?.length) return 'refused';
  const intervals: [number, number][] = [];
  for (const [day, { since, to }] of Object.entries(week.period)) {
    const start = ((Number(day) + 6) % 7) * 1440;
    const [a, b] = [start + Math.round(since * 60), start + Math.round(to * 60)];
    if (b <= WEEK) intervals.push([a, b]);
    else intervals.push([a, WEEK], [0, b - WEEK]);
  }
  return merged(intervals);
}

it('the reference corpus is read the same or refused; read differently only where documented', () => {
  const counts = { same: 0, refused: 0, different: 0, bothRefuse: 0 };
  const different: string[] = [];
  for (const value of VALUES) {
    const [theirs, mine] = [reference(value), ours(value)];
    if (mine === 'refused') counts[theirs === 'refused' ? 'bothRefuse' : 'refused']++;
    else if (JSON.stringify(theirs) === JSON.stringify(mine)) counts.same++;
    else {
      counts.different++;
      different.push(value);
    }
  }
  console.info(
    `OpenStreetMap corpus, ${VALUES.length} values: ${counts.same} read the same, ${counts.refused} refused (the reference reads them), ${counts.bothRefuse} refused by both, ${counts.different} read differently (all documented departures)`,
  );
  expect(different.filter((v) => departure(v) === undefined)).toEqual([]);
  // Every departure listed is still one: the list says what the reader does, not what it once did.
  expect(Object.keys(DEPARTURES).filter((v) => !different.includes(v))).toEqual([]);
  expect(counts.same).toBeGreaterThan(100);
});

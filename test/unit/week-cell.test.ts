// A whole week in one cell: day ranges with times, OpenStreetMap's opening_hours, Google's list (issue 20).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hoursFromJson } from '../../src/map/hours-json.js';

const WEEK_9_18_SAT_9_14 = {
  '1': { since: 9, to: 18 },
  '2': { since: 9, to: 18 },
  '3': { since: 9, to: 18 },
  '4': { since: 9, to: 18 },
  '5': { since: 9, to: 18 },
  '6': { since: 9, to: 14 },
};

describe('the same week, written seven ways', () => {
  it.each([
    'Mo-Fr 9-18, Sa 9-14',
    'Mo-Fr 09:00-18:00; Sa 09:00-14:00; Su off',
    'Monday: 9 AM – 6 PM, Tuesday: 9 AM – 6 PM, Wednesday: 9 AM – 6 PM, Thursday: 9 AM – 6 PM, Friday: 9 AM – 6 PM, Saturday: 9 AM – 2 PM, Sunday: Closed',
    'Monday: 9\u202fAM\u2009–\u20096\u202fPM\nTuesday: 9\u202fAM\u2009–\u20096\u202fPM\nWednesday: 9\u202fAM\u2009–\u20096\u202fPM\nThursday: 9\u202fAM\u2009–\u20096\u202fPM\nFriday: 9\u202fAM\u2009–\u20096\u202fPM\nSaturday: 9\u202fAM\u2009–\u20092\u202fPM\nSunday: Closed',
    'Mo.-Fr.: 9.00-18.00 Uhr, Sa.: 9.00-14.00 Uhr, So. geschlossen',
    'Montag bis Freitag von 9 bis 18 Uhr; Samstag 9-14 Uhr',
    'du lundi au vendredi de 9h à 18h, samedi 9h-14h, dimanche fermé',
    'ma t/m vr 9:00-18:00, za 9:00-14:00, zo gesloten',
    'de lunes a viernes de 9:00 a 18:00; sábado de 9:00 a 14:00',
    'dal lunedì al venerdì dalle 9 alle 18, sabato dalle 9 alle 14',
    'Weekdays 9-18, Sat 9-14',
  ])('%j', (text) => {
    expect(hoursFromJson(text)).toEqual({ period: WEEK_9_18_SAT_9_14 });
  });
});

describe('holidays are no weekday: left out, with a note', () => {
  it.each([
    ['Mo-Fr 09:00-18:00; Sa 09:00-14:00; Su off; PH off', ['PH off']],
    ['Mo-Fr 09:00-18:00; Sa 09:00-14:00; Su,PH off', ['Su, PH off']],
    ['Mo-Fr 09:00-18:00; Sa 09:00-14:00; PH,Su off', ['PH, Su off']],
    ['Mo-Fr 09:00-18:00; Sa 09:00-14:00; PH 10:00-14:00', ['PH 10:00 - 14:00']],
  ])('%j', (text, holidays) => {
    expect(hoursFromJson(text)).toEqual({ period: WEEK_9_18_SAT_9_14, holidays });
  });
});

describe("around the clock is the service's whole day, noted", () => {
  it.each(['24/7', 'Mo-Su 24/7', 'Open 24 hours', 'Mo-Su 24h', 'open around the clock'])('%j is 6-30 every day', (text) => {
    const week = hoursFromJson(text);
    expect(week.problems).toBeUndefined();
    expect(week.period).toEqual(Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [String(d), { since: 6, to: 30 }])));
    expect(week.allDay?.length).toBe(1);
  });
  it('a rule of the week around the clock, the others as written', () => {
    const week = hoursFromJson('Mo-Fr 8am-6pm; Sa-Su open 24 hours');
    expect(week.period['1']).toEqual({ since: 8, to: 18 });
    expect(week.period['6']).toEqual({ since: 6, to: 30 });
    expect(week.allDay).toEqual(['Sa - Su open 24 hours']);
  });
  it.each(['Closed', 'closed', 'Closed all day'])('a week cell %j is closed every day', (text) => {
    expect(hoursFromJson(text)).toEqual({ period: {} });
  });
});

describe('what the week cannot say is an error, never a closed day', () => {
  it.each([
    ['Mo-Fr 9-18, Sa', 'not a range'],
    ['Mo-Fr 9-18, Sa 9-14, Jan off', "'Jan off' holds on some dates only"],
    ['Mo-Fr 9-18 Jan off', 'is not understood'],
    ['Mo-Fr 9-18 except holidays', 'is not understood'],
    ['Mo-Fr 9-18, Fr 9-20', 'given twice'],
    ['Ma-Di 9-18', 'more than one language'],
    ['Mo-Fr 9-21.30', 'could be 21:30'],
  ])('%j', (text, why) => {
    const result = hoursFromJson(text);
    expect(result).toHaveProperty('problems');
    expect(JSON.stringify(result)).toContain(why);
  });

  it('OpenStreetMap: a later rule after ; replaces the earlier one for its days', () => {
    expect(hoursFromJson('Mo-Sa 10:00-20:00; We off')).toEqual({
      period: { '1': { since: 10, to: 20 }, '2': { since: 10, to: 20 }, '4': { since: 10, to: 20 }, '5': { since: 10, to: 20 }, '6': { since: 10, to: 20 } },
    });
  });
});

describe('lunch breaks in a week', () => {
  it('are SPLIT_HOURS naming the days of the rule', () => {
    expect(hoursFromJson('Mo-Fr 08:00-12:00,13:00-17:30; Sa 9-14')).toEqual({
      period: { '6': { since: 9, to: 14 } },
      problems: [{ day: 1, days: [1, 2, 3, 4, 5], code: 'SPLIT_HOURS', message: expect.stringContaining('08:00-12:00 and 13:00-17:30') }],
    });
  });
  it("Google's second period without its first AM/PM: 11 AM – 2 PM, 5 – 10 PM", () => {
    expect(hoursFromJson('Monday: 11 AM – 2 PM, 5 – 10 PM', { splitHours: 'span' })).toEqual({ period: { '1': { since: 11, to: 22 } } });
  });
  it('span sends first opening to last closing', () => {
    expect(hoursFromJson('Mo 9-12 & 14-18', { splitHours: 'span' })).toEqual({ period: { '1': { since: 9, to: 18 } } });
  });
});

describe('property: an OpenStreetMap week reads back as the week it was written from', () => {
  const OSM = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = (q: number) => `${pad(Math.floor(q / 4))}:${pad((q % 4) * 15)}`;
  it('Mo 09:00-18:00; Tu off; …', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.tuple(fc.integer({ min: 24, max: 80 }), fc.integer({ min: 4, max: 40 })), { nil: undefined }), { minLength: 7, maxLength: 7 }),
        fc.constantFrom('; ', ';', '\n'),
        (week, separator) => {
          const text = week.map((d, day) => (d ? `${OSM[day]} ${time(d[0])}-${time(Math.min(d[0] + d[1], 95))}` : `${OSM[day]} off`)).join(separator);
          const expected: Record<string, { since: number; to: number }> = {};
          week.forEach((d, day) => {
            if (d) expected[String(day)] = { since: d[0] / 4, to: Math.min(d[0] + d[1], 95) / 4 };
          });
          expect(hoursFromJson(text), text).toEqual({ period: expected });
        },
      ),
    );
  });
});

describe("property: Google's list reads back as the week it was written from", () => {
  const NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const ampm = (q: number) => {
    const h = Math.floor(q / 4) % 24;
    const m = (q % 4) * 15;
    return `${h % 12 === 0 ? 12 : h % 12}${m ? `:${String(m).padStart(2, '0')}` : ''}\u202f${h < 12 ? 'AM' : 'PM'}`;
  };
  it('Monday: 9 AM – 6 PM, …, Sunday: Closed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.tuple(fc.integer({ min: 24, max: 80 }), fc.integer({ min: 4, max: 15 })), { nil: undefined }), { minLength: 7, maxLength: 7 }),
        fc.constantFrom(', ', '\n'),
        (week, separator) => {
          const order = [1, 2, 3, 4, 5, 6, 0];
          const text = order
            .map((day) => {
              const d = week[day];
              return `${NAMES[day]}: ${d ? `${ampm(d[0])}\u2009–\u2009${ampm(Math.min(d[0] + d[1], 95))}` : 'Closed'}`;
            })
            .join(separator);
          const expected: Record<string, { since: number; to: number }> = {};
          week.forEach((d, day) => {
            if (d) expected[String(day)] = { since: d[0] / 4, to: Math.min(d[0] + d[1], 95) / 4 };
          });
          expect(hoursFromJson(text), text).toEqual({ period: expected });
        },
      ),
    );
  });
});

it('property: any text in the hours column is read or refused, never thrown on', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc
          .array(fc.constantFrom('Mo', 'Fr', '-', ' ', ',', ';', '9', ':', '00', 'h', 'Uhr', 'off', 'AM', 'PM', '24/7', 'bis', 't/m', '.', '\n', 'PH'), {
            maxLength: 20,
          })
          .map((a) => a.join('')),
      ),
      (text) => {
        const result = hoursFromJson(text);
        expect('period' in result || 'problems' in result).toBe(true);
      },
    ),
    { numRuns: 2000 },
  );
});

it('two separators in a row end: `;;Mo 9-18` once looped for ever', () => {
  expect(hoursFromJson(';;Mo 9-18;;\n;Tu off')).toEqual({ period: { '1': { since: 9, to: 18 } } });
});

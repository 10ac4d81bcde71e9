// A clock without AM/PM that would run past midnight from a daytime opening has two readings: it
// stops the run (AMBIGUOUS_TIME) until --time-format says 12h or 24h. Real night openings still read.
import { describe, expect, it } from 'vitest';
import { hoursFromJson } from '../../src/map/hours-json.js';
import { parseDay } from '../../src/map/hours.js';

describe('a range with two readings is AMBIGUOUS_TIME, naming both', () => {
  it.each([
    ['9-5', '09:00-17:00', '09:00-05:00'],
    ['10-2', '10:00-14:00', '10:00-02:00'],
    ['12-4', '12:00-16:00', '12:00-04:00'],
    ['10 to 6', '10:00-18:00', '10:00-06:00'],
    ['8-4:30', '08:00-16:30', '08:00-04:30'],
    ['10am - 6', '10:00-18:00', '10:00-06:00'],
    ['07:45 - 4:00', '07:45-16:00', '07:45-04:00'],
    ['11-1', '11:00-13:00', '11:00-01:00'],
  ])('%s', (text, day, night) => {
    const result = parseDay(text);
    expect(result).toMatchObject({ code: 'AMBIGUOUS_TIME' });
    const { error } = result as { error: string };
    expect(error).toContain(`${day} (a 12-hour clock) or ${night} next day`);
    expect(error).toContain('--time-format 12h');
  });

  it.each([
    ['9-5', '12h', { since: 9, to: 17 }],
    ['9-5', '24h', { since: 9, to: 29 }],
    ['8-4:30', '12h', { since: 8, to: 16.5 }],
    ['9.30-5.30', 'clock,12h', { since: 9.5, to: 17.5 }],
  ])('%s with --time-format %s', (text, format, period) => {
    expect(parseDay(text, format)).toEqual({ periods: [period] });
  });
});

describe('what says which clock it is reads without a question', () => {
  it.each([
    ['18:00-02:00', 18, 26], // an opening after noon
    ['22:00-04:00', 22, 28],
    ['20:00 - 4:30', 20, 28.5],
    ['9-02:00', 9, 26], // a closing hour written with its zero
    ['22-06:00', 22, 30],
    ['11 AM - 1 AM', 11, 25], // the closing end's marker
    ['10pm - 2', 22, 26], // 2 PM would be before 10 PM
    ['9-17', 9, 17], // no midnight at all
    ['9-12', 9, 12],
    ['11:00-00:00', 11, 24],
  ])('%s', (text, since, to) => {
    expect(parseDay(text)).toEqual({ periods: [{ since, to }] });
  });
});

describe('two bare hours a 12-hour sign reads differently (7-11) ask, and the ranges the message offers are read', () => {
  it.each([
    ['7-11', '07:00-23:00', '07:00-11:00', [7, 23], [7, 11]],
    ['6-10', '06:00-22:00', '06:00-10:00', [6, 22], [6, 10]],
    ['2-10', '14:00-22:00', '02:00-10:00', [14, 22], [2, 10]],
    ['7:30-11', '07:30-23:00', '07:30-11:00', [7.5, 23], [7.5, 11]],
  ])('%s', (text, twelve, twentyFour, [s12, t12], [s24, t24]) => {
    const result = parseDay(text) as { error: string; code: string };
    expect(result.code).toBe('AMBIGUOUS_TIME');
    expect(result.error).toContain(`could be ${twelve} (a 12-hour clock) or ${twentyFour} (a 24-hour clock)`);
    expect(result.error).toContain(`or write ${twelve} (or ${twentyFour})`);
    expect(parseDay(twelve)).toEqual({ periods: [{ since: s12, to: t12 }] });
    expect(parseDay(twentyFour)).toEqual({ periods: [{ since: s24, to: t24 }] });
    expect(parseDay(text, '12h')).toEqual({ periods: [{ since: s12, to: t12 }] });
    expect(parseDay(text, '24h')).toEqual({ periods: [{ since: s24, to: t24 }] });
  });

  it.each([
    ['10-10', '10:00-22:00', [10, 22]],
    ['12-12', '12:00-24:00', [12, 24]],
  ])('%s: the 24-hour reading is around the clock, the service whole day 6-30', (text, twelve, [s12, t12]) => {
    const result = parseDay(text) as { error: string; code: string };
    expect(result.code).toBe('AMBIGUOUS_TIME');
    expect(result.error).toContain(`or write ${twelve} (or 6-30, the service's whole day)`);
    expect(parseDay(twelve)).toEqual({ periods: [{ since: s12, to: t12 }] });
    expect(parseDay('6-30')).toEqual({ periods: [{ since: 6, to: 30 }] });
  });

  it.each(['9-12', '10:00-11:00', '07:00-11:00', '9-17', '10am-6pm'])('%s is not asked', (text) => {
    expect(parseDay(text)).toHaveProperty('periods');
  });
});

describe('in a week cell', () => {
  it.each(['Mon-Fri 9-5, Sat 10-2', 'Sun 12-4', 'Tue-Sat 10 to 6', 'Mon-Fri 8-4:30', 'Mo-Fr 07:45 - 4:00', 'Mon-Sat 7-11'])('%j stops', (text) => {
    expect(hoursFromJson(text).problems).toEqual([expect.objectContaining({ code: 'AMBIGUOUS_TIME' })]);
  });

  it.each([
    ['Mon-Fri 10am - 6', '12h', { since: 10, to: 18 }],
    ['Mon-Fri 7-11, Sat 9am-5pm', '12h', { since: 7, to: 23 }],
    ['Mon-Fri 7-11, Sat 13-21', '24h', { since: 7, to: 11 }],
  ])("%j is settled by the week's own times (%s), and says which", (text, format, monday) => {
    const week = hoursFromJson(text);
    expect(week.problems).toBeUndefined();
    expect(week.period['1']).toEqual(monday);
    expect(week.clock).toMatchObject({ format, cells: [`'${text}'`] });
  });

  it("a 24-hour week's night close written bare is still asked: Mon-Fri 9-5, Sat 13-21", () => {
    expect(hoursFromJson('Mon-Fri 9-5, Sat 13-21').problems).toEqual([expect.objectContaining({ code: 'AMBIGUOUS_TIME' })]);
  });

  it.each([
    ['Mon-Sun 11am-midnight', { since: 11, to: 24 }],
    ['Mon-Fri noon - 8pm', { since: 12, to: 20 }],
    ['Mon-Fri 8am-12nn', { since: 8, to: 12 }],
    ['Mon-Fri 10AM-12MN', { since: 10, to: 24 }],
  ])('%j: noon and midnight in words', (text, monday) => {
    const week = hoursFromJson(text);
    expect(week.problems).toBeUndefined();
    expect(week.period['1']).toEqual(monday);
  });

  it.each([
    ['Fr-Sa 18:00-02:00', { '5': { since: 18, to: 26 }, '6': { since: 18, to: 26 } }],
    ['Mo-Su 22:00-04:00', Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [String(d), { since: 22, to: 28 }]))],
  ])('%j is a night opening', (text, period) => {
    expect(hoursFromJson(text)).toEqual({ period });
  });

  it.each([
    'Mo-Fr 9-5',
    'Montag bis Freitag von 9 bis 5 Uhr',
    'du lundi au vendredi de 9h à 5h',
    'de lunes a viernes de 9 a 5',
    'dal lunedì al venerdì dalle 9 alle 5',
    'ma t/m vr 9-5',
    'Segunda a Sexta das 9h às 5h',
  ])('written in words: %j stops too', (text) => {
    expect(hoursFromJson(text).problems).toEqual([expect.objectContaining({ code: 'AMBIGUOUS_TIME' })]);
  });

  it.each([
    'Fr-Sa 22-04:00',
    'Freitag und Samstag von 22 bis 4 Uhr',
    'vendredi et samedi de 22h à 4h',
    'viernes y sábado de 22 a 4',
    'venerdì e sabato dalle 22 alle 4',
    'vr en za 22:00-04:00',
  ])('a night written in words: %j reads', (text) => {
    expect(hoursFromJson(text)).toEqual({ period: { '5': { since: 22, to: 28 }, '6': { since: 22, to: 28 } } });
  });

  it('--time-format 12h reads the week as the sign means it', () => {
    expect(hoursFromJson('Mon-Fri 9-5, Sat 10-2', { timeFormat: '12h' }).period).toEqual({
      ...Object.fromEntries([1, 2, 3, 4, 5].map((d) => [String(d), { since: 9, to: 17 }])),
      '6': { since: 10, to: 14 },
    });
  });
});

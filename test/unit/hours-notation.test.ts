// Times and ranges as people in six countries write them (issue 20): 9h30, 20 Uhr, 9.00, de … a ….
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOCK_OR_DECIMAL, parseDay, parseRange, parseTime } from '../../src/map/hours.js';

describe('times as written', () => {
  it.each([
    ['9h', 9],
    ['19h30', 19.5],
    ['19H30', 19.5],
    ['9 h 30', 9.5],
    ['20:00 Uhr', 20],
    ['9 Uhr', 9],
    ['9.00', 9],
    ['21.00', 21],
    ['21,00', 21],
    ['18 uur', 18],
    ['19 ore', 19],
    ['17 hrs', 17],
  ])('%j is %d', (text, hours) => {
    expect(parseTime(text)).toBe(hours);
  });

  it('21.30 stays ambiguous: minutes or hundredths', () => {
    expect(parseRange('9-21.30')).toEqual({ error: expect.stringContaining("closing time '21.30' could be 21:30 or 21.3 hours"), fixes: CLOCK_OR_DECIMAL });
  });
});

describe('ranges as written', () => {
  it.each([
    ['9h-19h', 9, 19],
    ['9h30-19h30', 9.5, 19.5],
    ['09:00 - 20:00 Uhr', 9, 20],
    ['9 - 20 Uhr', 9, 20],
    ['9.00 - 20.00', 9, 20],
    ['de 9:00 a 21:00', 9, 21],
    ['dalle 9 alle 19', 9, 19],
    ['dalle 9.00 alle 19.30', undefined, undefined],
    ['van 9 tot 18', 9, 18],
    ['von 9 bis 18 Uhr', 9, 18],
    ['de 9h à 19h', 9, 19],
    ['from 9 to 5 PM', 9, 17],
    ['desde 10 hasta 22', 10, 22],
    ['9 AM\u202f–\u20096 PM', 9, 18],
  ])('%j', (text, since, to) => {
    const result = parseRange(text);
    if (since === undefined) expect(result).toHaveProperty('error');
    else expect(result).toEqual({ since, to });
  });
});

describe('a lunch break: two periods in one cell', () => {
  it.each([
    '9-12, 14-18',
    '9-12,14-18',
    '9-12 / 14-18',
    '9-12; 14-18',
    '9:00-12:00 14:00-18:00',
    '9-12 & 14-18',
    '9-12 und 14-18',
    '9h-12h et 14h-18h',
    '9-12 e 14-18',
    '9-12 y 14-18',
    '9-12 en 14-18',
    '9-12\n14-18',
    '09:00 - 12:00 Uhr, 14:00 - 18:00 Uhr',
  ])('%j is two periods', (text) => {
    expect(parseDay(text)).toEqual({
      periods: [
        { since: 9, to: 12 },
        { since: 14, to: 18 },
      ],
    });
  });

  it('a comma inside a time is not a break: 08,30-21,30 stays one (ambiguous) range', () => {
    expect(parseDay('08,30-21,30')).toEqual({ error: expect.stringContaining('could be 08:30 or 8.3 hours'), fixes: CLOCK_OR_DECIMAL });
    expect(parseDay('08,30-21,30', 'clock')).toEqual({ periods: [{ since: 8.5, to: 21.5 }] });
  });
});

describe('property: times written the French and German way read as the clock', () => {
  it('HhMM, H h MM, HH:MM Uhr give the same hours', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (h, m) => {
        const mm = String(m).padStart(2, '0');
        const expected = Math.round((h + m / 60) * 1e6) / 1e6;
        for (const text of [`${h}h${mm}`, `${h} h ${mm}`, `${String(h).padStart(2, '0')}:${mm} Uhr`]) {
          const got = parseTime(text);
          expect(typeof got === 'number' ? Math.round(got * 1e6) / 1e6 : got, text).toBe(expected);
        }
      }),
    );
  });
});

it('property: any cell is a day, closed or an error, never thrown on, and fast', () => {
  const pieces = ['9', '12', ':', '00', '-', ', ', '/', ' ', 'h', 'Uhr', 'und', 'de ', ' a ', 'PM', '.', ',', '\n'];
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((a) => a.join('')),
      ),
      (text) => {
        const result = parseDay(text);
        expect(result === 'closed' || 'periods' in result || 'error' in result).toBe(true);
      },
    ),
    { numRuns: 2000 },
  );
});

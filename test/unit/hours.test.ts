// Opening hours as people write them → the wire's numbers; and formatted hours parse back exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hoursFromJson } from '../../src/map/hours-json.js';
import { CLOCK_OR_DECIMAL, dayHours, parseRange, parseTime } from '../../src/map/hours.js';

describe('parseTime', () => {
  it.each([
    ['9', 9],
    ['9.5', 9.5],
    ['9,5', 9.5],
    ['9:30', 9.5],
    ['09:30', 9.5],
    ['9:15', 9.25],
    ['21.75', 21.75],
    ['9:30 PM', 21.5],
    ['9:30pm', 21.5],
    ['9:30 p.m.', 21.5],
    // A dot or comma with AM/PM is a clock: 5.30pm is half past five in the afternoon, not 5.3 hours.
    ['5.30pm', 17.5],
    ['5,30 PM', 17.5],
    ['9.15am', 9.25],
    ['12.30am', 0.5],
    ['9 AM', 9],
    ['9am', 9],
    ['12 AM', 0],
    ['12 PM', 12],
    ['12:30 am', 0.5],
    [' 7 ', 7],
    ['0:00', 0],
    ['24:00', 24],
    ['24', 24],
  ])('%j is %d', (text, hours) => {
    expect(parseTime(text)).toBe(hours);
  });

  it.each(['', 'nine', '9:5', '9:60', '25', '24:30', '13 PM', '0 AM', '9m', '9:30 XM', '-1', '9.', '1e1'])('%j is not a time', (text) => {
    expect(parseTime(text)).toBeUndefined();
  });

  it('a closing time may be written in the wire terms, up to 30', () => {
    expect(parseTime('26', true)).toBe(26);
    expect(parseTime('30:00', true)).toBe(30);
    expect(parseTime('30:30', true)).toBeUndefined();
    expect(parseTime('26')).toBeUndefined();
  });
});

describe('parseRange', () => {
  it.each([
    ['09:00-22:00', { since: 9, to: 22 }],
    ['9-22', { since: 9, to: 22 }],
    ['9:30–01:00', { since: 9.5, to: 25 }],
    ['9:30 – 21:30', { since: 9.5, to: 21.5 }],
    ['9 AM - 5 PM', { since: 9, to: 17 }],
    ['8 to 17', { since: 8, to: 17 }],
    ['18:00-02:00', { since: 18, to: 26 }],
    ['16:00-24:00', { since: 16, to: 24 }],
    ['16:00-0:00', { since: 16, to: 24 }],
    ['11 AM - 12 AM', { since: 11, to: 24 }],
    ['9:20-17:40', { since: 9.333333, to: 17.666667 }],
    ['closed', 'closed'],
    ['Closed', 'closed'],
    ['', 'closed'],
    ['  ', 'closed'],
    ['-', 'closed'],
    ['x', 'closed'],
  ])('%j', (text, expected) => {
    expect(parseRange(text)).toEqual(expected);
  });

  it.each([
    ['9', "'9' is not a range such as 09:00-22:00, 9-22 or closed"],
    ['9-', "'9-': the closing time is missing"],
    ['nine-five', "'nine-five': opening time 'nine' is not a time such as 9, 9:30 or 9:30 AM"],
    ['9-25:99', "'9-25:99': closing time '25:99' is not a time such as 22, 22:00 or 10 PM"],
    ['9-12-15', "'9-12-15' is not a range such as 09:00-22:00, 9-22 or closed"],
  ])('%j is an error that shows the value', (text, error) => {
    expect(parseRange(text)).toEqual({ error });
  });

  it('pair columns follow the same rules: since 18, to 2 is to 26', () => {
    expect(dayHours('18', '2')).toEqual({ since: 18, to: 26 });
    expect(dayHours('18:00', '02:00')).toEqual({ since: 18, to: 26 });
  });
});

describe('the JSON hours layout', () => {
  it('passes the wire form through and accepts day names, ranges and written times', () => {
    expect(hoursFromJson('{"1": {"since": 9, "to": 21.5}}')).toEqual({ period: { '1': { since: 9, to: 21.5 } } });
    expect(hoursFromJson({ Sunday: null, mon: '09:00-22:00', SA: { since: '10:00', to: '01:00' }, tue: 'closed' })).toEqual({
      period: { '1': { since: 9, to: 22 }, '6': { since: 10, to: 25 } },
    });
    expect(hoursFromJson('')).toEqual({ period: {} });
    expect(hoursFromJson(undefined)).toEqual({ period: {} });
  });

  it('numbers are the wire terms and are not turned past midnight (the contract judges them)', () => {
    expect(hoursFromJson({ '5': { since: 18, to: 2 } })).toEqual({ period: { '5': { since: 18, to: 2 } } });
  });

  it.each([
    ['{"1": ', [{ day: undefined, message: `'{"1": ' is not a JSON object such as {"1": {"since": 9, "to": 22}} or {"mon": "09:00-22:00"}` }]],
    ['[1]', [{ day: undefined, message: 'opening hours must be a JSON object such as {"1": {"since": 9, "to": 22}} or {"mon": "09:00-22:00"}' }]],
    ['{"8": "9-17"}', [{ day: undefined, message: "opening hours have key '8'; use the weekday numbers 0 (Sunday) to 6 (Saturday) or day names" }]],
    ['{"1": "9-17", "mon": "9-18"}', [{ day: 1, message: "the day is given twice (key 'mon'); keep one" }]],
    ['{"1": {"since": 9, "until": 17}}', [{ day: 1, message: "unknown key 'until'; a day holds only since and to" }]],
    ['{"1": 9}', [{ day: 1, message: '9 is not opening hours such as {"since": 9, "to": 22} or "09:00-22:00"' }]],
  ])('%s is a problem naming the day', (text, problems) => {
    expect(hoursFromJson(text)).toEqual({ period: {}, problems });
  });

  it('a bad day hides no other: the days read are kept for the contract to check', () => {
    expect(hoursFromJson({ mon: 'nine to five', '2': { since: 5, to: 22 }, wed: '9-18', sun: { since: 9, until: 17 } })).toEqual({
      period: { '2': { since: 5, to: 22 }, '3': { since: 9, to: 18 } },
      problems: [
        { day: 1, message: "'nine to five': opening time 'nine' is not a time such as 9, 9:30 or 9:30 AM" },
        { day: 0, message: "unknown key 'until'; a day holds only since and to" },
      ],
    });
    // A day given twice is left out, whichever value was first.
    expect(hoursFromJson({ '1': '9-17', mon: '9-18', tue: '9-18' })).toEqual({
      period: { '2': { since: 9, to: 18 } },
      problems: [{ day: 1, message: "the day is given twice (key 'mon'); keep one" }],
    });
  });
});

describe('hours, property: formatted hours parse back to the same numbers', () => {
  // Quarter hours, so every format (decimals included) can write them exactly.
  const quarter = (min: number, max: number) => fc.integer({ min: min * 4, max: max * 4 }).map((q) => q / 4);
  const clock = (h: number) => ({ h: Math.floor(h) % 24, m: Math.round((h % 1) * 60) });
  const pad = (n: number) => String(n).padStart(2, '0');
  const FORMATS: Record<string, (hours: number) => string> = {
    'HH:MM': (x) => `${pad(clock(x).h)}:${pad(clock(x).m)}`,
    'H:MM': (x) => `${clock(x).h}:${pad(clock(x).m)}`,
    'decimal point': (x) => String(x % 24),
    'decimal comma': (x) => String(x % 24).replace('.', ','),
    'h:MM AM/PM': (x) => {
      const { h, m } = clock(x);
      return `${h % 12 === 0 ? 12 : h % 12}:${pad(m)} ${h < 12 ? 'AM' : 'PM'}`;
    },
    'ham/pm': (x) => {
      const { h, m } = clock(x);
      return `${h % 12 === 0 ? 12 : h % 12}${m ? `:${pad(m)}` : ''}${h < 12 ? 'am' : 'pm'}`;
    },
  };
  const names = Object.keys(FORMATS);

  it('parseRange(format(since) - format(to)) gives since and to back, past midnight included', () => {
    fc.assert(
      fc.property(
        quarter(6, 23),
        // Under 24 hours: a range whose ends are the same clock time is refused as ambiguous (below).
        fc.integer({ min: 1, max: 24 * 4 - 1 }),
        fc.constantFrom(...names),
        fc.constantFrom(...names),
        fc.constantFrom('-', ' - ', '–', ' – ', ' to '),
        (since, length, sinceFormat, toFormat, dash) => {
          const to = Math.min(30, since + length / 4);
          const text = `${FORMATS[sinceFormat]!(since)}${dash}${FORMATS[toFormat]!(to)}`;
          // Decimal formats write quarters as .25 and .75; .25 could be a clock's :25, so say which. A
          // closing time past midnight written `1:00` could be 13:00 on a 12-hour clock: say 24h too.
          expect(parseRange(text, 'decimal,24h'), text).toEqual({ since, to });
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('a range whose ends are the same time', () => {
  it.each(['21-21', '06:00-06:00', '6 AM - 6 AM'])('%s is refused, suggesting 6-30 for around the clock', (text) => {
    expect(parseRange(text)).toEqual({ error: expect.stringMatching(/opening and closing time are both .*6-30/) });
  });
  it("6-30 in the wire's own terms is around the clock", () => {
    expect(parseRange('6-30')).toEqual({ since: 6, to: 30 });
    // As the message words it for a pair of columns: opening 6, closing 30.
    expect(dayHours('6', '30')).toEqual({ since: 6, to: 30 });
  });
});

describe('times other countries write', () => {
  it('two digits after a dot or comma are ambiguous unless the format is declared', () => {
    expect(parseRange('08,30-21,30')).toEqual({ error: expect.stringContaining("opening time '08,30' could be 08:30 or 8.3 hours"), fixes: CLOCK_OR_DECIMAL });
    expect(parseRange('08.30-21.30', 'clock')).toEqual({ since: 8.5, to: 21.5 });
    expect(parseRange('08.30-21.30', 'decimal')).toEqual({ since: 8.3, to: 21.3 });
    // One digit is decimal hours, and 75 minutes is no clock time, so neither is ambiguous.
    expect(parseRange('9,5-21,75')).toEqual({ since: 9.5, to: 21.75 });
    expect(parseTime('21.60', false, 'clock')).toBeUndefined();
  });

  it('a dotted time with AM/PM is a clock time, whatever the format says about 8.30', () => {
    expect(parseRange('9am - 5.30pm')).toEqual({ since: 9, to: 17.5 });
    expect(parseRange('9am - 5.30pm', 'decimal')).toEqual({ since: 9, to: 17.5 });
    expect(parseRange('8.45 a.m. - 6.15 p.m.')).toEqual({ since: 8.75, to: 18.25 });
  });

  it('spreadsheets show seconds: only :00 is accepted', () => {
    expect(parseTime('09:30:00 AM')).toBe(9.5);
    expect(parseTime('21:30:00')).toBe(21.5);
    expect(parseTime('09:30:15')).toBeUndefined();
  });

  it.each(['geschlossen', 'Ruhetag', 'gesloten', 'fermé', 'Fermée', 'cerrado', 'chiuso', 'zu'])('%j is closed', (text) => {
    expect(parseRange(text)).toBe('closed');
  });

  it.each(['24h', '24 h', '24/7', 'rund um die Uhr', '24 uur', '24h/24', '24 ore', 'Open 24 hours', 'open around the clock'])(
    "%j is the service's whole day, 6-30",
    (text) => {
      expect(parseRange(text)).toEqual({ since: 6, to: 30 });
    },
  );

  it('ranges with words of other languages', () => {
    expect(parseRange('9 bis 18')).toEqual({ since: 9, to: 18 });
    expect(parseRange('9 tot 18')).toEqual({ since: 9, to: 18 });
    expect(dayHours('8,30', '21,30', 'clock')).toEqual({ since: 8.5, to: 21.5 });
  });
});

// The layouts of issue 41 in-process: Yext's legacy hours, a day's list of columns in --map, the
// meal columns of a restaurant's export, and when a file is one row per store per day.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { findDayRows } from '../../src/map/day-rows.js';
import { hoursFromJson } from '../../src/map/hours-json.js';
import { hoursColumn } from '../../src/map/layout.js';
import { loadMapping } from '../../src/map/mapping-file.js';
import { isYextHours } from '../../src/map/yext-hours.js';

describe("Yext's legacy hours", () => {
  it('reads day 1 as Sunday, 7 as Saturday; a day not listed is closed', () => {
    expect(hoursFromJson('1:10:00:16:00,2:9:00:17:00,7:9:30:13:00')).toEqual({
      period: { '0': { since: 10, to: 16 }, '1': { since: 9, to: 17 }, '6': { since: 9.5, to: 13 } },
    });
  });

  it('a day listed twice is two periods: SPLIT_HOURS, or the span when asked', () => {
    const text = '2:8:00:12:00,2:13:00:18:00';
    expect(hoursFromJson(text).problems).toMatchObject([{ day: 1, code: 'SPLIT_HOURS' }]);
    expect(hoursFromJson(text, { splitHours: 'span' })).toEqual({ period: { '1': { since: 8, to: 18 } } });
  });

  it("Yext's open 24 hours (00:00:00:00) is refused with the widest day the service accepts, which reads back as 6-30", () => {
    const [problem] = hoursFromJson('2:00:00:00:00,3:9:00:17:00').problems!;
    expect(problem).toMatchObject({ day: 1 });
    expect(problem!.message).toContain('write 2:6:00:30:00');
    expect(problem!.write).toBe('2:6:00:30:00,3:9:00:17:00');
    expect(hoursFromJson('2:6:00:30:00')).toEqual({ period: { '1': { since: 6, to: 30 } } });
  });

  it('only the whole format is Yext: day 0 or 8, or a week in words, is not', () => {
    expect(isYextHours('2:9:00:17:00, 3:9:00:17:00')).toBe(true);
    expect(isYextHours('0:9:00:17:00')).toBe(false);
    expect(isYextHours('8:9:00:17:00')).toBe(false);
    expect(isYextHours('Mo-Fr 09:00-17:00')).toBe(false);
    expect(isYextHours('2:9:00:17:00 and more')).toBe(false);
  });
});

describe('a day with several columns', () => {
  it('Monday Lunch, Monday Dinner and Monday Breakfast are the day in the order of its services', () => {
    expect(hoursColumn('Monday Breakfast')).toMatchObject({ role: 'range', slot: 1 });
    expect(hoursColumn('Monday Lunch')).toMatchObject({ role: 'range', slot: 2 });
    expect(hoursColumn('Monday Dinner')).toMatchObject({ role: 'range', slot: 3 });
    expect(hoursColumn('Mo Lunch Open')).toMatchObject({ role: 'since', slot: 2 });
    // A word that is a property of every object is no meal.
    expect(hoursColumn('Monday constructor')).toMatchObject({ role: 'unplaced' });
  });

  it('--map gives a day a list of columns, each a range or a pair, one to three', () => {
    const mapping = loadMapping('{"opentToGuestsPeriod": {"Mo": ["Lunch", {"since": "Dinner from", "to": "Dinner to"}]}}', 'store-cards');
    expect(mapping.days).toEqual([
      { day: 1, key: 'Mo', columns: { range: 'Lunch' }, slot: 1 },
      { day: 1, key: 'Mo', columns: { since: 'Dinner from', to: 'Dinner to' }, slot: 2 },
    ]);
    for (const bad of ['[]', '["A", "B", "C", "D"]', '["A", 7]']) {
      expect(() => loadMapping(`{"opentToGuestsPeriod": {"Mo": ${bad}}}`, 'store-cards')).toThrow(UsageError);
    }
  });
});

describe('one row per store per day', () => {
  it('needs a day column and the day hours: a pair, or one range column', () => {
    const none = new Set<number>();
    expect(findDayRows(['Location ID', 'Email', 'Day', 'Open Time', 'Close Time'], none)).toEqual({ day: 2, since: 3, to: 4 });
    expect(findDayRows(['Store ID', 'Email', 'Day of Week', 'Hours'], none)).toEqual({ day: 2 });
    // A day column with nothing of its hours, or half a pair, is some other column.
    expect(findDayRows(['Store ID', 'Email', 'Day'], none)).toBeUndefined();
    expect(findDayRows(['Store ID', 'Email', 'Day', 'Open Time', 'Hours'], none)).toBeUndefined();
    // The hours column --map names (any name) is each row's range.
    expect(findDayRows(['Store ID', 'Email', 'Day', 'Zeiten'], new Set([3]), true)).toEqual({ day: 2 });
    // A column the mapping took is not the day.
    expect(findDayRows(['Store ID', 'Day', 'Open', 'Close'], new Set([1]))).toBeUndefined();
  });
});

// Hours texts as people in the US, UK, Canada, Australia, India and the Philippines write them on
// signs, listings and spreadsheets (issue 41), each with what it must become: the day (or the week)
// as the service holds it, the question it must ask (both readings named), or a refusal where the
// service cannot say it. test/unit/hours-as-people-write.test.ts reads each and counts.

export type Country = 'US' | 'UK' | 'CA' | 'AU' | 'IN' | 'PH';
/** A day's periods as [since, to] in the wire's hours. */
export type Periods = readonly (readonly [number, number])[];

export type Expected =
  | { readonly read: Periods } // a day cell read as meant
  | { readonly week: Readonly<Record<string, readonly [number, number]>> } // a week cell read as meant
  | { readonly closed: true }
  | { readonly asks: readonly [string, string] } // AMBIGUOUS_TIME naming both readings
  | { readonly split: string } // SPLIT_HOURS: the service holds one period a day (--split-hours span)
  | { readonly refused: string }; // what the service cannot hold: INVALID_HOURS, the message containing this

export interface HoursText {
  readonly text: string;
  readonly where: Country;
  /** A cell of one day's column, or a week in one cell. */
  readonly cell: 'day' | 'week';
  readonly expected: Expected;
}

const day = (where: Country, text: string, ...read: [number, number][]): HoursText => ({ text, where, cell: 'day', expected: { read } });
const closed = (where: Country, text: string): HoursText => ({ text, where, cell: 'day', expected: { closed: true } });
const asks = (where: Country, text: string, twelve: string, twentyFour: string, cell: 'day' | 'week' = 'day'): HoursText => ({
  text,
  where,
  cell,
  expected: { asks: [twelve, twentyFour] },
});
const refused = (where: Country, text: string, why: string, cell: 'day' | 'week' = 'day'): HoursText => ({ text, where, cell, expected: { refused: why } });
const week = (where: Country, text: string, days: Record<string, [number, number]>): HoursText => ({ text, where, cell: 'week', expected: { week: days } });

const every = (days: number[], since: number, to: number): Record<string, [number, number]> => Object.fromEntries(days.map((d) => [String(d), [since, to]]));
const MON_FRI = [1, 2, 3, 4, 5];
const ALL = [0, 1, 2, 3, 4, 5, 6];

export const HOURS_TEXTS: readonly HoursText[] = [
  // United States: AM/PM, bare hours on signs, noon and midnight, 24 hours
  day('US', '9am-5pm', [9, 17]),
  day('US', '9 AM - 5 PM', [9, 17]),
  day('US', '9:00 AM – 5:00 PM', [9, 17]),
  day('US', '9:30am - 6:30pm', [9.5, 18.5]),
  day('US', '10 a.m. - 9 p.m.', [10, 21]),
  day('US', '8AM-10PM', [8, 22]),
  day('US', '7 am to 11 pm', [7, 23]),
  day('US', '11am-midnight', [11, 24]),
  day('US', '6pm - midnight', [18, 24]),
  day('US', 'noon-8pm', [12, 20]),
  day('US', 'Noon - 9 PM', [12, 21]),
  day('US', '12 noon - 6pm', [12, 18]),
  day('US', '11:00 AM - 12:00 AM', [11, 24]),
  day('US', '10am-2am', [10, 26]),
  day('US', '5pm-2am', [17, 26]),
  day('US', '11am-2pm, 5pm-10pm', [11, 14], [17, 22]),
  day('US', '11 AM – 2 PM, 5 – 10 PM', [11, 14], [17, 22]),
  day('US', '9:00:00 AM - 5:00:00 PM', [9, 17]),
  day('US', '06:00 AM - 10:00 PM', [6, 22]),
  day('US', '0900-1730', [9, 17.5]),
  day('US', '0800-1600', [8, 16]),
  day('US', '0600-2200', [6, 22]),
  day('US', 'Open 24 hours', [6, 30]),
  day('US', '24 hours', [6, 30]),
  day('US', '24/7', [6, 30]),
  closed('US', 'Closed'),
  closed('US', 'CLOSED'),
  closed('US', 'Closed all day'),
  closed('US', ''),
  asks('US', '7-11', '07:00-23:00', '07:00-11:00'),
  asks('US', '6-10', '06:00-22:00', '06:00-10:00'),
  asks('US', '10-10', '10:00-22:00', '10:00-10:00 next day'),
  asks('US', '12-12', '12:00-24:00', '12:00-12:00 next day'),
  asks('US', '2-10', '14:00-22:00', '02:00-10:00'),
  asks('US', '9-5', '09:00-17:00', '09:00-05:00 next day'),
  asks('US', '9-9', '09:00-21:00', '09:00-09:00 next day'),
  asks('US', '8-8', '08:00-20:00', '08:00-08:00 next day'),
  asks('US', '10-6', '10:00-18:00', '10:00-06:00 next day'),
  asks('US', '11-7', '11:00-19:00', '11:00-07:00 next day'),
  asks('US', '8-4:30', '08:00-16:30', '08:00-04:30 next day'),
  asks('US', '6:30-9', '06:30-21:00', '06:30-09:00'),
  asks('US', '10 to 6', '10:00-18:00', '10:00-06:00 next day'),
  refused('US', 'By appointment', 'not a range'),
  refused('US', 'Call for hours', 'not a range'),
  week('US', 'Mon-Fri 9am-5pm, Sat 10am-4pm', { ...every(MON_FRI, 9, 17), '6': [10, 16] }),
  week('US', 'Mon-Fri: 9AM-6PM; Sat: 10AM-5PM; Sun: Closed', { ...every(MON_FRI, 9, 18), '6': [10, 17] }),
  week(
    'US',
    'Monday: 9 AM – 5 PM, Tuesday: 9 AM – 5 PM, Wednesday: 9 AM – 5 PM, Thursday: 9 AM – 5 PM, Friday: 9 AM – 5 PM, Saturday: Closed, Sunday: Closed',
    every(MON_FRI, 9, 17),
  ),
  week('US', 'Mon-Sun 11am-midnight', every(ALL, 11, 24)),
  week('US', 'Mon-Fri 10am - 6, Sat 11-5', { ...every(MON_FRI, 10, 18), '6': [11, 17] }),
  week('US', 'Mon-Fri 7-11, Sat 8am-10pm', { ...every(MON_FRI, 7, 23), '6': [8, 22] }),
  // `M-F`: M is Monday to an American, but the week reader refuses one-letter English days.
  refused('US', 'M-F 9am-5pm', 'not a range', 'week'),
  week('US', 'Open 24 hours', every(ALL, 6, 30)),
  week('US', '24/7', every(ALL, 6, 30)),
  week('US', 'Closed', {}),
  asks('US', 'Mon-Fri 9-5', '09:00-17:00', '09:00-05:00 next day', 'week'),
  asks('US', 'Mon-Sat 7-11', '07:00-23:00', '07:00-11:00', 'week'),
  refused('US', 'Seasonal hours, call ahead', 'not', 'week'),

  // United Kingdom: 24-hour and dotted times, `9.30-5.30` on a shop door
  day('UK', '09:00-17:30', [9, 17.5]),
  day('UK', '9:00-17:30', [9, 17.5]),
  day('UK', '08:00 - 20:00', [8, 20]),
  day('UK', '10:00–16:00', [10, 16]),
  day('UK', '9am-5.30pm', [9, 17.5]),
  day('UK', '9.30am - 5.30pm', [9.5, 17.5]),
  day('UK', '10.00am-4.00pm', [10, 16]),
  day('UK', '7.30am to 9pm', [7.5, 21]),
  day('UK', '12 noon - 11pm', [12, 23]),
  day('UK', '11:00-23:00', [11, 23]),
  day('UK', '17:00-23:30', [17, 23.5]),
  day('UK', '18:00-02:00', [18, 26]),
  day('UK', '9-17', [9, 17]),
  day('UK', '8-20', [8, 20]),
  day('UK', '9:00-12:30, 13:30-17:00', [9, 12.5], [13.5, 17]),
  day('UK', 'Open 24h', [6, 30]),
  closed('UK', 'Closed'),
  closed('UK', '-'),
  closed('UK', 'Closed all day'),
  asks('UK', '9.30-5.30', '09:30-17:30', '09:30-05:30 next day'),
  asks('UK', '9-5.30', '09:00-17:30', '09:00-05:30 next day'),
  asks('UK', '10-4', '10:00-16:00', '10:00-04:00 next day'),
  asks('UK', '8.30-6', '08:30-18:00', '08:30-06:00 next day'),
  refused('UK', 'Bank holidays only', 'not a range'),
  week('UK', 'Mon-Fri 09:00-17:30, Sat 10:00-16:00', { ...every(MON_FRI, 9, 17.5), '6': [10, 16] }),
  week('UK', 'Mo-Fr 09:00-17:30; Sa 09:00-13:00; Su off', { ...every(MON_FRI, 9, 17.5), '6': [9, 13] }),
  week('UK', 'Monday to Friday 9am-5.30pm', every(MON_FRI, 9, 17.5)),
  week('UK', 'Mon-Sat 8-20, Sun 10-16', { ...every([1, 2, 3, 4, 5, 6], 8, 20), '0': [10, 16] }),
  week('UK', 'Mon-Sat 7-11, Sun 10-16', { ...every([1, 2, 3, 4, 5, 6], 7, 11), '0': [10, 16] }),
  week('UK', 'Mon-Fri 9:00-17:00, Sat 9:00-12:00', { ...every(MON_FRI, 9, 17), '6': [9, 12] }),
  week('UK', 'Mo-Su 10:00-22:00', every(ALL, 10, 22)),
  week('UK', 'Closed', {}),
  asks('UK', 'Mon-Sat 9.30-5.30', '09:30-17:30', '09:30-05:30 next day', 'week'),

  // Canada: English and French, 24-hour and AM/PM
  day('CA', '9 h à 17 h', [9, 17]),
  day('CA', '9h-21h', [9, 21]),
  day('CA', '8h30 à 17h', [8.5, 17]),
  day('CA', 'de 10h à 18h', [10, 18]),
  day('CA', '10:00 AM - 9:00 PM', [10, 21]),
  day('CA', '7am-11pm', [7, 23]),
  day('CA', '06:00-23:00', [6, 23]),
  day('CA', '11:30 a.m. - 10 p.m.', [11.5, 22]),
  day('CA', 'noon to 8 p.m.', [12, 20]),
  day('CA', '24 h', [6, 30]),
  day('CA', 'Open around the clock', [6, 30]),
  closed('CA', 'Fermé'),
  closed('CA', 'closed'),
  asks('CA', '10-6', '10:00-18:00', '10:00-06:00 next day'),
  asks('CA', '7-11', '07:00-23:00', '07:00-11:00'),
  week('CA', 'lundi au vendredi de 9h à 17h', every(MON_FRI, 9, 17)),
  week('CA', 'Mon-Fri 9:00 AM - 9:00 PM, Sat-Sun 10:00 AM - 6:00 PM', { ...every(MON_FRI, 9, 21), ...every([0, 6], 10, 18) }),
  week('CA', 'Mon-Sun 6am-midnight', every(ALL, 6, 24)),
  week('CA', 'Monday-Friday 8:30-4:30, Saturday 9am-1pm', { ...every(MON_FRI, 8.5, 16.5), '6': [9, 13] }),
  week('CA', 'Lun-Ven 9h-18h', every(MON_FRI, 9, 18)),
  week('CA', 'Sa-Su open 24 hours', every([0, 6], 6, 30)),
  asks('CA', 'Mon-Fri 10-6', '10:00-18:00', '10:00-06:00 next day', 'week'),

  // Australia: am/pm with dots, "midday", 24-hour
  day('AU', '9am - 5pm', [9, 17]),
  day('AU', '8.30am - 5.30pm', [8.5, 17.5]),
  day('AU', '9.00am-5.00pm', [9, 17]),
  day('AU', '7am-10pm', [7, 22]),
  day('AU', 'midday-6pm', [12, 18]),
  day('AU', '11.30am - midnight', [11.5, 24]),
  day('AU', '12pm-9pm', [12, 21]),
  day('AU', '10:00-16:00', [10, 16]),
  day('AU', '24 hours', [6, 30]),
  refused('AU', '5pm - late', "closing time 'late'"),
  closed('AU', 'Closed'),
  closed('AU', 'closed all day'),
  asks('AU', '9-5', '09:00-17:00', '09:00-05:00 next day'),
  asks('AU', '8.30-5', '08:30-17:00', '08:30-05:00 next day'),
  asks('AU', '6-10', '06:00-22:00', '06:00-10:00'),
  week('AU', 'Mon-Fri 8.30am-5.30pm, Sat 9am-12pm', { ...every(MON_FRI, 8.5, 17.5), '6': [9, 12] }),
  week('AU', 'Mon-Sun 7am-10pm', every(ALL, 7, 22)),
  week('AU', 'Mon-Thu 9am-5pm; Fri 9am-9pm; Sat 9am-5pm; Sun 10am-4pm', { ...every([1, 2, 3, 4], 9, 17), '5': [9, 21], '6': [9, 17], '0': [10, 16] }),
  week('AU', 'Mon-Fri 9-17:30', every(MON_FRI, 9, 17.5)),
  asks('AU', 'Mon-Fri 9-5.30', '09:00-17:30', '09:00-05:30 next day', 'week'),

  // India: AM/PM, "to", and 24-hour in listings
  day('IN', '10:00 AM to 8:00 PM', [10, 20]),
  day('IN', '10 AM - 9 PM', [10, 21]),
  day('IN', '9:30 AM - 6:30 PM', [9.5, 18.5]),
  day('IN', '11am to 11pm', [11, 23]),
  day('IN', '10:00 - 21:00', [10, 21]),
  day('IN', '09:30-18:30', [9.5, 18.5]),
  day('IN', '7 AM – 10 PM', [7, 22]),
  day('IN', '12:00 PM - 11:00 PM', [12, 23]),
  day('IN', '24 Hours', [6, 30]),
  closed('IN', 'Closed'),
  closed('IN', 'CLOSED'),
  asks('IN', '10-8', '10:00-20:00', '10:00-08:00 next day'),
  asks('IN', '10 to 7', '10:00-19:00', '10:00-07:00 next day'),
  asks('IN', '9.30-6.30', '09:30-18:30', '09:30-06:30 next day'),
  week('IN', 'Mon-Sat 10:00 AM - 8:00 PM, Sun Closed', every([1, 2, 3, 4, 5, 6], 10, 20)),
  week('IN', 'Monday to Saturday 10 AM to 9 PM', every([1, 2, 3, 4, 5, 6], 10, 21)),
  week('IN', 'Mon-Sun 10:00-22:00', every(ALL, 10, 22)),
  week('IN', 'Mon-Sat 10-8, Sun 11am-5pm', { ...every([1, 2, 3, 4, 5, 6], 10, 20), '0': [11, 17] }),

  // The Philippines: 12nn and 12mn, AM/PM
  day('PH', '8am - 12nn', [8, 12]),
  day('PH', '12nn - 9pm', [12, 21]),
  day('PH', '10AM-12MN', [10, 24]),
  day('PH', '9:00 AM - 6:00 PM', [9, 18]),
  day('PH', '10am-10pm', [10, 22]),
  day('PH', '7:00AM-7:00PM', [7, 19]),
  refused('PH', '12 midnight', 'not a range'),
  day('PH', '11am-12 midnight', [11, 24]),
  day('PH', 'Open 24 hours', [6, 30]),
  closed('PH', 'Closed'),
  asks('PH', '10-10', '10:00-22:00', '10:00-10:00 next day'),
  asks('PH', '8-5', '08:00-17:00', '08:00-05:00 next day'),
  asks('PH', '7-7', '07:00-19:00', '07:00-07:00 next day'),
  week('PH', 'Mon-Sat 8am-5pm, Sun closed', every([1, 2, 3, 4, 5, 6], 8, 17)),
  week('PH', 'Mon-Sun 10AM-10PM', every(ALL, 10, 22)),
  { text: 'Mon-Fri 8am-12nn, 1pm-5pm', where: 'PH', cell: 'week', expected: { split: 'two opening periods, 08:00-12:00 and 13:00-17:00' } },
];

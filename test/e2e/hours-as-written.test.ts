// Issue 20, the mapping half: weekday ranges in headers, a week in one cell, times as six countries
// write them, lunch breaks, every error in one pass, and headers that say what they need. Each
// scenario is a fixture run through the real CLI against a real sandbox, which must store exactly the
// fixture's wire JSON, or the run must stop with exactly the fixture's issues and send nothing.
import { describe, expect, it } from 'vitest';
import { upload, uploadsExactly, refusesExactly, type Refusal, type Upload } from '../helpers/scenarios.js';

const UPLOADS: Upload[] = [
  // Öffnungszeiten Mo-Fr / Sa / So, with E-Mail-Adresse and Konzept as the field names
  { kind: 'store-cards', file: 'store-cards-weekday-range-headers.csv', wire: 'store-cards-weekday-range-headers.wire.json' },
  { kind: 'store-cards', file: 'store-cards-weekday-ranges-dutch.csv', wire: 'store-cards-weekday-ranges-dutch.wire.json' },
  // The same CSV converted by LibreOffice (soffice --headless --convert-to xlsx)
  { kind: 'store-cards', file: 'store-cards-weekday-ranges-dutch-libreoffice.xlsx', wire: 'store-cards-weekday-ranges-dutch.wire.json' },
  // OpenStreetMap, Google, German and French weeks in one column
  { kind: 'store-cards', file: 'store-cards-week-column.csv', wire: 'store-cards-week-column.wire.json' },
  { kind: 'store-cards', file: 'store-cards-week-column-libreoffice.xlsx', wire: 'store-cards-week-column.wire.json' },
  { kind: 'store-cards', file: 'store-cards-times-as-written.csv', wire: 'store-cards-times-as-written.wire.json' },
  // Spanish one-letter days: L-V, L a V, L, M, X, J, V, S-D, L-S
  { kind: 'store-cards', file: 'store-cards-spanish-day-letters.csv', wire: 'store-cards-spanish-day-letters.wire.json' },
  { kind: 'store-cards', file: 'store-cards-lunch-break.csv', wire: 'store-cards-lunch-break.span.wire.json', args: ['--split-hours', 'span'] },
  // The file gives Monday, Tuesday and Saturday: the other days are declared closed (MISSING_DAYS otherwise).
  {
    kind: 'store-cards',
    file: 'store-cards-morning-afternoon.csv',
    wire: 'store-cards-morning-afternoon.span.wire.json',
    args: ['--split-hours', 'span', '--closed-days', 'We-Fr,Su'],
  },
  {
    kind: 'store-cards',
    file: 'store-cards-morning-afternoon.csv',
    wire: 'store-cards-morning-afternoon.span.wire.json',
    args: ['--map', '{"splitHours": "span", "closedDays": ["We", "Th", "Fr", "Su"]}'],
  },
  {
    kind: 'team-members',
    file: 'team-members-vorname-nachname.csv',
    wire: 'team-members-vorname-nachname.wire.json',
    args: ['--map', '{"name": ["Vorname", "Nachname"]}'],
  },
];

uploadsExactly(UPLOADS);

const REFUSALS: Refusal[] = [
  { kind: 'store-cards', file: 'store-cards-lunch-break.csv', issues: 'store-cards-lunch-break.issues.json' },
  { kind: 'store-cards', file: 'store-cards-morning-afternoon.csv', issues: 'store-cards-morning-afternoon.issues.json' },
  { kind: 'store-cards', file: 'store-cards-every-error-one-pass.csv', issues: 'store-cards-every-error-one-pass.issues.json' },
  // The same in JSON: an unreadable day of the hours object or week text hides no other day's error.
  { kind: 'store-cards', file: 'store-cards-every-error-one-pass.json', issues: 'store-cards-every-error-one-pass-json.issues.json' },
  // M without X (French mardi or mercredi?) and a lone S: the letters have more than one reading.
  { kind: 'store-cards', file: 'store-cards-spanish-day-letters-unclear.csv', issues: 'store-cards-spanish-day-letters-unclear.issues.json' },
  { kind: 'team-members', file: 'team-members-vorname-nachname.csv', issues: 'team-members-vorname-nachname.issues.json' },
  { kind: 'team-members', file: 'team-members-voornaam-achternaam.csv', issues: 'team-members-voornaam-achternaam.issues.json' },
];

refusesExactly('each scenario that needs the user stops with exit 3 and its issues, sending nothing', REFUSALS);

describe.concurrent('on screen', () => {
  it('a lunch break says the service holds one period per day and how to send the span', async () => {
    const { run: r } = await upload('store-cards', 'store-cards-lunch-break.csv', [], true);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'store-cards-lunch-break.csv:2 Mon: Monday: two opening periods, 09:00-12:00 and 14:00-18:00, but the service holds one period per day',
    );
    expect(r.stderr).toContain('--split-hours span to send 09:00-18:00');
  });

  it('a missing name next to Vorname and Nachname gives the --map line, and the advice is about the header', async () => {
    const { run: r } = await upload('team-members', 'team-members-vorname-nachname.csv', [], true);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`join them with --map '{"name": ["Vorname", "Nachname"]}'`);
    expect(r.stderr).toContain('in the header; nothing was sent');
    expect(r.stderr).toContain('fix the header as said above');
    expect(r.stderr).not.toContain('fix the cells named above');
  });

  it('every unused column is named, up to ten, then "and N more"', async () => {
    const { run: r } = await upload('team-members', 'team-members-unused-columns.csv', ['--dry-run'], true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "12 columns are not used: 'Department', 'Cost Center', 'Hire Date', 'Manager', 'Shift Pattern', 'Badge Colour', 'Locker', 'Parking Spot', 'T-Shirt Size', 'Dietary Needs' and 2 more (team-members-unused-columns.csv:1)",
    );
    expect(r.stderr).not.toMatch(/rows \(/);
  });
});

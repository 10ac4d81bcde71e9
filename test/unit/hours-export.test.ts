// Store hours exported to the listings' standards (`upload export store-cards --format osm|schema-org|gbp`):
// each format reads back to the recorded week — OpenStreetMap's values by the `opening_hours`
// package (the reference) and by the tool's own week reader, the whole OSM file through the stages
// of an upload; schema.org's lists and Google Business Profile's columns by the standards' own
// conventions (test/helpers/listings.ts: the tool's readers of those are other work of issue 41).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import OpeningHours from 'opening_hours';
import { describe, expect, it } from 'vitest';
import { writeExport } from '../../src/export/file.js';
import { GBP_HEADER, gbpCells } from '../../src/export/gbp.js';
import { exportChunks, type ExportFormat } from '../../src/export/index.js';
import { osmHours } from '../../src/export/osm.js';
import { specifications } from '../../src/export/schema-org.js';
import { buildPlan } from '../../src/pipeline/plan.js';
import { hoursFromJson } from '../../src/map/hours-json.js';
import { gbpWeek, schemaOrgWeek, type Period } from '../helpers/listings.js';
import { tempDir } from '../helpers/tmp.js';

const STORES: { nodeKey: string; email: string; storeConceptCode: number | null; opentToGuestsPeriod: Period }[] = [
  // a split week, the same hours on three days, two nights past midnight
  {
    nodeKey: 'S1',
    email: 'a@example.com',
    storeConceptCode: 12,
    opentToGuestsPeriod: {
      '1': { since: 9, to: 21 },
      '2': { since: 9, to: 21 },
      '3': { since: 9, to: 21 },
      '5': { since: 18, to: 26 },
      '6': { since: 18, to: 26 },
    },
  },
  // the service's whole day (06:00 to 06:00 next day), half and quarter hours, Sunday's night into Monday
  {
    nodeKey: 'S2',
    email: 'b@example.com',
    storeConceptCode: null,
    opentToGuestsPeriod: { '0': { since: 22, to: 28 }, '1': { since: 9, to: 17 }, '3': { since: 6, to: 30 }, '4': { since: 8.5, to: 17.25 } },
  },
  // closed every day
  { nodeKey: 'S3', email: 'c@example.com', storeConceptCode: 1, opentToGuestsPeriod: {} },
  // days apart with the same hours
  {
    nodeKey: 'S4',
    email: 'd@example.com',
    storeConceptCode: 2,
    opentToGuestsPeriod: { '1': { since: 10, to: 14 }, '3': { since: 10, to: 14 }, '5': { since: 10, to: 14 } },
  },
];
const BODIES = STORES.map((s) => JSON.stringify(s));

async function exported(format: ExportFormat, bodies: readonly string[] = BODIES): Promise<string> {
  const t = tempDir();
  const path = join(t.dir, `stores.${format}`);
  await writeExport(path, await exportChunks('store-cards', bodies, format, true));
  return path;
}

// A week without public holidays (as in opening-hours-corpus.test.ts): Monday 8 to Monday 15 October 2012.
const FROM = new Date(2012, 9, 8);
const TO = new Date(2012, 9, 15);
const WEEK = 7 * 1440;

function merged(intervals: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of intervals.sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else if (b > a) out.push([a, b]);
  }
  return out;
}

/** The reference's open minutes of the week from Monday 00:00. */
function reference(value: string): [number, number][] {
  const intervals = new OpeningHours(value, null, 0).getOpenIntervals(FROM, TO);
  expect(intervals.some(([, , unknown]) => unknown)).toBe(false);
  return merged(intervals.map(([a, b]) => [(a.getTime() - FROM.getTime()) / 60000, (b.getTime() - FROM.getTime()) / 60000]));
}

/** The wire week's open minutes of the same week; a night past Sunday runs into Monday. */
function minutes(period: Period): [number, number][] {
  const out: [number, number][] = [];
  for (const [day, { since, to }] of Object.entries(period)) {
    const start = ((Number(day) + 6) % 7) * 1440;
    const [a, b] = [start + Math.round(since * 60), start + Math.round(to * 60)];
    if (b <= WEEK) out.push([a, b]);
    else out.push([a, WEEK], [0, b - WEEK]);
  }
  return merged(out);
}

/** Any wire week of whole quarter hours: opening 6 to 23, closing after it up to 30. */
const week = fc.dictionary(
  fc.constantFrom('0', '1', '2', '3', '4', '5', '6'),
  fc
    .tuple(fc.integer({ min: 24, max: 92 }), fc.integer({ min: 1, max: 96 }))
    .filter(([s, l]) => s + l <= 120)
    .map(([s, l]) => ({ since: s / 4, to: (s + l) / 4 })),
);

describe('OpenStreetMap opening_hours', () => {
  it('writes nights past midnight as OpenStreetMap does, and the whole day as extended time', () => {
    expect(osmHours(STORES[0]!.opentToGuestsPeriod, 'S1')).toBe('Mo-We 09:00-21:00, Fr,Sa 18:00-02:00');
    expect(osmHours(STORES[1]!.opentToGuestsPeriod, 'S2')).toBe('Mo 09:00-17:00, We 06:00-30:00, Th 08:30-17:15, Su 22:00-04:00');
    expect(osmHours({}, 'S3')).toBe('Mo-Su off');
    expect(osmHours(STORES[3]!.opentToGuestsPeriod, 'S4')).toBe('Mo,We,Fr 10:00-14:00');
    expect(osmHours({ '1': { since: 9, to: 18 }, '6': { since: 10, to: 14 } }, 'S')).toBe('Mo 09:00-18:00; Sa 10:00-14:00');
  });

  it('each value means the recorded week to the opening_hours package and to the tool', () => {
    for (const store of STORES) {
      const value = osmHours(store.opentToGuestsPeriod, store.nodeKey);
      expect(reference(value), value).toEqual(minutes(store.opentToGuestsPeriod));
      expect(hoursFromJson(value), value).toEqual({ period: store.opentToGuestsPeriod });
    }
  });

  it('any week of whole quarter hours: the reference and the tool read it back', () => {
    fc.assert(
      fc.property(week, (period) => {
        const value = osmHours(period, 'S');
        expect(reference(value), value).toEqual(minutes(period));
        expect(hoursFromJson(value), value).toEqual({ period });
      }),
      { numRuns: 200 },
    );
  });

  it('the file uploads back to the identical records', async () => {
    const path = await exported('osm');
    expect(readFileSync(path, 'utf8').split('\r\n')[0]).toBe('\uFEFFnodeKey,email,storeConceptCode,opening_hours');
    const plan = await buildPlan({ kind: 'store-cards', path, read: { source: path }, mapping: {} });
    expect(plan.issues).toEqual([]);
    expect(Array.from({ length: plan.bodies.length }, (_, i) => plan.bodies.json(i))).toEqual(BODIES);
  });
});

describe('schema.org OpeningHoursSpecification', () => {
  it('one Store per card; a night closes on the next day; closed days opens and closes 00:00', async () => {
    const stores = JSON.parse(readFileSync(await exported('schema-org'), 'utf8')) as Record<string, unknown>[];
    expect(stores.map((s) => [s['@context'], s['@type'], s.branchCode])).toEqual(STORES.map((s) => ['https://schema.org', 'Store', s.nodeKey]));
    expect(stores[0]!.openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday'].map((d) => `https://schema.org/${d}`),
        opens: '09:00',
        closes: '21:00',
      },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['https://schema.org/Friday', 'https://schema.org/Saturday'], opens: '18:00', closes: '02:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['https://schema.org/Thursday', 'https://schema.org/Sunday'], opens: '00:00', closes: '00:00' },
    ]);
  });

  it('each list, read by the conventions schema.org listings follow, is the recorded week', async () => {
    const stores = JSON.parse(readFileSync(await exported('schema-org'), 'utf8')) as Record<string, unknown>[];
    stores.forEach((store, i) => {
      expect(schemaOrgWeek(store.openingHoursSpecification as Parameters<typeof schemaOrgWeek>[0])).toEqual(STORES[i]!.opentToGuestsPeriod);
    });
    // The whole day (06:00 to 06:00 next morning) is schema.org's open 24 hours.
    expect((stores[1]!.openingHoursSpecification as object[])[1]).toEqual({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: ['https://schema.org/Wednesday'],
      opens: '00:00',
      closes: '23:59',
    });
  });

  it('any week of whole quarter hours reads back', () => {
    fc.assert(
      fc.property(week, (period) => {
        expect(schemaOrgWeek(specifications(period, 'S'))).toEqual(period);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Google Business Profile bulk sheet hours columns', () => {
  it("the sheet's column names, Sunday first; a night closes on the next day, x is closed", async () => {
    const rows: string[][] = parse(readFileSync(await exported('gbp'), 'utf8'), { bom: true });
    expect(rows[0]).toEqual([
      'Store code',
      'Sunday hours',
      'Monday hours',
      'Tuesday hours',
      'Wednesday hours',
      'Thursday hours',
      'Friday hours',
      'Saturday hours',
    ]);
    expect(rows[1]).toEqual(['S1', 'x', '09:00-21:00', '09:00-21:00', '09:00-21:00', 'x', '18:00-02:00', '18:00-02:00']);
    expect(rows[2]).toEqual(['S2', '22:00-04:00', '09:00-17:00', 'x', '00:00-24:00', '08:30-17:15', 'x', 'x']);
  });

  it('read back by the format GBP documents, each row is the recorded week', async () => {
    const rows: Record<string, string>[] = parse(readFileSync(await exported('gbp'), 'utf8'), { bom: true, columns: true });
    expect(rows.map((r) => [r['Store code'], gbpWeek(GBP_HEADER.slice(1).map((h) => r[h]!))])).toEqual(STORES.map((s) => [s.nodeKey, s.opentToGuestsPeriod]));
  });

  it('any week of whole quarter hours reads back', () => {
    fc.assert(
      fc.property(week, (period) => {
        expect(gbpWeek(gbpCells(period, 'S'))).toEqual(period);
      }),
      { numRuns: 200 },
    );
  });
});

describe('hours that are not whole minutes', () => {
  for (const format of ['osm', 'schema-org', 'gbp'] as const) {
    it(`are refused as ${format}, with --format json as the fix`, async () => {
      const odd = JSON.stringify({ nodeKey: 'S9', email: 'e@example.com', storeConceptCode: 1, opentToGuestsPeriod: { '3': { since: 9.333333, to: 17 } } });
      const error = await exported(format, [odd]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'EXPORT_INEXACT', fixes: [{ kind: 'flags', args: ['--format', 'json'] }] });
      expect((error as Error).message).toContain('record S9: opentToGuestsPeriod.3');
    });
  }
});

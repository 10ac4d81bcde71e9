// Property: the holders of a field among unchanged records, counted from the records' bytes
// (src/diff/changed.ts), are exactly those a parse of every record finds — whatever the strings hold,
// including text that looks like a field (`"roleCode":null`, `"1":{`) inside a name or a key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseChanges } from '../../src/diff/changed.js';
import { isEmpty, valueOf } from '../../src/diff/fields.js';
import { Bodies } from '../../src/contract/json-array.js';
import { diffRecords } from '../../src/diff/index.js';
import { RecordsByKey } from '../../src/diff/records.js';

const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom('"roleCode":null', '","roleCode":null,"x":"', '"parentKey":""', '"1":{', '{"1":{"since":9,"to":18}}', '\\"', ''),
);
const nullable = fc.option(tricky, { nil: null });

const member = fc.record({ name: tricky, roleCode: nullable, parentKey: nullable });
const day = fc.option(fc.record({ since: fc.integer({ min: 6, max: 23 }), to: fc.integer({ min: 8, max: 30 }) }), { nil: undefined });
const card = fc.record({ email: tricky, storeConceptCode: fc.option(fc.integer(), { nil: null }), days: fc.array(day, { minLength: 7, maxLength: 7 }) });

/** Canonical wire JSON, fields in contract order (as the plan and the snapshot write them). */
const memberJson = (key: string, m: { name: string; roleCode: string | null; parentKey: string | null }) =>
  JSON.stringify({ employeeID: key, email: 'x@example.com', name: m.name, roleCode: m.roleCode, parentKey: m.parentKey });
const cardJson = (key: string, c: { email: string; storeConceptCode: number | null; days: ({ since: number; to: number } | undefined)[] }) =>
  JSON.stringify({
    nodeKey: key,
    email: c.email,
    storeConceptCode: c.storeConceptCode,
    opentToGuestsPeriod: Object.fromEntries(c.days.flatMap((d, i) => (d ? [[String(i), d]] : []))),
  });

/** One record that loses every lossy field (so each is counted), then the unchanged ones. */
function check(kind: 'team-members' | 'store-cards', full: string, empty: string, unchanged: string[]) {
  const keys = ['K-lost', ...unchanged.map((_, i) => `K${i}`)];
  const withKey = (json: string, key: string) => json.replace(/^\{"(employeeID|nodeKey)":"[^"]*"/, `{"$1":${JSON.stringify(key)}`);
  const bodies = [withKey(empty, 'K-lost'), ...unchanged.map((b, i) => withKey(b, `K${i}`))];
  const keyField = kind === 'team-members' ? 'employeeID' : 'nodeKey';
  const baseline = RecordsByKey.index(Bodies.of(keys.map((_, i) => (i === 0 ? withKey(full, 'K-lost') : bodies[i]!))), keyField)!;
  const planned = Bodies.of(bodies);
  const diff = diffRecords(baseline, 'snapshot', keys, planned);
  const tally = analyseChanges(kind, baseline, keys, planned, diff)!;
  for (const loss of tally.losses) {
    const parsed = bodies.slice(1).filter((b) => !isEmpty(valueOf(JSON.parse(b) as Record<string, unknown>, loss.field))).length;
    expect(loss.held, loss.field).toBe(parsed + 1);
    expect(loss.records, loss.field).toBe(1);
  }
}

describe('holders counted from the bytes', () => {
  it('agree with a parse for team members', () => {
    fc.assert(
      fc.property(fc.array(member, { maxLength: 30 }), (members) => {
        check(
          'team-members',
          memberJson('K', { name: 'n', roleCode: 'r', parentKey: 'p' }),
          memberJson('K', { name: 'n', roleCode: null, parentKey: null }),
          members.map((m) => memberJson('K', m)),
        );
      }),
    );
  });

  it('agree with a parse for store cards, day by day', () => {
    const open = { since: 9, to: 18 };
    fc.assert(
      fc.property(fc.array(card, { maxLength: 30 }), (cards) => {
        check(
          'store-cards',
          cardJson('K', { email: 'e', storeConceptCode: 1, days: Array(7).fill(open) }),
          cardJson('K', { email: 'e', storeConceptCode: null, days: Array(7).fill(undefined) }),
          cards.map((c) => cardJson('K', c)),
        );
      }),
    );
  });
});

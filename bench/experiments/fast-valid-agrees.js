// EXPERIMENT: the fast accept check never accepts what zod rejects (and, for the record, how often it
// defers to zod on valid records). Property-based, on candidates shaped like mapRecord's output.
import fc from 'fast-check';
import { storeCard, teamMember } from '../../dist/contract/schemas.js';
import { storeCardValid, teamMemberValid } from './fast-valid.js';

const text = fc.oneof(fc.constantFrom('', ' ', '\t', 'E1', 'a@b.co', 'björn@exämple.se', 'x@y', 'a b@c.de', 'a@@b.com', 'a..b@c.de', '1.2E+05', '=SUM(A1)'), fc.string({ unit: 'grapheme', maxLength: 12 }));
const value = fc.oneof(text, fc.constant(null), fc.constant(undefined), fc.integer(), fc.double());
const hour = fc.oneof(fc.constantFrom(5.99, 6, 8, 23, 23.01, 24, 26, 30, 30.01, NaN, Infinity), fc.double({ min: 0, max: 35 }), fc.constant('9'));
const day = fc.oneof(fc.record({ since: hour, to: hour }), fc.constant(undefined), fc.record({ since: hour, to: hour, extra: hour }));
const period = fc.dictionary(fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', 'mon'), day, { maxKeys: 8 });
const member = fc.record({ employeeID: value, email: value, name: value, roleCode: value, parentKey: value });
const card = fc.record({ nodeKey: value, email: value, storeConceptCode: fc.oneof(value, fc.double()), opentToGuestsPeriod: fc.oneof(period, fc.constant(null), fc.constant([])) });

let accepted = 0;
for (const [name, arb, fast, schema] of [['team member', member, teamMemberValid, teamMember], ['store card', card, storeCardValid, storeCard]]) {
  fc.assert(
    fc.property(arb, (c) => {
      const zodOk = schema.safeParse(c).success;
      if (fast(c)) {
        accepted++;
        if (!zodOk) throw new Error(`${name}: fast accepted what zod rejects: ${JSON.stringify(c)}`);
      }
    }),
    { numRuns: 50_000 },
  );
  console.log(`${name}: no disagreement in 50,000 candidates`);
}
console.log(`fast accepted ${accepted} of them (all also accepted by zod)`);

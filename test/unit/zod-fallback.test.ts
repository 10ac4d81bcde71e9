// INVALID_VALUE is the words for a finding of the contract's schema that no other issue code names: no
// file the suite knows of reaches it (each value the tool refuses has a code of its own), so it is
// produced here from the schema itself, as the validator would meet it.
import { describe as group, expect, it } from 'vitest';
import { teamMember } from '../../src/contract/schemas.js';
import { describe } from '../../src/validate/messages.js';

group('a finding no other code names', () => {
  it('is INVALID_VALUE, naming the field, the value as written and what the schema said', () => {
    // A name of spaces only, written as something else (a value table's entry): not REQUIRED, since the cell was not empty.
    const parsed = teamMember.safeParse({ employeeID: 'E1', email: 'e1@example.com', name: '  ', roleCode: null, parentKey: null });
    expect(parsed.success).toBe(false);
    const found = describe(parsed.error!.issues[0]!, 'Clerk');
    expect(found).toEqual({ code: 'INVALID_VALUE', message: "name 'Clerk': must not be empty; fix the cell or remove the row" });
  });
});

// `9am - 5.30pm`: a dotted time with AM/PM is a clock time. It was once asked about as "05:30 or 5.3
// hours" with the hint "write 05:30", which sends 09:00–05:30 next day; it is read as 17:30.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

describe('a dotted time with am/pm', () => {
  it('9am - 5.30pm is sent as 09:00-17:30, with no question asked', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'hours.csv');
    writeFileSync(
      file,
      'Store ID,Email,Monday,Tuesday,Wednesday,Thursday,Friday,Saturday,Sunday\nS1,s1@example.com,9am - 5.30pm,9am - 5pm,9am - 5pm,9am - 5pm,8.45am - 6.15pm,closed,closed\n',
    );
    const r = await runCli(['store-cards', file, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().issues).toEqual([]);
    expect(await sb.stored('/integrations/storeCards')).toEqual([
      {
        nodeKey: 'S1',
        email: 's1@example.com',
        storeConceptCode: null,
        opentToGuestsPeriod: {
          '1': { since: 9, to: 17.5 },
          '2': { since: 9, to: 17 },
          '3': { since: 9, to: 17 },
          '4': { since: 9, to: 17 },
          '5': { since: 8.75, to: 18.25 },
        },
      },
    ]);
  });
});

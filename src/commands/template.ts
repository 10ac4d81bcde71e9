// `upload template <kind>`: a CSV with every column and an example row, on stdout.
import { defineCommand } from '../cli/command.js';

const TEMPLATES: Record<string, string> = {
  'store-cards': [
    'nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat',
    'STORE-001,store001@example.com,12,closed,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-23:30,10:00-02:00',
  ].join('\r\n'),
  'team-members': ['employeeID,email,name,roleCode,parentKey', 'E1001,jane.doe@example.com,Jane Doe,3,STORE-001'].join('\r\n'),
};

export default defineCommand({
  examples: ['$ upload template store-cards > stores.csv', '$ upload template team-members > staff.csv'],
  flags: [],
  ownsTerminal: true,
  run: async ({ args: [kind], io }) => {
    const text = TEMPLATES[String(kind)];
    if (!text) {
      const { UsageError } = await import('../errors.js');
      throw new UsageError('BAD_USAGE', `template '${String(kind)}' is not a kind`, 'use: upload template store-cards, or upload template team-members');
    }
    io.stdout.write(`${text}\r\n`);
    return {};
  },
});

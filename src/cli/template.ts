// `upload template <kind>`: a CSV with every column and an example row, on stdout.
import { UsageError } from '../errors.js';
import type { ProcessIo } from './io.js';
import type { CommandResult } from './result.js';

const TEMPLATES: Record<string, string> = {
  'store-cards': [
    'nodeKey,email,storeConceptCode,sun,mon,tue,wed,thu,fri,sat',
    'STORE-001,store001@example.com,12,closed,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-23:30,10:00-02:00',
  ].join('\r\n'),
  'team-members': ['employeeID,email,name,roleCode,parentKey', 'E1001,jane.doe@example.com,Jane Doe,3,STORE-001'].join('\r\n'),
};

export async function templateAction(kind: string, io: ProcessIo): Promise<CommandResult> {
  const text = TEMPLATES[kind];
  if (!text)
    return { failure: new UsageError('BAD_KIND', `template '${kind}' is not a kind`, 'use: upload template store-cards, or upload template team-members') };
  io.stdout.write(`${text}\r\n`);
  return { exitCode: 0 };
}

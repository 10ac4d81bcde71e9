// `--map mapping.json`: {"employeeID": "Personalnummer", "name": "Mitarbeiter"} — wire field to column.
import { readFileSync } from 'node:fs';
import type { Kind } from '../contract/kinds.js';
import { FIELDS } from '../contract/schemas.js';
import { UsageError } from '../errors.js';
import { FORBIDDEN_KEYS } from '../read/types.js';

/** Wire field → the source column that feeds it. */
export type Mapping = Readonly<Record<string, string>>;

export function loadMapping(path: string | undefined, kind: Kind): Mapping {
  if (path === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new UsageError('BAD_MAPPING', `--map ${path}: ${why}`, 'give a JSON object such as {"employeeID": "Personalnummer"}');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError('BAD_MAPPING', `--map ${path}: must be a JSON object of wire field to column name`, 'e.g. {"employeeID": "Personalnummer", "name": "Mitarbeiter"}');
  }
  const fields: readonly string[] = FIELDS[kind];
  const mapping = Object.create(null) as Record<string, string>;
  for (const [field, column] of Object.entries(value)) {
    if (FORBIDDEN_KEYS.has(field) || !fields.includes(field)) {
      throw new UsageError('BAD_MAPPING', `--map ${path}: '${field}' is not a ${kind} field`, `the fields are: ${fields.join(', ')}`);
    }
    if (typeof column !== 'string' || column.trim() === '') {
      throw new UsageError('BAD_MAPPING', `--map ${path}: the column for ${field} must be a column name`, `e.g. {"${field}": "My column"}`);
    }
    mapping[field] = column.trim();
  }
  return mapping;
}

// The SQL docs/state.md gives for creating the tables by hand is the SQL the store runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADDED_COLUMNS, SCHEMA_SQL } from '../../src/state/postgres.js';
import { ROOT } from '../helpers/cli.js';

describe('docs/state.md', () => {
  it('shows exactly the tables the PostgreSQL store creates', () => {
    const doc = readFileSync(`${ROOT}/docs/state.md`, 'utf8');
    expect(doc).toContain(SCHEMA_SQL.trim());
  });

  it('shows exactly the columns an upload adds to tables of an earlier version', () => {
    expect(readFileSync(`${ROOT}/docs/state.md`, 'utf8')).toContain(`${ADDED_COLUMNS};`);
  });
});

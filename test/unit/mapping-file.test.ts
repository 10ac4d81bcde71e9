// `--map`: a file or inline JSON; columns, lists of columns, "ignore" and "timeFormat".
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { loadMapping } from '../../src/map/mapping-file.js';
import { tempDir } from '../helpers/tmp.js';

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    if (err instanceof UsageError) return err.code;
    throw err;
  }
  throw new Error('expected a usage error');
};

describe('loadMapping', () => {
  it('reads inline JSON and a file alike', () => {
    const inline = '{"name": ["First Name", " Last Name "], "employeeID": "Nr", "ignore": ["Store"], "timeFormat": "clock"}';
    const file = tempDir().write('map.json', inline);
    const expected = { fields: { name: ['First Name', 'Last Name'], employeeID: ['Nr'] }, ignore: ['Store'], timeFormat: 'clock' };
    expect(loadMapping(inline, 'team-members')).toEqual(expected);
    expect(loadMapping(file, 'team-members')).toEqual(expected);
  });

  it('flags add to the mapping: --ignore-column adds up, --time-format must agree (or answer the other question)', () => {
    expect(loadMapping('{"ignore": ["A"]}', 'team-members', { ignoreColumns: ['B'], timeFormat: 'decimal' })).toMatchObject({
      ignore: ['B', 'A'],
      timeFormat: 'decimal',
    });
    expect(code(() => loadMapping('{"timeFormat": "clock"}', 'store-cards', { timeFormat: 'decimal' }))).toBe('BAD_MAPPING');
    // The flag may answer the other question (AMBIGUOUS_TIME's fix keeps the run's clock: clock,12h).
    expect(loadMapping('{"timeFormat": "clock"}', 'store-cards', { timeFormat: '12h' })).toMatchObject({ timeFormat: 'clock,12h' });
    expect(loadMapping('{"timeFormat": "clock"}', 'store-cards', { timeFormat: 'clock,24h' })).toMatchObject({ timeFormat: 'clock,24h' });
    expect(code(() => loadMapping('{"timeFormat": "clock,12h"}', 'store-cards', { timeFormat: '24h' }))).toBe('BAD_MAPPING');
    expect(loadMapping(undefined, 'store-cards')).toEqual({ fields: {}, ignore: [], timeFormat: undefined });
  });

  it.each([
    ['not JSON', '{"name": '],
    ['not an object', '{"name": 1}'],
    ['an unknown field', '{"nodeKey": "Store"}'],
    ['an empty list', '{"name": []}'],
    ['a list with a non-name', '{"name": ["A", 2]}'],
    ['a bad time format', '{"timeFormat": "hhmm"}'],
    ['a column both mapped and ignored', '{"email": "Mail", "ignore": ["Mail"]}'],
    ['a forbidden key', '{"__proto__": "x"}'],
    ['a value table that is a list', '{"roleCode": {"column": "Job", "values": ["Cook"]}}'],
    ['an empty value table', '{"roleCode": {"column": "Job", "values": {}}}'],
    ['a value table sending an object', '{"roleCode": {"column": "Job", "values": {"Cook": {"id": 3}}}}'],
    ['a value table without its column', '{"roleCode": {"values": {"Cook": 3}}}'],
  ])('%s is BAD_MAPPING', (_why, json) => {
    expect(code(() => loadMapping(json, 'team-members'))).toBe('BAD_MAPPING');
  });

  it('a field with a value table: its column, and the texts (trimmed) to the values sent', () => {
    expect(loadMapping('{"roleCode": {"column": " Job ", "values": {" Store Manager ": 1, "Cashier": "C"}}}', 'team-members')).toEqual({
      fields: { roleCode: ['Job'] },
      ignore: [],
      timeFormat: undefined,
      values: { roleCode: { 'Store Manager': 1, Cashier: 'C' } },
    });
  });

  it("a value table's text is sent in NFC, and refused where a cell's would be", () => {
    const table = (field: string, sent: string) => `{"${field}": {"column": "C", "values": {"A": ${JSON.stringify(sent)}}}}`;
    expect(loadMapping(table('name', 'Jose\u0301'), 'team-members').values).toEqual({ name: { A: 'José' } });
    // A name may hold what writing needs (a joiner between two emoji); a key or an email may not.
    expect(loadMapping(table('name', 'Ann 👩\u200d💻'), 'team-members').values).toEqual({ name: { A: 'Ann 👩\u200d💻' } });
    const refusal = (json: string) => {
      try {
        loadMapping(json, 'team-members');
      } catch (err) {
        return err as UsageError;
      }
      throw new Error('expected BAD_MAPPING');
    };
    const hidden = refusal(table('employeeID', 'E\u200b1'));
    expect([hidden.code, hidden.message, hidden.hint]).toEqual([
      'BAD_MAPPING',
      expect.stringContaining(
        `the value for 'A' in the "values" of employeeID holds U+200B ZERO WIDTH SPACE at position 2, an invisible character: 'E\\u200b1' would be sent with it`,
      ),
      'delete the character from the value in the mapping',
    ]);
    expect(refusal(table('parentKey', 'S\u0007')).message).toContain('a control character');
    const wide = refusal(table('employeeID', 'ＪＰ－００１'));
    expect([wide.code, wide.hint]).toEqual(['BAD_MAPPING', "write it as 'JP-001' in the mapping"]);
    // A role code is neither shown as a person's nor identifying: sent as the table says, in NFC.
    expect(loadMapping(table('roleCode', 'ＭＧＲ'), 'team-members').values).toEqual({ roleCode: { A: 'ＭＧＲ' } });
  });

  it('a missing file names the flag', () => {
    expect(() => loadMapping('nope.json', 'team-members')).toThrow(/--map nope\.json: no such file/);
  });
});

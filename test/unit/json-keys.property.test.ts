// repeatedKey against JSON.parse itself: a text JSON.stringify wrote never repeats a key; a key
// written again in any object, at any depth, is found, and named as JSON.parse decodes it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repeatedKey } from '../../src/read/json-keys.js';

const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('object'), fc.array(tie('node'), { maxLength: 4 })),
  object: fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 }),
})).object;

describe('repeatedKey (property)', () => {
  it('finds nothing in what JSON.stringify writes', () => {
    fc.assert(
      fc.property(value, (obj) => {
        expect(repeatedKey(JSON.stringify(obj))).toBeUndefined();
      }),
    );
  });

  it('finds a key written again at the end of the outer object', () => {
    fc.assert(
      fc.property(value, fc.string(), (obj, key) => {
        const text = JSON.stringify({ ...obj, [key]: 1 });
        const again = `${text.slice(0, -1)},${JSON.stringify(key)}:2}`;
        expect(() => JSON.parse(again) as unknown).not.toThrow();
        expect(repeatedKey(again)?.key).toBe(key);
      }),
    );
  });
});

// Keys compared as a person sees them: foldKey (NFKC, lower case) and a hash that agrees with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldedHash, foldHash, foldKey } from '../../src/validate/key-index.js';
import { COMPATIBLE_BELOW_0300, lookalikeCharacter } from '../../src/validate/text.js';

describe('foldKey and foldHash', () => {
  it.each([
    ['ＪＰ－００１', 'jp-001'],
    ['JP-001', 'jp-001'],
    ['ﬁle-7', 'file-7'],
    ['Straße', 'straße'],
  ])('%j folds to %j', (key, folded) => {
    expect(foldKey(key)).toBe(folded);
    expect(foldHash(key)).toBe(foldedHash(folded));
  });

  it('property: foldHash(k) is foldedHash(foldKey(k)) for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (k) => foldHash(k) === foldedHash(foldKey(k))));
    fc.assert(fc.property(fc.string(), (k) => foldHash(k) === foldedHash(foldKey(k))));
    // Below U+0300 a key is folded unit by unit (Ø, İ, ², ǅ, NBSP, controls): every unit there, mixed.
    const latin = fc.integer({ min: 0, max: 0x2ff }).map((c) => String.fromCharCode(c));
    fc.assert(fc.property(fc.string({ unit: latin }), (k) => foldHash(k) === foldedHash(foldKey(k))));
    for (let c = 0; c < 0x300; c++) expect([c, foldHash(`a${String.fromCharCode(c)}Z`)]).toEqual([c, foldedHash(foldKey(`a${String.fromCharCode(c)}Z`))]);
  });
});

describe('lookalikeCharacter', () => {
  const at = { line: 2, column: 'nodeKey' };
  it('names the first character and the plain form', () => {
    expect(lookalikeCharacter('nodeKey', 'JP－001', false, at)).toMatchObject({
      code: 'LOOKALIKE_CHARACTER',
      message: expect.stringContaining("('－', U+FF0D, at position 3); it looks like 'JP-001'"),
    });
  });

  it('a plain record is checked only where NFKC can change it below U+0300 (NBSP, ², µ)', () => {
    expect(lookalikeCharacter('nodeKey', 'S-1', true, at)).toBeUndefined();
    expect(lookalikeCharacter('nodeKey', 'S²', true, at)).toMatchObject({ code: 'LOOKALIKE_CHARACTER' });
    expect(lookalikeCharacter('email', 'björn@example.com', false, at)).toBeUndefined();
    expect(lookalikeCharacter('email', 'søren@exämple.se', true, at)).toBeUndefined();
  });

  it('knows every character below U+0300 that NFKC rewrites, and no other', () => {
    for (let c = 0; c < 0x300; c++) {
      const ch = String.fromCharCode(c);
      expect([ch, COMPATIBLE_BELOW_0300.test(ch)]).toEqual([ch, ch.normalize('NFKC') !== ch]);
    }
  });
});

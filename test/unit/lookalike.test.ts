// Look-alike text (issue 40): the characters that show nothing, UTS #39 skeletons, words in two scripts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFUSABLES_VERSION } from '../../src/validate/confusables-table.js';
import {
  differing,
  hiddenCharacter,
  mixedScripts,
  nameOf,
  needsSkeleton,
  plainSkeletonHash,
  shown,
  skeleton,
  skeletonHash,
} from '../../src/validate/lookalike.js';
import { Lookalikes } from '../../src/validate/lookalike-index.js';

describe('hiddenCharacter', () => {
  it.each([
    ['E\u200e00001', 'U+200E LEFT-TO-RIGHT MARK'],
    ['E\u200f00001', 'U+200F RIGHT-TO-LEFT MARK'],
    ['E\u061c00001', 'U+061C ARABIC LETTER MARK'],
    ['E\u202a00001', 'U+202A LEFT-TO-RIGHT EMBEDDING'],
    ['E\u202e10000', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['E\u206200001', 'U+2062 INVISIBLE TIMES'],
    ['E\u180e00001', 'U+180E MONGOLIAN VOWEL SEPARATOR'],
    ['E\u034f00001', 'U+034F COMBINING GRAPHEME JOINER'],
    ['E\ufe0f00001', 'U+FE0F VARIATION SELECTOR-16'],
    ['E\u{e0041}00001', 'U+E0041 TAG LATIN CAPITAL LETTER A'],
    ['E\u{e0100}00001', 'U+E0100 VARIATION SELECTOR-17'],
    ['E\u316400001', 'U+3164 HANGUL FILLER'],
    ['E\x1b00001', 'U+001B ESCAPE'],
    ['E\x0700001', 'U+0007 BELL'],
    ['E\x8500001', 'U+0085 NEXT LINE'],
  ])('%j holds %s at position 2', (text, named) => {
    const found = hiddenCharacter(text, false)!;
    expect(nameOf(found.cp)).toBe(named);
    expect(found.position).toBe(2);
  });

  it('offers the value without the character only when removing it is certain', () => {
    expect(hiddenCharacter('E\u2062000\u{e0041}01', false)).toMatchObject({ without: 'E00001', control: false, bidi: false });
    // A direction mark moves the text: without it `E‮10000` reads E10000, yet it showed as E00001.
    expect(hiddenCharacter('E\u202e10000', false)).toMatchObject({ without: undefined, bidi: true });
    // What an escape sequence leaves behind ('[31m') is not what the person meant either.
    expect(hiddenCharacter('Anna\x1b[31m', true)).toMatchObject({ without: undefined, control: true });
  });

  it('counts a character beyond U+FFFF as one position', () => {
    expect(hiddenCharacter('😀\u200bA', false)?.position).toBe(2);
  });

  it('leaves a name what its writing needs, and nothing else', () => {
    expect(hiddenCharacter('\u0645\u06cc\u200c\u0631\u0648\u062f', true)).toBeUndefined(); // ZWNJ inside a Persian word
    expect(hiddenCharacter('\u0915\u094d\u200d\u0937', true)).toBeUndefined(); // ZWJ in Devanagari
    expect(hiddenCharacter('Anna \u2764\ufe0f', true)).toBeUndefined(); // ❤️
    expect(hiddenCharacter('Sam \u{1f469}\u200d\u{1f4bb}', true)).toBeUndefined(); // 👩‍💻
    expect(hiddenCharacter('Anna\ufe0f', true)?.cp).toBe(0xfe0f);
    expect(hiddenCharacter('An\u200dna \u202eX', true)?.cp).toBe(0x202e);
    expect(hiddenCharacter('Ann\u200ba', true)?.cp).toBe(0x200b);
    expect(hiddenCharacter('Carl\nMulti-line\tx', true)).toBeUndefined(); // a line break shows in the cell
    expect(hiddenCharacter('E1\nE2', false)?.cp).toBe(0x0a);
    // In a key the same characters are refused: keys are not written, they are matched.
    expect(hiddenCharacter('\u2764\ufe0f', false)?.cp).toBe(0xfe0f);
  });

  it('finds nothing in plain text', () => {
    expect(hiddenCharacter('José García-Ödön 李', true)).toBeUndefined();
  });
});

describe('skeleton (UTS #39, confusables ' + CONFUSABLES_VERSION + ')', () => {
  it('gives Latin, Cyrillic and Greek E00001 one skeleton, ignoring case', () => {
    const latin = skeleton('E00001');
    expect(skeleton('\u041500001')).toBe(latin); // Cyrillic Е
    expect(skeleton('\u039500001')).toBe(latin); // Greek Ε
    expect(skeleton('e00001')).toBe(latin);
    expect(skeleton('m1@ex\u0430mple.com')).toBe(skeleton('m1@example.com'));
  });

  it('tells different text apart', () => {
    expect(skeleton('E00002')).not.toBe(skeleton('E00001'));
    expect(skeleton('josé@example.com')).not.toBe(skeleton('jose@example.com'));
  });

  it('ignores default-ignorable characters, as UTS #39 says', () => {
    expect(skeleton('E\u200b00001')).toBe(skeleton('E00001'));
  });
});

describe('needsSkeleton', () => {
  it('is false for ASCII, the letters of European alphabets and Latin letters with marks', () => {
    for (const text of ['E00001', 'björn@exämple.se', 'Ñandú-Çà', 'straße', 'søren', 'łukasz', 'yıldız', 'Nguyễn'])
      expect(needsSkeleton(text), text).toBe(false);
  });
  it('is true for another script, or a Latin letter made to imitate another (ɑ, ǀ), or a sign (×)', () => {
    for (const text of ['\u041500001', '\u039500001', 'ex\u0251mple', '\u01c0', '\u00d7', 'a\u{1d5ba}']) expect(needsSkeleton(text), text).toBe(true);
  });
});

describe('mixedScripts', () => {
  it('finds Latin and Cyrillic in one word, naming the odd letter and its position', () => {
    expect(mixedScripts('m1@ex\u0430mple.com')).toEqual({ word: 'ex\u0430mple', scripts: ['Latin', 'Cyrillic'], odd: [{ char: '\u0430', position: 6 }] });
  });

  it('lets each word have its own script, and digits and marks go with any', () => {
    expect(mixedScripts('ivan@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444')).toBeUndefined();
    expect(mixedScripts('\u041500001')).toBeUndefined();
    expect(mixedScripts('MOSCOW-\u041c\u043e\u0441\u043a\u0432\u0430')).toBeUndefined();
  });

  it('allows Japanese and Korean writing (UTS #39 augmented sets)', () => {
    expect(mixedScripts('\u6771\u4eac\u30bf\u30ef\u30fc\u3068')).toBeUndefined(); // Han + Katakana + Hiragana
    expect(mixedScripts('\ud55c\uad6d\u8a9e')).toBeUndefined(); // Hangul + Han
    expect(mixedScripts('\u0391\u0392C')?.scripts).toEqual(['Greek', 'Latin']);
    // Latin beside them too (UTS #39 Highly Restrictive), but not beside Cyrillic.
    expect(mixedScripts('Tokyo\u6771\u4eac')).toBeUndefined();
    expect(mixedScripts('Seoul\uc11c\uc6b8')).toBeUndefined();
    expect(mixedScripts('\u6771\u4eac\u0430')?.scripts).toEqual(['Han', 'Cyrillic']);
  });
});

describe('shown', () => {
  it('escapes what a message would otherwise print raw: a line break, a direction mark', () => {
    expect(shown('Downtown\nUptown')).toBe('Downtown\\u000aUptown');
    expect(shown('E\u202e10000')).toBe('E\\u202e10000');
    expect(shown('Ж-001')).toBe('Ж-001');
  });
});

describe('differing', () => {
  it('names the characters that differ, with code point and script', () => {
    expect(differing('\u041500001', 'E00001')).toBe("'\u0415' (U+0415, Cyrillic) at position 1 where the other has 'E' (U+0045, Latin)");
  });
});

describe('plainSkeletonHash', () => {
  it("is the hash of a plain value's skeleton, made without the string", () => {
    const unit = fc.constantFrom('a', 'm', 'I', 'l', '1', '0', 'O', '-', '@', '.', 'é', 'ø', 'ł', 'ß', 'ễ', 'Ç', '"', '%');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const text = units.join('').normalize('NFC');
        if (needsSkeleton(text)) return;
        expect(plainSkeletonHash(text)).toBe(skeletonHash(skeleton(text)));
      }),
    );
  });
});

describe('Lookalikes', () => {
  const values = ['E00001', 'X1', '\u041500001', 'e00001', '\u039500001', 'ordinary'];
  it('finds every value that shares a skeleton with another of other text, naming the reference', () => {
    const index = new Lookalikes();
    values.forEach((v, record) => needsSkeleton(v) && index.add('key', record, v));
    const found = index.find('key', values.length, (r) => values[r]);
    // E00001 is the reference (the first in plain letters); e00001 is its DUPLICATE_KEY, not a look-alike.
    expect(found.map((f) => [f.record, f.other, f.otherRecord])).toEqual([
      [2, 'E00001', 0],
      [4, 'E00001', 0],
    ]);
  });

  it('prefers a recorded value as the reference, and names no line for it', () => {
    const index = new Lookalikes();
    index.add('key', 0, '\u041500001');
    expect(
      index.find(
        'key',
        1,
        () => '\u041500001',
        () => ['E00001'],
      ),
    ).toEqual([{ record: 0, value: '\u041500001', other: 'E00001', otherRecord: undefined }]);
  });

  it('costs nothing when no value needs a skeleton', () => {
    let asked = 0;
    expect(new Lookalikes().find('key', 1000, () => (asked++, 'E1'))).toEqual([]);
    expect(asked).toBe(0);
  });
});

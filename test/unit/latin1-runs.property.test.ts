// Decoding UTF-8 in runs of lines (so Latin-1-only lines become one-byte strings) must give exactly
// the text the plain decoder gives, however the bytes arrive and whatever characters they hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeText, decodeTextRuns } from '../../src/read/decode.js';
import { latin1Runs } from '../../src/read/latin1-runs.js';

const text = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', 'é', 'ÿ', 'Ā', 'Ş', '李', '😀', '\ufeff'), maxLength: 60 });

/** The bytes cut at arbitrary offsets (possibly inside a character). */
function chunked(bytes: Buffer, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

async function* feed(chunks: Uint8Array[]) {
  yield* chunks;
}

describe('latin1Runs', () => {
  it('gives back the decoded text, cut only at line ends', () => {
    fc.assert(
      fc.property(text, (s) => {
        const runs = latin1Runs(Buffer.from(s));
        expect(runs.join('')).toBe(Buffer.from(s).toString());
        for (const run of runs.slice(0, -1)) expect(run.endsWith('\n')).toBe(true);
      }),
    );
  });

  it('decodeTextRuns gives what decodeText gives, in any chunking, BOM or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), text, fc.array(fc.nat(300), { maxLength: 6 }), async (bom, s, cuts) => {
        const bytes = Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(s)]);
        let plain = '';
        for await (const part of decodeText(feed(chunked(bytes, cuts)), undefined, 'f.csv')) plain += part;
        let runs = '';
        for await (const parts of decodeTextRuns(feed(chunked(bytes, cuts)), undefined, 'f.csv')) runs += parts.join('');
        expect(runs).toBe(plain);
      }),
    );
  });

  it('decodeTextRuns fails where decodeText fails, with the same message, on arbitrary bytes', async () => {
    const byte = fc.constantFrom(0x0a, 0x41, 0x80, 0xa9, 0xbf, 0xc3, 0xc4, 0xe6, 0xed, 0xef, 0xbb, 0xf0, 0x9f, 0xff);
    await fc.assert(
      fc.asyncProperty(fc.array(byte, { maxLength: 30 }), fc.array(fc.nat(40), { maxLength: 5 }), async (list, cuts) => {
        const bytes = Buffer.from(list);
        const outcome = async (parts: AsyncIterable<string | readonly string[]>) => {
          let out = '';
          try {
            for await (const part of parts) out += typeof part === 'string' ? part : part.join('');
          } catch (err) {
            return `error: ${(err as Error).message}`;
          }
          return out;
        };
        const plain = await outcome(decodeText(feed(chunked(bytes, cuts)), undefined, 'f.csv'));
        expect(await outcome(decodeTextRuns(feed(chunked(bytes, cuts)), undefined, 'f.csv'))).toBe(plain);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a bad byte an error at the same line and byte', async () => {
    const bytes = Buffer.concat([Buffer.from('a\nŞé\n'), Buffer.from([0xff]), Buffer.from('\n')]);
    const all = async () => {
      for await (const parts of decodeTextRuns(feed([bytes.subarray(0, 4), bytes.subarray(4)]), undefined, 'f.csv')) void parts;
    };
    await expect(all()).rejects.toMatchObject({ code: 'NOT_UTF8', message: 'f.csv:3: the file is not UTF-8 (byte 7)' });
  });
});

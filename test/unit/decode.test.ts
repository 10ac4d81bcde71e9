// Bytes to text at the edges: UTF-8 is strict however its label is spelled, and a bad byte is named
// by its real line and offset even when a character before it was split across two reads.
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/read/decode.js';

async function decodeAll(chunks: Uint8Array[], encoding?: string): Promise<string> {
  async function* feed() {
    yield* chunks;
  }
  let text = '';
  for await (const part of decodeText(feed(), encoding, 'f.csv')) text += part;
  return text;
}

describe('decodeText', () => {
  it.each(['utf-8', 'utf8', 'UTF-8', 'unicode-1-1-utf-8'])('--encoding %s is strict: a bad byte is an error, not U+FFFD', async (label) => {
    await expect(decodeAll([Buffer.from('name\nBj\xf6rn\n', 'latin1')], label)).rejects.toMatchObject({ code: 'NOT_UTF8' });
  });

  it('windows-1252 decodes the same bytes', async () => {
    expect(await decodeAll([Buffer.from('name\nBj\xf6rn\n', 'latin1')], 'windows-1252')).toBe('name\nBjörn\n');
  });

  it('names the right line and byte when a character before the bad byte was split between reads', async () => {
    const before = Buffer.from('a\né\nb\nc\n'); // é is two bytes, at offset 2
    const bad = Buffer.from([0xff]);
    // Two lines that are not UTF-8 against one that is: a legacy file (one against one would be MIXED_ENCODING).
    const whole = Buffer.concat([before, bad, Buffer.from('\n'), bad, Buffer.from('\n')]);
    // Split inside é: the second read starts with its continuation byte.
    const chunks = [whole.subarray(0, 3), whole.subarray(3)];
    await expect(decodeAll(chunks)).rejects.toMatchObject({
      code: 'NOT_UTF8',
      message: expect.stringMatching(new RegExp(`^f\\.csv:5: the file is not UTF-8 \\(byte ${before.length}\\); `)),
    });
  });
});

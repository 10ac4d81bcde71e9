// What the bytes say beyond "not UTF-8" (issue 40): lines split however the file is read, a UTF-8
// file with some foreign lines named line by line, a legacy line that is UTF-8 by chance not taken
// for UTF-8, the doubt under --encoding wherever the first letters beyond ASCII are, and the pages
// TextDecoder lacks.
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../src/issues.js';
import { checkEncoding, decodeText } from '../../src/read/decode.js';
import { singleByteDecoder } from '../../src/read/code-pages.js';
import { LineSplitter } from '../../src/read/encoding-evidence.js';
import { encoder } from '../corpus/code-pages/generate.js';

async function decodeAll(chunks: Uint8Array[], encoding?: string, notes?: Issue[]): Promise<string> {
  async function* feed() {
    yield* chunks;
  }
  let text = '';
  for await (const part of decodeText(feed(), encoding, 'f.csv', notes)) text += part;
  return text;
}

const bytes = (text: string, page: string) => Buffer.from(encoder(page)(text)!);

describe('LineSplitter', () => {
  it.each([
    ['LF', ['a\nb\nc'], ['a', 'b', 'c']],
    ['CRLF split between reads', ['a\r', '\nb\r\nc'], ['a', 'b', 'c']],
    ['a lone CR (old Mac files)', ['a\rb\r', 'c'], ['a', 'b', 'c']],
    ['an empty line', ['a\n\nb'], ['a', '', 'b']],
  ])('%s', (_, chunks, lines) => {
    const splitter = new LineSplitter(1);
    const found = chunks.flatMap((c, i) => [...splitter.lines(Buffer.from(c), i === chunks.length - 1)]);
    expect(found.map((l) => Buffer.from(l.bytes).toString())).toEqual(lines);
    expect(found.map((l) => l.line)).toEqual(lines.map((_, i) => i + 1));
  });
});

describe('a file that is UTF-8 but for some lines', () => {
  it('is MIXED_ENCODING naming each line, with no fix, whatever the line breaks', async () => {
    for (const br of ['\n', '\r\n', '\r']) {
      const file = Buffer.concat([
        Buffer.from(`name${br}Zoë${br}Jürgen${br}`),
        bytes(`Łukasz Żółć${br}`, 'windows-1250'),
        Buffer.from(`Åsa${br}`),
        bytes(`Michał${br}`, 'windows-1250'),
      ]);
      const err = await decodeAll([file]).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'MIXED_ENCODING', fixes: [] });
      expect((err as Error).message).toContain('the file is UTF-8 (3 lines with letters beyond ASCII read as UTF-8) except lines 4, 6, which were saved');
    }
  });

  it('a legacy line that is UTF-8 by chance (windows-1251 `ВІ` is the bytes of `²`) counts for nothing: NOT_UTF8, ranked', async () => {
    const file = bytes('name\nВІ\nВіктор Гнатюк\n', 'windows-1251');
    expect(Buffer.from(file.subarray(5, 7)).toString('utf8')).toBe('²');
    await expect(decodeAll([file])).rejects.toMatchObject({ code: 'NOT_UTF8', fixes: [{ kind: 'flags', args: ['--encoding', 'windows-1251'] }, {}, {}] });
  });
});

describe('under --encoding', () => {
  it('doubts a reading whose first letters beyond ASCII come after 100 KiB of ASCII', async () => {
    const ascii = 'name\n' + 'Jonas Petrauskas\n'.repeat(7000);
    const notes: Issue[] = [];
    const text = await decodeAll([Buffer.from(ascii), bytes('Eglė Stankevičiūtė\nŽydrūnas Šimkus\n', 'windows-1257')], 'windows-1252', notes);
    expect(text).toContain('Eglë Stankevièiûtë');
    expect(notes).toMatchObject([{ code: 'SUSPECT_ENCODING', severity: 'warning', fixes: [{ kind: 'flags', args: ['--encoding', 'windows-1257'] }] }]);
  });

  it('doubts a file on one line (minified JSON) read a piece at a time', async () => {
    const notes: Issue[] = [];
    const json = bytes('[' + '{"name":"Eglė Stankevičiūtė"},'.repeat(3000) + '{"name":"Jonas"}]', 'windows-1257');
    const pieces = Array.from({ length: Math.ceil(json.length / 4096) }, (_, i) => json.subarray(i * 4096, (i + 1) * 4096));
    await decodeAll(pieces, 'windows-1252', notes);
    expect(notes).toMatchObject([{ code: 'SUSPECT_ENCODING', fixes: [{ kind: 'flags', args: ['--encoding', 'windows-1257'] }] }]);
  });

  it('says nothing under the right page', async () => {
    const notes: Issue[] = [];
    await decodeAll([bytes('name\nEglė Stankevičiūtė\n', 'windows-1257')], 'windows-1257', notes);
    expect(notes).toEqual([]);
  });

  it('windows-1258: a tone split from its vowel between reads is composed (Nguyễn as typed)', async () => {
    const file = bytes('Nguyễn\n', 'windows-1258');
    const at = file.indexOf(0xde); // the tilde, after ê
    expect(await decodeAll([file.subarray(0, at), file.subarray(at)], 'windows-1258')).toBe('Nguyễn\n');
  });

  it.each([
    ['ibm852', 'Jiří Dvořák'],
    ['cp852', 'Łukasz Żółć'],
    ['ibm850', 'Søren Åberg'],
    ['ibm437', 'Jürgen Müller'],
    ['viscii', 'Trần Đức Thảo'],
  ])('--encoding %s reads the pages TextDecoder lacks', async (label, name) => {
    expect(() => checkEncoding(label)).not.toThrow();
    const page = label === 'cp852' ? 'ibm852' : label;
    expect(await decodeAll([bytes(`${name}\n`, page)], label)).toBe(`${name}\n`);
  });
});

describe('the tables', () => {
  it('ISO-8859-16 reads as Node 24’s TextDecoder does, on Node 22 too (whose ICU lacks it)', () => {
    const all = Uint8Array.from({ length: 256 }, (_, b) => b);
    const ours = singleByteDecoder('iso-8859-16').decode(all);
    expect(ours).toHaveLength(256);
    expect(ours.slice(0xa0)).toBe('\u00a0ĄąŁ€„Š§š©Ș«Ź\u00adźŻ°±ČłŽ”¶·žčș»ŒœŸżÀÁÂĂÄĆÆÇÈÉÊËÌÍÎÏĐŃÒÓÔŐÖŚŰÙÚÛÜĘȚßàáâăäćæçèéêëìíîïđńòóôőöśűùúûüęțÿ');
    if (Number(process.versions.node.split('.')[0]) >= 24) expect(ours).toBe(new TextDecoder('iso-8859-16').decode(all));
  });
});

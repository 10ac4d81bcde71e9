// The code-page corpus: HR exports (ID, first and last name, job title, store, city) in each
// language's legacy code pages, of 3 to 150 rows, built in memory from languages.ts. The bytes come
// from each decoder's own table turned round, so no encoder of ours decides them.
import { tableDecoder } from '../../../src/read/code-page-tables.js';
import { HELD_OUT } from './held-out.js';
import { LANGUAGES, type Language } from './languages.js';

export interface CorpusFile {
  readonly language: string;
  readonly page: string;
  readonly rows: number;
  /** What the file says, as it should read (NFC). */
  readonly text: string;
  readonly bytes: Uint8Array;
}

export const SIZES = [3, 6, 12, 40, 150] as const;

/** Every language × page × size: 295 files. */
export function corpus(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const language of LANGUAGES) {
    for (const page of language.pages) {
      const encode = encoder(page);
      for (const rows of SIZES) {
        const bytes = encode(hrExport(language, rows, encode, seed(`${language.name}/${page}/${rows}`)))!;
        // As the page holds it: a Romanian cedilla where the page has no comma below.
        const text = (tableDecoder(page) ?? new TextDecoder(page)).decode(bytes).normalize('NFC');
        files.push({ language: language.name, page, rows, text, bytes });
      }
    }
  }
  return files;
}

/**
 * The held-out corpus: per language and page, files of 5 and 30 rows of addresses and contacts
 * (held-out.ts), in the same pages; lines a page cannot hold are left out.
 */
export function heldOut(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const language of LANGUAGES) {
    for (const page of language.pages) {
      const encode = encoder(page);
      const lines = HELD_OUT[language.name]!.filter((v) => encode(v) !== undefined);
      for (const rows of [5, 30]) {
        const random = seed(`held-out/${language.name}/${page}/${rows}`);
        const body = Array.from({ length: rows }, (_, i) => `S${100 + i}|${lines[Math.floor(random() * lines.length)]!}`);
        const bytes = encode(['store|address', ...body].join('\n') + '\n')!;
        const text = (tableDecoder(page) ?? new TextDecoder(page)).decode(bytes).normalize('NFC');
        files.push({ language: language.name, page, rows, text, bytes });
      }
    }
  }
  return files;
}

/** Text → bytes in `page`, or undefined when some character has no byte there. */
export type Encode = (text: string) => Uint8Array | undefined;

// ș and ț with a comma (ISO-8859-16) or a cedilla (windows-1250): each page has one of the two.
const ROMANIAN: Readonly<Record<string, string>> = { ș: 'ş', ț: 'ţ', Ș: 'Ş', Ț: 'Ţ', ş: 'ș', ţ: 'ț', Ş: 'Ș', Ţ: 'Ț' };

export function encoder(page: string): Encode {
  const table = new Map<string, number>();
  const decoder = tableDecoder(page) ?? new TextDecoder(page);
  // ISO-8859-1 proper is one byte per code point (TextDecoder reads the label as windows-1252).
  for (let b = 255; b >= 0; b--) table.set(page === 'iso-8859-1' ? String.fromCharCode(b) : decoder.decode(Uint8Array.of(b)), b);
  const one = (ch: string): number[] | undefined => {
    const b = table.get(ch) ?? table.get(ROMANIAN[ch] ?? '');
    if (b !== undefined) return [b];
    // windows-1258: a vowel (perhaps with its circumflex, breve or horn) and the tone as a combining mark.
    // (NFD puts a dot below before a circumflex: `ộ` is o, dot below, circumflex; the tone is the dot.)
    const parts = ch.normalize('NFD');
    const toneMark = parts.match(/[\u0300\u0301\u0303\u0309\u0323]/u)?.[0];
    if (toneMark === undefined) return undefined;
    const base = table.get(parts.replace(toneMark, '').normalize('NFC'));
    const tone = table.get(toneMark);
    return base !== undefined && tone !== undefined ? [base, tone] : undefined;
  };
  return (text) => {
    const out: number[] = [];
    for (const ch of text.normalize('NFC')) {
      const bytes = one(ch);
      if (!bytes) return undefined;
      out.push(...bytes);
    }
    return Uint8Array.from(out);
  };
}

function hrExport(language: Language, rows: number, encode: Encode, random: () => number): string {
  // Only what the page can hold (a Romanian cedilla where the page has no comma below is the same letter).
  const fits = (list: readonly string[]) => list.filter((v) => encode(v) !== undefined);
  const [first, last, titles, places] = [fits(language.first), fits(language.last), fits(language.titles), fits(language.places)];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  // A header the page cannot hold (`Ім’я` has no apostrophe in ISO-8859-5) is written in English.
  const lines = [encode(language.header) ? language.header : 'ID;First name;Last name;Title;Store;City'];
  for (let i = 1; i <= rows; i++) {
    const place = pick(places);
    lines.push([`E${1000 + i}`, pick(first), pick(last), pick(titles), `${place} ${1 + Math.floor(random() * 3)}`, place].join(';'));
  }
  return lines.join('\r\n') + '\r\n';
}

/** A small deterministic generator (mulberry32), seeded by the file's name: the corpus is the same on every run. */
function seed(name: string): () => number {
  let a = [...name].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619), 2166136261) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Which single-byte code page a file that is not UTF-8 was saved in. The bytes cannot say; the words
// can: decoded in the right code page a name is letters of one language, used as often as that
// language uses them (`Eglė Stankevičiūtė`); in a wrong one it holds rare letters, symbols glued to
// letters, controls or case flips (`Eglë Stankevièiûtë`, `£ukasz ¯ó³æ`, `нМЭЦЮ`): letter-model.ts.
// The ranking is shown to the user with previews and as fixes, never applied on its own.
import { tableDecoder, type TableDecoder } from './code-page-tables.js';
import { plausibility } from './letter-model.js';

/**
 * The candidates, by the label `--encoding` takes. On a tie (the sample reads the same in both) the
 * earlier stands: Windows pages first, as Excel saves them; ISO-8859-1 and -9 are not listed because
 * TextDecoder reads them as windows-1252 and -1254, which only add characters where they have controls.
 */
export const CODE_PAGES = [
  'windows-1252',
  'windows-1250',
  'windows-1251',
  'windows-1253',
  'windows-1254',
  'windows-1257',
  'windows-1258',
  'iso-8859-2',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-7',
  'iso-8859-13',
  'iso-8859-15',
  'iso-8859-16',
  'koi8-r',
  'koi8-u',
  'macintosh',
  'ibm866',
  'ibm850',
  'ibm437',
  'ibm852',
  'viscii',
] as const;

export type CodePage = (typeof CODE_PAGES)[number];

/** A decoder for any label: TextDecoder's (WHATWG), else one of the tables of code-page-tables.ts. */
export function singleByteDecoder(label: string): TableDecoder {
  const table = tableDecoder(label);
  return table ?? new TextDecoder(label);
}

/** The code page a label names, when it is one of the candidates (`latin1` is windows-1252). */
export function candidateOf(label: string): CodePage | undefined {
  try {
    const encoding = singleByteDecoder(label).encoding;
    return (CODE_PAGES as readonly string[]).includes(encoding) ? (encoding as CodePage) : undefined;
  } catch {
    return undefined;
  }
}

export interface Reading {
  readonly encoding: CodePage;
  readonly score: number;
  /** The first values holding characters beyond ASCII, decoded in this code page. */
  readonly preview: readonly string[];
}

/** The lines of `bytes` holding a byte beyond ASCII (at most `max`): the rest reads alike in every page. */
export function linesBeyondAscii(bytes: Uint8Array, max = 200): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length && lines.length < max) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    const line = bytes.subarray(start, end);
    if (line.some((b) => b >= 0x80)) lines.push(line);
    start = end + 1;
  }
  return lines;
}

/** The code pages ranked for these lines (a sample of the file), best first, each with its preview. */
export function rankLines(lines: readonly Uint8Array[], previews = 3): Reading[] {
  const readings = CODE_PAGES.map((encoding) => {
    const decoder = singleByteDecoder(encoding);
    const texts = lines.map((line) => decoder.decode(line));
    return { encoding, score: plausibility(texts.join('\n')).score, preview: previewOf(texts, previews) };
  });
  // A stable sort: on a tie the order of CODE_PAGES stands.
  return readings.sort((a, b) => b.score - a.score);
}

/** The code pages ranked for these bytes (a sample of the file), best first, each with its preview. */
export function rankCodePages(bytes: Uint8Array, previews = 3): Reading[] {
  return rankLines(linesBeyondAscii(bytes), previews);
}

function previewOf(texts: readonly string[], previews: number): string[] {
  const values = texts.flatMap((t) => t.split(/[,;\t|]/).map((v) => v.trim().replace(/^"|"$/g, '')));
  return [...new Set(values.filter((v) => /[^\x20-\x7e]/.test(v)).map((v) => v.normalize('NFC')))].slice(0, previews);
}

/** `windows-1250 ('Łukasz Żółć', 'Kraków')`, for messages. */
export function describeReading(r: Reading): string {
  return `${r.encoding} (${r.preview.map((v) => `'${v}'`).join(', ')})`;
}

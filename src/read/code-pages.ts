// Which single-byte code page a file that is not UTF-8 was saved in. The bytes cannot say; the words
// can: decoded in the right code page a name is letters of one script that languages use often
// (`Łukasz Żółć`), in a wrong one it holds symbols and rare letters (`£ukasz ¯ó³æ`, `Þule Yýlmaz`).
// The ranking is shown to the user with previews, never applied on its own: guessing is a bug.

/** The candidates, as TextDecoder labels: Central European, Cyrillic, Western, Greek, Turkish, Baltic. */
export const CODE_PAGES = [
  // Western first: where code pages read a file alike, the one Excel saves most is named first.
  'windows-1252',
  'windows-1250',
  'windows-1251',
  'windows-1253',
  'windows-1254',
  'windows-1257',
  'iso-8859-2',
  'iso-8859-9',
  'iso-8859-15',
] as const;

// The letters beyond ASCII of the languages these code pages serve. Decoded in the right code page,
// a file's names use the letters of one language; in a wrong one they hold letters of none (`Þule
// Yýlmaz` is no language's spelling) and symbols glued to letters (`£ukasz ¯ó³æ`).
const LANGUAGES: readonly string[] = [
  'ąćęłńóśźż', // Polish
  'áčďéěíňóřšťúůýž', // Czech, Slovak
  'áéíóöőúüű', // Hungarian
  'ăâîșțşţ', // Romanian
  'čćđšž', // Croatian, Slovene, Serbian (Latin)
  'äöüß', // German
  'àâæçéèêëîïôœùûüÿ', // French
  'áéíñóúü', // Spanish
  'áâãàçéêíóôõú', // Portuguese
  'àèéìíîòóùú', // Italian
  'éëïöü', // Dutch
  'åäö', // Swedish, Finnish
  'åæø', // Danish, Norwegian
  'çğıiöşü', // Turkish (with İ, whose lower case is i)
  'ąčęėįšųūž', // Lithuanian
  'āčēģīķļņšūž', // Latvian
  'äõöüšž', // Estonian
  // Cyrillic and Greek by their common letters: the rare ones are what a wrong one of the two makes.
  'абвгдеиклмнопрстуя',
  'αβγδεικλμνοπρστυςάέήίόύώη',
];

const LETTER = /\p{L}/u;
const WORD = /[^\s,;|\t"'()[\]{}<>:=/\\.!?0-9@-]+/g;

/**
 * How plausible the words of `text` are, in the language that fits them best: each non-ASCII letter
 * of that language counts 1, any other non-ASCII letter −1, a symbol glued to letters −3.
 */
export function plausibility(text: string): number {
  const chars: string[] = [];
  let mixed = 0;
  for (const word of text.match(WORD) ?? []) {
    // Latin letters and Greek or Cyrillic ones in one word (`Josι`, `Krakуw`) are no one's spelling.
    if (/[a-z]/i.test(word) && /[\p{Script=Greek}\p{Script=Cyrillic}]/u.test(word)) mixed++;
    for (const ch of word) if (ch.charCodeAt(0) >= 0x80) chars.push(ch === 'İ' ? 'i' : ch.toLowerCase());
  }
  const symbols = chars.filter((ch) => !LETTER.test(ch)).length;
  const letters = chars.filter((ch) => LETTER.test(ch));
  let best = -Infinity;
  for (const language of LANGUAGES) {
    const known = letters.filter((ch) => language.includes(ch)).length;
    best = Math.max(best, known - (letters.length - known));
  }
  return (letters.length ? best : 0) - 3 * symbols - 3 * mixed;
}

export interface Reading {
  readonly encoding: (typeof CODE_PAGES)[number];
  readonly score: number;
  /** The first values holding characters beyond ASCII, decoded in this code page. */
  readonly preview: readonly string[];
}

/** The code pages ranked for these bytes (a sample of the file), best first, each with its preview. */
export function rankCodePages(bytes: Uint8Array, previews = 3): Reading[] {
  // The lines with bytes beyond ASCII are the evidence; the rest reads the same in every code page.
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length && lines.length < 200; i++) {
    if (i === bytes.length || bytes[i] === 10) {
      const line = bytes.subarray(start, i);
      if (line.some((b) => b >= 0x80)) lines.push(line);
      start = i + 1;
    }
  }
  const readings = CODE_PAGES.map((encoding) => {
    const decoder = new TextDecoder(encoding);
    const texts = lines.map((line) => decoder.decode(line));
    const values = texts.flatMap((t) => t.split(/[,;\t|]/).map((v) => v.trim().replace(/^"|"$/g, '')));
    const preview = [...new Set(values.filter((v) => /[^\x20-\x7e]/.test(v)))].slice(0, previews);
    return { encoding, score: plausibility(texts.join('\n')), preview };
  });
  // A stable sort: on a tie the order of CODE_PAGES stands (windows before ISO, as Excel saves).
  return readings.sort((a, b) => b.score - a.score);
}

/** `windows-1250 ('Łukasz Żółć', 'Kraków')`, for messages. */
export function describeReading(r: Reading): string {
  return `${r.encoding} (${r.preview.map((v) => `'${v}'`).join(', ')})`;
}

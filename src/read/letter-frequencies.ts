// How often each language writes its letters beyond ASCII, per 100 letters of running text, rounded
// from published letter-frequency counts (Spanish and Portuguese nudged towards names, which use
// accents more than prose). Cyrillic and Greek languages list their whole alphabet. letter-model.ts
// scores readings with these.

type Languages = Readonly<Record<string, Readonly<Record<string, number>>>>;
let languages: Languages | undefined;
/**
 * Letter → frequency in percent, per language (lower case; Cyrillic and Greek list every letter). Made
 * on first use: only a file not in UTF-8 is scored, and the table (Vietnamese's normalised letters
 * above all) is a millisecond of every start-up.
 */
export const LANGUAGES = (): Languages =>
  (languages ??= {
    polish: { ą: 1, ć: 0.4, ę: 1.1, ł: 1.8, ń: 0.2, ó: 0.85, ś: 0.66, ź: 0.06, ż: 0.83 },
    czech: { á: 0.87, č: 0.46, ď: 0.02, é: 0.63, ě: 1.22, í: 1.64, ň: 0.08, ó: 0.02, ř: 0.38, š: 0.69, ť: 0.04, ú: 0.05, ů: 0.2, ý: 1, ž: 0.72 },
    slovak: { á: 2.1, ä: 0.1, č: 0.9, ď: 0.2, é: 0.7, í: 1.6, ĺ: 0.02, ľ: 0.4, ň: 0.1, ó: 0.2, ô: 0.2, ŕ: 0.02, š: 0.8, ť: 0.4, ú: 0.7, ý: 0.8, ž: 0.8 },
    hungarian: { á: 3.4, é: 3.3, í: 0.6, ó: 0.9, ö: 1, ő: 0.8, ú: 0.3, ü: 0.5, ű: 0.1 },
    // Both spellings of ș and ț: the comma below (ISO-8859-16) and the cedilla (windows-1250 has only it).
    romanian: { ă: 2.5, â: 0.7, î: 1, ș: 1.3, ț: 1, ş: 1.3, ţ: 1 },
    southSlavic: { č: 1.1, ć: 0.5, đ: 0.2, š: 1, ž: 0.8 }, // Croatian, Slovene, Bosnian, Serbian Latin
    german: { ä: 0.6, ö: 0.3, ü: 0.65, ß: 0.3 },
    french: { à: 0.5, â: 0.05, æ: 0.01, ç: 0.1, é: 1.9, è: 0.3, ê: 0.2, ë: 0.01, î: 0.05, ï: 0.01, ô: 0.05, œ: 0.02, ù: 0.05, û: 0.06, ü: 0.005, ÿ: 0.001 },
    // Spanish and Portuguese as names write them: `García`, `Pérez`, `João` use accents more than prose.
    spanish: { á: 1, é: 1, í: 1, ñ: 0.4, ó: 1, ú: 0.3, ü: 0.02, º: 0.2, ª: 0.2 }, // `Nº`, `1ª`
    portuguese: { á: 0.7, â: 0.4, ã: 1, à: 0.07, ç: 0.7, é: 0.5, ê: 0.45, í: 0.4, ó: 0.4, ô: 0.3, õ: 0.3, ú: 0.3, º: 0.2, ª: 0.2 },
    italian: { à: 0.6, è: 0.3, é: 0.1, ì: 0.05, ò: 0.1, ù: 0.15, º: 0.2, ª: 0.2 },
    swedish: { å: 1.3, ä: 1.8, ö: 1.3, é: 0.02 },
    finnish: { ä: 3.6, ö: 0.4, å: 0.01, š: 0.005, ž: 0.005 },
    danishNorwegian: { æ: 0.9, ø: 0.9, å: 0.9, é: 0.02 },
    // Stores across the Nordic countries: one file with Swedish, Danish, Norwegian and Finnish names.
    nordic: { å: 1, ä: 1.2, ö: 0.8, æ: 0.4, ø: 0.4 },
    icelandic: { á: 1.8, ð: 4.4, é: 0.65, í: 1.6, ó: 1, ú: 0.6, ý: 0.9, þ: 1.45, æ: 0.9, ö: 0.8 },
    // `İ` stays itself (JavaScript lower-cases it to `i` and a combining dot).
    turkish: { ç: 1.2, ğ: 1.1, ı: 5.1, ö: 0.8, ş: 1.8, ü: 1.85, İ: 0.3, â: 0.05 },
    lithuanian: { ą: 0.6, č: 0.4, ę: 0.2, ė: 1.6, į: 0.6, š: 1.2, ų: 1, ū: 0.5, ž: 0.8 },
    latvian: { ā: 4, č: 0.4, ē: 1.7, ģ: 0.2, ī: 1.6, ķ: 0.2, ļ: 0.4, ņ: 0.4, š: 1.4, ū: 0.5, ž: 0.3 },
    estonian: { ä: 1.3, õ: 1, ö: 0.3, ü: 0.8, š: 0.05, ž: 0.05 },
    vietnamese: vietnamese(),
    russian: cyrillic(
      'оеаинтсрвлкмдпуяызьбгчйхжшюцщэфъё',
      [
        10.97, 8.45, 8.01, 7.35, 6.7, 6.26, 5.47, 4.73, 4.54, 4.4, 3.49, 3.21, 2.98, 2.81, 2.62, 2.01, 1.9, 1.74, 1.7, 1.65, 1.59, 1.44, 1.21, 0.97, 0.94, 0.73,
        0.64, 0.48, 0.36, 0.32, 0.26, 0.04, 0.04,
      ],
    ),
    ukrainian: cyrillic(
      'оаниітервсклудмпязьбгйчхцїжшюєщфґ',
      [
        9.4, 8, 6.6, 6.2, 5.8, 5, 4.9, 4.8, 5, 4.1, 3.6, 3.5, 3.4, 3, 3, 2.8, 2.3, 2.2, 1.8, 1.7, 1.6, 1.3, 1.3, 1.2, 1, 0.9, 0.9, 0.8, 0.8, 0.4, 0.5, 0.2,
        0.05,
      ],
    ),
    bulgarian: cyrillic(
      'оаеинтрсвкдлпмъязгбучжйцшщхюфь',
      [9.1, 8.8, 8, 7.6, 6.7, 6.6, 5.1, 4.5, 4.4, 3.4, 3.1, 3.2, 2.8, 2.6, 1.9, 2, 1.7, 1.6, 1.3, 1.2, 1.2, 0.7, 0.6, 0.6, 0.5, 0.4, 0.5, 0.2, 0.2, 0.01],
    ),
    serbian: cyrillic(
      'аиоенрстјудквлмпзгбчшћжцњљхђфџ',
      [11, 9.5, 9, 8.5, 5, 4.5, 4.5, 4.5, 5, 4, 3.5, 3.5, 3.5, 3, 3, 2.8, 1.5, 1.5, 1.5, 1, 0.8, 0.8, 0.7, 0.6, 0.6, 0.5, 0.3, 0.3, 0.2, 0.1],
    ),
    greek: cyrillic(
      'αοιετνσρπκηυμλςάόέίγδήύθχωφβώξζψϊΐϋΰ',
      [
        12, 10, 8, 8, 8, 7, 4.5, 5, 4, 4, 4, 4, 3.5, 3, 2.5, 2, 2, 1.8, 1.8, 1.8, 1.7, 1.2, 1.2, 1.3, 1.1, 1, 0.8, 0.7, 0.6, 0.4, 0.4, 0.15, 0.05, 0.01, 0.02,
        0.005,
      ],
    ),
  });

function cyrillic(letters: string, percent: readonly number[]): Record<string, number> {
  return Object.fromEntries([...letters].map((ch, i) => [ch, percent[i]!]));
}

/** Vietnamese: its vowels with each of the five tone marks, and the letters with a hook or breve. */
function vietnamese(): Record<string, number> {
  const table: Record<string, number> = { đ: 1, ư: 1.2, ơ: 0.8, ê: 0.8, ô: 0.8, â: 0.8, ă: 0.5 };
  for (const base of 'aăâeêioôơuưy') {
    for (const tone of ['\u0300', '\u0301', '\u0303', '\u0309', '\u0323']) table[(base + tone).normalize('NFC')] = 0.5;
  }
  return table;
}

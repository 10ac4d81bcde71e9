// Weekday names in the languages of the stores. The same short form can name different days in two
// languages (`ma` is Monday in Dutch and Tuesday in French, `do` Thursday in German and Sunday in
// Spanish), so a header's day columns are read together, in one language, never one at a time.
// A language is data: its row here, its closed words (./hours.ts) and its group words (./day-words.ts).

// Letters with no accent to drop that people still write plain (`Sali`, `Lordag`, `poniedzialek`).
const LETTERS: Readonly<Record<string, string>> = { ı: 'i', ł: 'l', ø: 'o', æ: 'ae' };

export const LANGUAGES = ['en', 'de', 'nl', 'fr', 'es', 'it', 'pt', 'pl', 'lt', 'sv', 'da', 'nb', 'tr', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

// Danish and Norwegian (bokmål) name the days alike. Scandinavian two-letter forms (`to`, `on`, `ti`)
// are English and Dutch words too, so only the three-letter ones are known.
const DANISH_NORWEGIAN = [
  ['søndag', 'søn'],
  ['mandag', 'man'],
  ['tirsdag', 'tirs', 'tir'],
  ['onsdag', 'ons'],
  ['torsdag', 'tors', 'tor'],
  ['fredag', 'fre'],
  ['lørdag', 'lør'],
];

/**
 * Per language, per weekday (0 = Sunday): full name, then other forms, as the language writes them;
 * they are compared folded (see fold and WEEKDAYS). `-feira` is part of a Portuguese day's name
 * (tokenize keeps `Segunda-feira` one word); Polish has the forms after `od` (`od poniedziałku`).
 */
const WRITTEN: Readonly<Record<Language, readonly (readonly string[])[]>> = {
  en: [
    ['sunday', 'sun', 'su'],
    ['monday', 'mon', 'mo'],
    ['tuesday', 'tues', 'tue', 'tu'],
    ['wednesday', 'wed', 'we'],
    ['thursday', 'thurs', 'thur', 'thu', 'th'],
    ['friday', 'fri', 'fr'],
    ['saturday', 'sat', 'sa'],
  ],
  de: [
    ['sonntag', 'so'],
    ['montag', 'mo'],
    ['dienstag', 'di'],
    ['mittwoch', 'mi'],
    ['donnerstag', 'do'],
    ['freitag', 'fr'],
    ['samstag', 'sonnabend', 'sa'],
  ],
  nl: [
    ['zondag', 'zo'],
    ['maandag', 'ma'],
    ['dinsdag', 'di'],
    ['woensdag', 'wo'],
    ['donderdag', 'do'],
    ['vrijdag', 'vr'],
    ['zaterdag', 'za'],
  ],
  fr: [
    ['dimanche', 'dim', 'di'],
    ['lundi', 'lun', 'lu'],
    ['mardi', 'mar', 'ma'],
    ['mercredi', 'mer', 'me'],
    ['jeudi', 'jeu', 'je'],
    ['vendredi', 'ven', 've'],
    ['samedi', 'sam', 'sa'],
  ],
  es: [
    ['domingo', 'dom', 'do'],
    ['lunes', 'lun', 'lu'],
    ['martes', 'mar', 'ma'],
    ['miércoles', 'mié', 'mi'],
    ['jueves', 'jue', 'ju'],
    ['viernes', 'vie', 'vi'],
    ['sábado', 'sáb', 'sa'],
  ],
  it: [
    ['domenica', 'dom', 'do'],
    ['lunedì', 'lun', 'lu'],
    ['martedì', 'mar', 'ma'],
    ['mercoledì', 'mer', 'me'],
    ['giovedì', 'gio', 'gi'],
    ['venerdì', 'ven', 've'],
    ['sabato', 'sab', 'sa'],
  ],
  pt: [
    ['domingo', 'dom'],
    ['segunda-feira', 'segunda', 'seg'],
    ['terça-feira', 'terça', 'ter'],
    ['quarta-feira', 'quarta', 'qua'],
    ['quinta-feira', 'quinta', 'qui'],
    ['sexta-feira', 'sexta', 'sex'],
    ['sábado', 'sáb'],
  ],
  pl: [
    ['niedziela', 'niedzieli', 'niedz', 'ndz', 'nd'],
    ['poniedziałek', 'poniedziałku', 'pon', 'pn'],
    ['wtorek', 'wtorku', 'wt'],
    ['środa', 'środy', 'śr'],
    ['czwartek', 'czwartku', 'czw', 'cz'],
    ['piątek', 'piątku', 'pt'],
    ['sobota', 'soboty', 'sob', 'sb'],
  ],
  // Known so that Polish `pn` (Monday) is never read where it could be Lithuanian Pn (Friday).
  lt: [
    ['sekmadienis', 'sk'],
    ['pirmadienis', 'pr'],
    ['antradienis', 'an'],
    ['trečiadienis', 'tr'],
    ['ketvirtadienis', 'kt'],
    ['penktadienis', 'pn'],
    ['šeštadienis', 'št'],
  ],
  sv: [
    ['söndag', 'sön'],
    ['måndag', 'mån'],
    ['tisdag', 'tis'],
    ['onsdag', 'ons'],
    ['torsdag', 'tors', 'tor'],
    ['fredag', 'fre'],
    ['lördag', 'lör'],
  ],
  da: DANISH_NORWEGIAN,
  nb: DANISH_NORWEGIAN,
  tr: [
    ['pazar', 'paz', 'pzr'],
    ['pazartesi', 'pzt', 'pts'],
    ['salı', 'sal'],
    ['çarşamba', 'çar', 'çrş'],
    ['perşembe', 'per', 'prş'],
    ['cuma', 'cum'],
    ['cumartesi', 'cmt', 'cts'],
  ],
  // 月曜日, 月曜 or 月 alone (tokenize splits 土日 into two days).
  ja: [
    ['日曜日', '日曜', '日'],
    ['月曜日', '月曜', '月'],
    ['火曜日', '火曜', '火'],
    ['水曜日', '水曜', '水'],
    ['木曜日', '木曜', '木'],
    ['金曜日', '金曜', '金'],
    ['土曜日', '土曜', '土'],
  ],
};

type Folded = Readonly<Record<Language, readonly (readonly string[])[]>>;
let folded: Folded | undefined;

/**
 * WRITTEN folded, as tokens are compared: `miércoles` is `miercoles`, `søndag` `sondag`. Made on
 * first use, as the tables below: a run of team members never reads a day's name, and folding every
 * name of fourteen languages is a millisecond of its start-up.
 */
export function weekdays(): Folded {
  folded ??= Object.fromEntries(LANGUAGES.map((l) => [l, WRITTEN[l].map((names) => [...new Set(names.map(fold))])])) as unknown as Folded;
  return folded;
}

/** `Mié.`, `MERCREDI`, `lunedì` → `mie`, `mercredi`, `lunedi`: lower case, no accents, no spacing or dots. */
export function fold(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ıłøæ]/g, (c) => LETTERS[c]!)
    .replace(/[\s_\-.]+/g, '');
}

// Each folded name with the day it is in each language: one look-up per word, however long the cell.
let byName: Map<string, Map<Language, number>> | undefined;
function readingsByName(): ReadonlyMap<string, ReadonlyMap<Language, number>> {
  if (byName) return byName;
  byName = new Map();
  for (const language of LANGUAGES) {
    weekdays()[language].forEach((names, day) => {
      for (const name of names) {
        const found = byName!.get(name) ?? new Map<Language, number>();
        if (!found.has(language)) found.set(language, day);
        byName!.set(name, found);
      }
    });
  }
  return byName;
}
const NONE: ReadonlyMap<Language, number> = new Map();
// Day numbers 0–6 (the wire's own keys) mean the same in every language.
const NUMBERS = [0, 1, 2, 3, 4, 5, 6].map((day) => new Map(LANGUAGES.map((l) => [l, day])));

/** The day a folded token names in each language that knows it (`di` → de 2, nl 2, fr 0). */
export function readings(token: string): ReadonlyMap<Language, number> {
  if (/^[0-6]$/.test(token)) return NUMBERS[Number(token)]!;
  return readingsByName().get(token) ?? NONE;
}

let full: readonly string[] | undefined;

/** Every full weekday name in every language, for near-miss detection (`Wednsday`, `Donnerstg`). */
export function fullNames(): readonly string[] {
  full ??= [...new Set(LANGUAGES.flatMap((l) => weekdays()[l].map((names) => names[0]!)))];
  return full;
}

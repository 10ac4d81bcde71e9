// Weekday names in the languages of the stores. The same short form can name different days in two
// languages (`ma` is Monday in Dutch and Tuesday in French, `do` Thursday in German and Sunday in
// Spanish), so a header's day columns are read together, in one language, never one at a time.

export const LANGUAGES = ['en', 'de', 'nl', 'fr', 'es', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Per language, per weekday (0 = Sunday): full name, then short forms; written without accents. */
export const WEEKDAYS: Readonly<Record<Language, readonly (readonly string[])[]>> = {
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
    ['miercoles', 'mie', 'mi'],
    ['jueves', 'jue', 'ju'],
    ['viernes', 'vie', 'vi'],
    ['sabado', 'sab', 'sa'],
  ],
  it: [
    ['domenica', 'dom', 'do'],
    ['lunedi', 'lun', 'lu'],
    ['martedi', 'mar', 'ma'],
    ['mercoledi', 'mer', 'me'],
    ['giovedi', 'gio', 'gi'],
    ['venerdi', 'ven', 've'],
    ['sabato', 'sab', 'sa'],
  ],
};

/** `Mié.`, `MERCREDI`, `lunedì` → `mie`, `mercredi`, `lunedi`: lower case, no accents, no spacing or dots. */
export function fold(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');
}

/** The day a folded token names in each language that knows it (`di` → de 2, nl 2, fr 0). */
export function readings(token: string): ReadonlyMap<Language, number> {
  const found = new Map<Language, number>();
  // Day numbers 0–6 (the wire's own keys) mean the same in every language.
  if (/^[0-6]$/.test(token)) {
    for (const language of LANGUAGES) found.set(language, Number(token));
    return found;
  }
  for (const language of LANGUAGES) {
    const day = WEEKDAYS[language].findIndex((names) => names.includes(token));
    if (day !== -1) found.set(language, day);
  }
  return found;
}

/** Every full weekday name in every language, for near-miss detection (`Wednsday`, `Donnerstg`). */
export const FULL_NAMES: readonly string[] = [...new Set(LANGUAGES.flatMap((l) => WEEKDAYS[l].map((names) => names[0]!)))];

// Weekday columns in six languages, read for the header as a whole.
import { describe, expect, it } from 'vitest';
import { compilePlan } from '../../src/map/column-plan.js';
import { fold } from '../../src/map/weekdays.js';

const days = (columns: string[]) => {
  const p = compilePlan('store-cards', ['nodeKey', 'email', ...columns], { mapping: {}, line: 1, perRecordColumns: false });
  const out: Record<string, number> = {};
  p.days.forEach((d, day) => {
    if (d?.layout === 'range') out[p.columns[d.index]!] = day;
  });
  return { days: out, codes: p.issues.map((i) => i.code) };
};

describe('a header in one language', () => {
  it.each([
    ['en', ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']],
    ['de', ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So']],
    ['de, dots', ['Mo.', 'Di.', 'Mi.', 'Do.', 'Fr.', 'Sa.', 'So.']],
    ['de, full', ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag']],
    ['nl', ['ma', 'di', 'wo', 'do', 'vr', 'za', 'zo']],
    ['nl, full', ['maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag', 'zondag']],
    ['fr', ['lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.', 'dim.']],
    ['fr, two letters', ['lu', 'ma', 'me', 'je', 've', 'sa', 'di']],
    ['es', ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo']],
    ['es, short', ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom']],
    ['it', ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica']],
    ['it, no accents', ['lunedi', 'martedi', 'mercoledi', 'giovedi', 'venerdi', 'sabato', 'domenica']],
    ['pt', ['Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado', 'Domingo']],
    ['pt, short', ['seg', 'ter', 'qua', 'qui', 'sex', 'sáb', 'dom']],
    ['pl', ['Poniedziałek', 'Wtorek', 'Środa', 'Czwartek', 'Piątek', 'Sobota', 'Niedziela']],
    ['pl, short', ['pn', 'wt', 'śr', 'cz', 'pt', 'sb', 'nd']],
    ['sv', ['Måndag', 'Tisdag', 'Onsdag', 'Torsdag', 'Fredag', 'Lördag', 'Söndag']],
    ['sv, short', ['mån', 'tis', 'ons', 'tors', 'fre', 'lör', 'sön']],
    ['da/nb', ['Mandag', 'Tirsdag', 'Onsdag', 'Torsdag', 'Fredag', 'Lørdag', 'Søndag']],
    ['da/nb, short', ['man', 'tir', 'ons', 'tor', 'fre', 'lør', 'søn']],
    ['tr', ['Pazartesi', 'Salı', 'Çarşamba', 'Perşembe', 'Cuma', 'Cumartesi', 'Pazar']],
    ['tr, capitals', ['PAZARTESİ', 'SALI', 'ÇARŞAMBA', 'PERŞEMBE', 'CUMA', 'CUMARTESİ', 'PAZAR']],
    ['tr, short', ['Pzt', 'Sal', 'Çar', 'Per', 'Cum', 'Cmt', 'Paz']],
    ['ja', ['月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日', '日曜日']],
    ['ja, one character', ['月', '火', '水', '木', '金', '土', '日']],
  ])('%s: Monday to Sunday', (_language, columns) => {
    const { days: found, codes } = days(columns);
    expect(codes).toEqual([]);
    expect(columns.map((c) => found[c])).toEqual([1, 2, 3, 4, 5, 6, 0]);
  });
});

describe('the same short name in two languages', () => {
  it('`ma` is Monday among Dutch days and Tuesday among French ones', () => {
    expect(days(['ma', 'wo']).days).toEqual({ ma: 1, wo: 3 });
    expect(days(['ma', 'je']).days).toEqual({ ma: 2, je: 4 });
  });

  it('`do` is Thursday among German days and Sunday among Spanish ones', () => {
    expect(days(['Mo', 'Do', 'So']).days).toEqual({ Mo: 1, Do: 4, So: 0 });
    expect(days(['lu', 'ju', 'do']).days).toEqual({ lu: 1, ju: 4, do: 0 });
  });

  it('a header that fits two languages that disagree is an error, never a guess', () => {
    expect(days(['Di']).codes).toEqual(['AMBIGUOUS_WEEKDAY']);
    expect(days(['ma', 'di']).codes).toEqual(['AMBIGUOUS_WEEKDAY']); // nl Mon/Tue or fr Tue/Sun
  });

  it('`pn` is Monday among Polish days and Friday among Lithuanian ones, alone neither', () => {
    expect(days(['pn', 'wt', 'pt']).days).toEqual({ pn: 1, wt: 2, pt: 5 });
    expect(days(['pr', 'an', 'pn']).days).toEqual({ pr: 1, an: 2, pn: 5 });
    expect(days(['pn']).codes).toEqual(['AMBIGUOUS_WEEKDAY']);
  });

  it('where every language that knows a name agrees, a lone column is fine', () => {
    expect(days(['Mar']).days).toEqual({ Mar: 2 });
    expect(days(['Sa']).days).toEqual({ Sa: 6 });
  });
});

it('fold drops accents, case, spaces and dots', () => {
  expect(['Mié.', 'MERCREDI', 'lunedì', 'Sáb'].map(fold)).toEqual(['mie', 'mercredi', 'lunedi', 'sab']);
});

// The languages after the first six are data (src/map/weekdays.ts, the closed words, the group
// words): the same week written in each reads the same, and what no language can say stops.
import { describe, expect, it } from 'vitest';
import { hoursFromJson } from '../../src/map/hours-json.js';

const WEEK = {
  '1': { since: 9, to: 18 },
  '2': { since: 9, to: 18 },
  '3': { since: 9, to: 18 },
  '4': { since: 9, to: 18 },
  '5': { since: 9, to: 18 },
  '6': { since: 9, to: 14 },
};

describe('the same week in the next languages', () => {
  it.each([
    ['pt', 'Segunda-feira a Sexta-feira das 9h às 18h, Sábado das 9h às 14h, Domingo fechado'],
    ['pt, short', 'Seg-Sex 9:00-18:00, Sáb 9:00-14:00, Dom encerrado'],
    ['pl', 'pon.-pt. 9:00-18:00, sob. 9:00-14:00, niedz. nieczynne'],
    ['pl, full', 'Poniedziałek-Piątek 9-18; Sobota 9-14; Niedziela zamknięte'],
    ['sv', 'Mån-Fre 9-18, Lör 9-14, Sön stängt'],
    ['da', 'Mandag-fredag 9-18, lørdag 9-14, søndag lukket'],
    ['nb', 'man-fre 9-18, lør 9-14, søn stengt'],
    ['tr', 'Pazartesi-Cuma 09:00-18:00, Cumartesi 09:00-14:00, Pazar kapalı'],
    ['tr, groups', 'Hafta içi 09:00-18:00, Cumartesi 09:00-14:00'],
    ['ja', '月～金 9:00～18:00、土 9:00～14:00、日 定休日'],
    ['ja, full-width digits', '月曜日～金曜日 ９：００～１８：００、土曜日 ９：００～１４：００'],
    ['ja, 平日', '平日 9:00〜18:00、土 9:00〜14:00'],
    ['no separator between rules', 'Mo-Fr 9-18 Sa 9-14'],
  ])('%s: %j', (_language, text) => {
    expect(hoursFromJson(text)).toEqual({ period: WEEK });
  });

  it('times with no weekday are every day, and a later rule after ; replaces them', () => {
    expect(hoursFromJson('10:00-20:00').period).toEqual(Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [String(d), { since: 10, to: 20 }])));
    expect(hoursFromJson('10:00-20:00; Su off').period).toEqual(Object.fromEntries([1, 2, 3, 4, 5, 6].map((d) => [String(d), { since: 10, to: 20 }])));
  });

  it('Japanese days written together are each a day, and 祝 is a holiday left out', () => {
    const week = hoursFromJson('月～金 10:00～20:00、土日祝 10:00～18:00');
    expect(week.period).toEqual({
      ...Object.fromEntries([1, 2, 3, 4, 5].map((d) => [String(d), { since: 10, to: 20 }])),
      '6': { since: 10, to: 18 },
      '0': { since: 10, to: 18 },
    });
    expect(week.holidays).toEqual([expect.stringContaining('祝')]);
  });
});

describe('same-day ranges and slash lists are never one day', () => {
  it.each([
    ['de lunes a lunes 9-21', "'lunes' to 'lunes' starts and ends on Monday: for every day write Mo-Su"],
    ['de domingo a domingo 9-21', "'domingo' to 'domingo' starts and ends on Sunday"],
    ['Mo-Mo 09:00-21:00', "'Mo' to 'Mo' starts and ends on Monday"],
    ['Lunedì/Sabato 08:00-20:00', "'Lunedì/Sabato' could be Monday and Saturday or Monday to Saturday: write Lunedì-Sabato"],
  ])('%j', (text, message) => {
    const result = hoursFromJson(text);
    expect(result.period).toEqual({});
    expect(result.problems?.[0]?.message).toContain(message);
  });

  it('neighbours read the same either way: Sa/So is Saturday and Sunday', () => {
    expect(hoursFromJson('Mo-Fr 9-18, Sa/So 10-14').period).toMatchObject({ '6': { since: 10, to: 14 }, '0': { since: 10, to: 14 } });
  });
});

// The corpus of test/corpus/hours-as-people-write.ts (issue 41): each text is read as meant, asks the
// right question (both readings named), or is refused where the service cannot hold it; none is read
// wrongly. The counts are in docs/input.md ("Hours as people write them").
import { describe, expect, it } from 'vitest';
import { parseDay } from '../../src/map/hours.js';
import { hoursFromJson } from '../../src/map/hours-json.js';
import { HOURS_TEXTS, type Expected, type HoursText } from '../corpus/hours-as-people-write.js';

type Outcome = 'read' | 'asked' | 'refused' | 'wrong';

/** What the reader makes of a text, judged against what it must become. */
function judge({ text, cell, expected }: HoursText): { outcome: Outcome; got: unknown } {
  const want: Expected = expected;
  if (cell === 'day') {
    const got = parseDay(text);
    if ('closed' in want) return { outcome: got === 'closed' ? 'read' : 'wrong', got };
    if ('read' in want) {
      const periods = got !== 'closed' && 'periods' in got ? got.periods.map((p) => [p.since, p.to]) : got;
      return { outcome: JSON.stringify(periods) === JSON.stringify(want.read) ? 'read' : 'wrong', got };
    }
    if (got === 'closed' || !('error' in got)) return { outcome: 'wrong', got };
    if ('asks' in want) return { outcome: got.code === 'AMBIGUOUS_TIME' && want.asks.every((r) => got.error.includes(r)) ? 'asked' : 'wrong', got };
    if ('refused' in want) return { outcome: !got.code && got.error.includes(want.refused) ? 'refused' : 'wrong', got };
    return { outcome: 'wrong', got };
  }
  const got = hoursFromJson(text);
  const problems = got.problems ?? [];
  if ('week' in want) {
    const period = Object.fromEntries(Object.entries(got.period).map(([d, p]) => [d, [p.since, p.to]]));
    return {
      outcome: !problems.length && JSON.stringify(period) === JSON.stringify(Object.fromEntries(Object.entries(want.week).sort())) ? 'read' : 'wrong',
      got,
    };
  }
  if ('asks' in want)
    return {
      outcome: problems.length > 0 && problems.every((p) => p.code === 'AMBIGUOUS_TIME' && want.asks.every((r) => p.message.includes(r))) ? 'asked' : 'wrong',
      got,
    };
  if ('split' in want)
    return { outcome: problems.length > 0 && problems.every((p) => p.code === 'SPLIT_HOURS' && p.message.includes(want.split)) ? 'asked' : 'wrong', got };
  if ('refused' in want)
    return { outcome: problems.length > 0 && problems.every((p) => !p.code && p.message.includes(want.refused)) ? 'refused' : 'wrong', got };
  return { outcome: 'wrong', got };
}

describe('hours as people in six countries write them', () => {
  it.each(HOURS_TEXTS.map((t) => [`${t.where} ${t.cell} ${JSON.stringify(t.text)}`, t] as const))('%s', (_, text) => {
    const { outcome, got } = judge(text);
    expect(outcome, JSON.stringify(got)).not.toBe('wrong');
  });

  it('none is read wrongly; the counts are the ones docs/input.md records', () => {
    const counts = { read: 0, asked: 0, refused: 0, wrong: 0 };
    for (const text of HOURS_TEXTS) counts[judge(text).outcome]++;
    expect(counts.wrong).toBe(0);
    expect(new Set(HOURS_TEXTS.map((t) => t.where)).size).toBe(6);
    expect(counts).toEqual({ read: 125, asked: 34, refused: 7, wrong: 0 });
  });
});

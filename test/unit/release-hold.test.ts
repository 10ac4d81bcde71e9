// Which keys `upload release` removes: those upload #N held back that are still held — on the service
// now, and not brought back by a later upload of a whole file. A later merge, removal, restore or
// release names no file of every key, so it neither brings a key back nor holds it.
import { describe, expect, it } from 'vitest';
import { holdOf } from '../../src/operations/release.js';
import type { Generation, Operation } from '../../src/state/types.js';

const gen = (generation: number, operation: Operation, heldRemovals?: string[]): Generation => ({
  generation,
  uploadedAt: '2026-11-28T00:00:00.000Z',
  user: 'cron',
  host: 'sync-01',
  toolVersion: '0.3.0',
  source: 'nightly.csv',
  records: 0,
  bytes: 2,
  sha256: '0'.repeat(64),
  restoredFrom: null,
  plan: null,
  operation,
  ...(heldRemovals ? { heldRemovals } : {}),
});

/** The latest set: these keys on the service. */
const on = (...keys: string[]) => new Map(keys.map((k) => [k, '{}']));

describe('holdOf', () => {
  const cases: [string, Generation[], number | undefined, Map<string, string>, string[]][] = [
    ['the latest upload’s holds', [gen(2, 'upload', ['E5', 'E6']), gen(1, 'upload')], undefined, on('E1', 'E5', 'E6'), ['E5', 'E6']],
    ['a plan applied with holds', [gen(2, 'apply', ['E5']), gen(1, 'upload')], undefined, on('E1', 'E5'), ['E5']],
    ['nothing held by the latest', [gen(2, 'upload'), gen(1, 'upload', ['E5'])], undefined, on('E1', 'E5'), []],
    [
      'an earlier hold, held again the next night',
      [gen(3, 'upload', ['E5', 'E6', 'E7']), gen(2, 'upload', ['E5', 'E6'])],
      2,
      on('E5', 'E6', 'E7'),
      ['E5', 'E6'],
    ],
    ['an earlier hold, one key back in a later file', [gen(3, 'upload', ['E6']), gen(2, 'upload', ['E5', 'E6'])], 2, on('E5', 'E6'), ['E6']],
    ['an earlier hold, one key removed since', [gen(3, 'remove'), gen(2, 'upload', ['E5', 'E6'])], 2, on('E6'), ['E6']],
    ['an earlier hold across a merge and a release', [gen(4, 'release'), gen(3, 'merge'), gen(2, 'upload', ['E5', 'E6'])], 2, on('E5', 'E6'), ['E5', 'E6']],
    ['an earlier hold, a later plan applied without it', [gen(3, 'apply'), gen(2, 'upload', ['E5'])], 2, on('E5'), []],
  ];
  it.each(cases)('%s', (_, listed, wanted, latest, keys) => {
    expect(holdOf(listed, listed[0]!, wanted, latest).keys).toEqual(keys);
  });

  it('names the upload it read, and refuses one that is not recorded (BAD_GENERATION)', () => {
    const listed = [gen(2, 'upload', ['E5']), gen(1, 'upload')];
    expect(holdOf(listed, listed[0]!, undefined, on('E5')).generation).toBe(2);
    expect(() => holdOf(listed, listed[0]!, 7, on('E5'))).toThrow(expect.objectContaining({ code: 'BAD_GENERATION' }) as Error);
  });
});

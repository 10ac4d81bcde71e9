// Keys and emails that look like another record's (issue 40): `Е00001` (Cyrillic Е) beside `E00001`
// would be two records a person cannot tell apart. Compared by UTS #39 skeletons, cheaply: only the
// values that hold more than ASCII and plain Latin letters get a skeleton as they are read (few, in
// most files); the plain values are looked at, once, at the end, and only when one of those few has
// a skeleton a plain value could have.
import { issue, type Issue } from '../issues.js';
import { foldKey } from './key-index.js';
import { differing, mixedScripts, describeChar, needsSkeleton, plainSkeletonHash, shown, skeleton, skeletonHash } from './lookalike.js';
import { PLAIN_BELOW_1F00 } from './confusables-table.js';

export interface Lookalike {
  /** The record refused, its value, and the value it looks like: another record's, or one recorded. */
  readonly record: number;
  readonly value: string;
  readonly other: string;
  /** The record the other value is on; undefined when it is only in the last upload. */
  readonly otherRecord: number | undefined;
}

export class Lookalikes {
  /** Per field: each skeleton of a value that needed one, with the records holding such a value. */
  private readonly pools = new Map<string, Map<string, number[]>>();

  add(field: string, record: number, value: string): void {
    let pool = this.pools.get(field);
    if (!pool) this.pools.set(field, (pool = new Map<string, number[]>()));
    const s = skeleton(value);
    const records = pool.get(s);
    if (records) records.push(record);
    else pool.set(s, [record]);
  }

  /**
   * The look-alikes among a field's values: `count` records, `valueOf` each one's value; `recorded`,
   * the values the last upload recorded, when at hand. Of each group of values with one skeleton and
   * different text, every value but the reference is refused: the recorded one when there is one,
   * else the first in plain letters, else the first in the file.
   */
  find(field: string, count: number, valueOf: (record: number) => string | undefined, recorded?: () => Iterable<string>): Lookalike[] {
    // Only a value beyond plain letters is ever refused, so a file without one costs nothing here. A
    // recorded look-alike that the file writes in plain letters is a correction, and is sent.
    const pool = this.pools.get(field);
    if (!pool) return [];
    const groups = new Map<string, { file: number[]; recorded: string[] }>();
    for (const [s, records] of pool) groups.set(s, { file: [...records], recorded: [] });
    if (recorded) {
      for (const value of recorded()) {
        if (!needsSkeleton(value)) continue;
        groups.get(skeleton(value))?.recorded.push(value);
      }
    }
    // The plain values are looked at only if a plain value could have one of these skeletons, and
    // then by a hash of their skeleton, made without a string; a match is confirmed by the skeleton.
    const reachable = new Map<number, string>();
    for (const s of groups.keys()) if (plainCould(s)) reachable.set(skeletonHash(s), s);
    const joins = (value: string): string | undefined => {
      const s = reachable.get(plainSkeletonHash(value));
      return s !== undefined && skeleton(value) === s ? s : undefined;
    };
    if (reachable.size > 0) {
      for (let record = 0; record < count; record++) {
        const value = valueOf(record);
        if (value === undefined || needsSkeleton(value)) continue;
        const s = joins(value);
        if (s !== undefined) groups.get(s)!.file.push(record);
      }
      if (recorded) {
        for (const value of recorded()) {
          if (needsSkeleton(value)) continue;
          const s = joins(value);
          if (s !== undefined) groups.get(s)!.recorded.push(value);
        }
      }
    }
    const found: Lookalike[] = [];
    for (const group of groups.values()) {
      if (group.file.length + group.recorded.length < 2) continue;
      group.file.sort((a, b) => a - b);
      // The first record of each folded text: a repeat of the same text is DUPLICATE_KEY's, not ours.
      const firsts = new Map<string, number>();
      for (const record of group.file) {
        const fold = foldKey(valueOf(record)!);
        if (!firsts.has(fold)) firsts.set(fold, record);
      }
      // The reference: what the service holds, else the first value in plain letters, else the first.
      const plainFirst = group.file.find((r) => !needsSkeleton(valueOf(r)!));
      const reference = group.recorded[0] ?? valueOf(plainFirst ?? group.file[0]!)!;
      const referenceFold = foldKey(reference);
      const otherRecord = firsts.get(referenceFold);
      for (const [fold, record] of firsts) {
        if (fold === referenceFold) continue;
        found.push({ record, value: valueOf(record)!, other: otherRecord === undefined ? reference : valueOf(otherRecord)!, otherRecord });
      }
    }
    return found;
  }
}

/** The characters a plain value's skeleton can hold (from the plain characters' own skeletons). */
let plainChars: Set<string> | undefined;

function plainCould(s: string): boolean {
  if (!plainChars) {
    plainChars = new Set();
    for (const [from, to] of PLAIN_BELOW_1F00) for (let cp = from; cp <= to; cp++) for (const c of skeleton(String.fromCodePoint(cp))) plainChars.add(c);
  }
  for (const c of s) if (!plainChars.has(c)) return false;
  return true;
}

/** LOOKALIKE_KEY or LOOKALIKE_EMAIL for a value that looks like another's, naming both and what differs. */
export function lookalikeIssue(
  field: string,
  found: Lookalike,
  at: { line: number; column: string | null },
  otherLine: number | undefined,
  recordedIn: string,
): Issue {
  const where = otherLine === undefined ? `recorded in ${recordedIn}` : `on line ${otherLine}`;
  const what = field === 'email' ? 'emails' : 'keys';
  const differs = differing(found.value, found.other);
  return issue(
    'error',
    field === 'email' ? 'LOOKALIKE_EMAIL' : 'LOOKALIKE_KEY',
    `${field} '${shown(found.value)}' looks like '${shown(found.other)}' ${where} but is other text${differs ? ` (${differs})` : ''}; the two would be ${what} a person cannot tell apart: correct the letter in this cell${otherLine === undefined ? '' : ` or on line ${otherLine}`}, so both are written alike or plainly differ`,
    { line: at.line, column: at.column, field, value: found.value },
  );
}

/** LOOKALIKE_CHARACTER for a key or email with a word in two scripts (`exаmple` with a Cyrillic а). */
export function mixedScriptIssue(field: string, value: string, at: { line: number; column: string | null }): Issue | undefined {
  const mixed = mixedScripts(value);
  if (!mixed) return undefined;
  const [major, minor] = mixed.scripts;
  const odd = mixed.odd.map((o) => `${describeChar(o.char)} at position ${o.position}`).join(', ');
  return issue(
    'error',
    'LOOKALIKE_CHARACTER',
    `${field} '${shown(value)}' mixes ${major} and ${minor} letters in the word '${mixed.word}': ${odd}; a letter of another script looks like its twin but is other text: retype ${mixed.odd.length === 1 ? 'it' : 'them'} in ${major}, so the word is in one script`,
    { line: at.line, column: at.column, field, value },
  );
}

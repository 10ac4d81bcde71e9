// SUSPECT_ENCODING as an error (issue 28): a mis-decoded file must not rewrite the names the service
// already holds. A warning alone lets `Łukasz` become `£ukasz` for every recorded person, so the text
// fields of the changed records are compared with the baseline: a change is suspect when the file as a
// whole read badly under --encoding, or when the new text itself looks mis-decoded.
import type { Bodies } from '../contract/json-array.js';
import { misreadFrom } from '../read/misread.js';
import { CHANGED } from './index.js';
import type { RecordsByKey } from './records.js';

export interface SuspectChange {
  readonly key: string;
  /** Where the record is in the plan (its line is found from it). */
  readonly index: number;
  readonly field: string;
  readonly before: string;
  readonly after: string;
}

export interface SuspectChanges {
  readonly count: number;
  readonly examples: readonly SuspectChange[];
  /** Some change puts a `?` where the recorded text has a letter: the export lost letters. */
  readonly lostLetters: boolean;
  /** The encoding that reads the new text's bytes as the recorded text, when one does (the fix). */
  readonly readAs: string | undefined;
}

const EXAMPLES = 5;

/**
 * UTF-8 read as single bytes (`Ã©` for `é`), or Latin-1 punctuation between letters (`£ukasz`'s
 * neighbours `¯ó³æ`): what windows-1252 makes of Central European letters. `·` is left out: Catalan
 * writes `l·l`.
 */
// Made on first use, like each `…Made` below: V8 parses a `\p{…}` class when the expression is
// made, milliseconds of every start-up for values few runs hold (docs/performance.md, start-up).
let misdecodedMade: RegExp | undefined;
const MISDECODED = () => (misdecodedMade ??= /\u00c3[\u0080-\u00bf]|\p{L}[\u00a1-\u00b6\u00b8-\u00bf]\p{L}|(?:^|\P{L})[\u00a3\u00af\u00a5\u00a6]\p{L}/u);

/** A word of Latin letters with Greek or Cyrillic ones (`Krakуw`): a Cyrillic page read where a Latin one was. */
let mixedWordMade: RegExp | undefined;
const MIXED_WORD = () =>
  (mixedWordMade ??= /(?:[a-z\u00c0-\u024f][\p{Script=Cyrillic}\p{Script=Greek}]|[\p{Script=Cyrillic}\p{Script=Greek}][a-z\u00c0-\u024f])/iu);

/** Letters other code pages put where windows-1250/1254 letters stood (`Þule Yýlmaz` for `Şule Yılmaz`). */
const SWAPPED = new Set(['Þ', 'þ', 'ý', 'Ý', 'ð', 'Ð']);

/**
 * The changed text values of recorded keys that are suspect. `fileSuspect`: the file read badly under
 * --encoding (the SUSPECT_ENCODING note), so every changed text of a recorded key is.
 */
export function suspectNameChanges(baseline: RecordsByKey, keys: readonly string[], bodies: Bodies, status: Uint8Array, fileSuspect: boolean): SuspectChanges {
  let count = 0;
  let lostLetters = false;
  let readAs: string | undefined;
  const examples: SuspectChange[] = [];
  for (let i = 0; i < keys.length; i++) {
    if (status[i] !== CHANGED) continue;
    const key = keys[i]!;
    const before = JSON.parse(baseline.get(key)!) as Record<string, unknown>;
    const after = JSON.parse(bodies.json(i)) as Record<string, unknown>;
    for (const [field, was] of Object.entries(before)) {
      const now = after[field];
      if (typeof was !== 'string' || typeof now !== 'string' || was === now) continue;
      const lost = lettersLost(was, now);
      // The recorded text is what another code page (or UTF-8) makes of the new text's bytes: the same
      // name read in the wrong page (`Eglė` → `Eglë`), whichever page was chosen, the tool's first too.
      const misread = fileSuspect || lost ? undefined : misreadFrom(was, now);
      readAs ??= misread;
      const marked = (MISDECODED().test(now) && !MISDECODED().test(was)) || (MIXED_WORD().test(now) && !MIXED_WORD().test(was));
      if (!fileSuspect && !lost && !misread && !marked) continue;
      lostLetters ||= lost && [...now].includes('?');
      count++;
      if (examples.length < EXAMPLES) examples.push({ key, index: i, field, before: was, after: now });
    }
  }
  return { count, examples, lostLetters, readAs };
}

/**
 * The new text is the recorded one with some non-ASCII letters replaced, character for character, by
 * `?` or by what another code page shows there (`J?rgen` for `Jürgen`): a lossy export, not an edit.
 */
function lettersLost(was: string, now: string): boolean {
  const a = [...was];
  const b = [...now];
  if (a.length !== b.length) return false;
  let swapped = false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    // A `?` may stand for any letter; another code page's letter only for a non-ASCII one.
    if (!/\p{L}/u.test(a[i]!) || !(b[i] === '?' || (SWAPPED.has(b[i]!) && a[i]! >= '\u0080'))) return false;
    swapped = true;
  }
  return swapped;
}

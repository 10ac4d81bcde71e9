// Keys that lost their leading zeros: a CSV opened and saved in Excel or LibreOffice turns `000100`
// into `100`. Against the last upload every such record reads as one removed and one added, and the
// removal guard would ask for `--max-removals N` — which would delete every record and add it again
// under a wrong key. The cause is named instead: removed keys that equal added keys once their
// leading zeros are stripped (or the reverse, a file that pads what was recorded without zeros).
import { ADDED } from '../diff/index.js';
import { GuardRefusal } from '../errors.js';
import { thousands } from '../numbers.js';

/** The baseline as this check reads it: its keys by position. */
export interface BaselineKeys {
  readonly size: number;
  keyOf(r: number): string;
}

export interface ZeroPairs {
  /** How many removed keys have an added twin that differs only in leading zeros. */
  readonly count: number;
  /** The first few, as [recorded, in the file]. */
  readonly examples: readonly (readonly [string, string])[];
}

const bare = (key: string) => key.replace(/^0+(?=.)/, '');

export function leadingZeroPairs(baseline: BaselineKeys, keys: readonly string[], status: Uint8Array, shown = 5): ZeroPairs {
  // Added keys by their form without leading zeros (only those a zero could have been lost from or added to).
  const added = new Map<string, string>();
  for (let i = 0; i < keys.length; i++) if (status[i] === ADDED && /^\d/.test(keys[i]!)) added.set(bare(keys[i]!), keys[i]!);
  if (!added.size) return { count: 0, examples: [] };
  const candidates = new Map<string, string>();
  for (let r = 0; r < baseline.size; r++) {
    const recorded = baseline.keyOf(r);
    if (!/^\d/.test(recorded)) continue;
    const twin = added.get(bare(recorded));
    if (twin !== undefined && twin !== recorded) candidates.set(recorded, twin);
  }
  if (!candidates.size) return { count: 0, examples: [] };
  // A recorded key the file still has is not removed: "100" and "000100" may both be real.
  for (let i = 0; i < keys.length; i++) if (status[i] !== ADDED) candidates.delete(keys[i]!);
  return { count: candidates.size, examples: [...candidates].slice(0, shown) };
}

/** The refusal, naming a few pairs and how to keep IDs as text; never "raise --max-removals". */
export function leadingZerosRefusal(pairs: ZeroPairs, keyField: string, recorded: string): GuardRefusal {
  const shown = pairs.examples.map(([was, now]) => `'${was}' → '${now}'`).join(', ');
  return new GuardRefusal(
    'LEADING_ZEROS_LOST',
    `${thousands(pairs.count)} ${keyField}${pairs.count === 1 ? '' : 's'} of ${recorded} reappear in the file without their leading zeros (or with zeros they did not have): ${shown}${pairs.count > pairs.examples.length ? ', …' : ''}. A spreadsheet read the IDs as numbers; uploading would delete each record and add it again under a wrong key; nothing was sent`,
    'keep the IDs as text: export again with the ID column as Text (the HR system\'s export settings, or the column\'s "Text" format before saving), upload the export in its own format rather than a re-saved CSV (--format names it when the extension does not), or in LibreOffice\'s CSV import dialog set the ID column\'s type to "Text"; if the keys really changed, take the old ones off first (upload remove … --keys-file FILE) — raising --max-removals would not fix this',
  );
}

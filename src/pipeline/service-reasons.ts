// A refusing service's own reasons, told in the file's terms: an `errors[]` entry's index is the
// position in the array that was sent, which the person cannot see; its line in the file and its key
// they can. The reasons join the error's message, so the screen, `--json` and the history all say them.
import type { UploadError } from '../errors.js';
import type { RecordSet } from '../sets/index.js';
import type { Plan } from './plan.js';
import { reasonLine } from '../send/reasons.js';

/** Where the record at an index of the sent array came from. */
export type Locate = (index: number) => { readonly key: string | null; readonly line: number | null };

/** The sent set is the file's records, or a set a merge, a removal or held removals made of them. */
export function locatorOf(file: Plan | undefined, set: RecordSet | undefined): Locate {
  return (index) => {
    const key = (set ? set.keys[index] : file?.keys[index]) ?? null;
    if (!file || key === null) return { key, line: null };
    const at = set ? file.keys.indexOf(key) : index;
    return { key, line: at === -1 ? null : (file.lineOf(at) ?? null) };
  };
}

/** Lines of the service's reasons shown at most (the report keeps MAX_REASONS of them). */
const SHOWN = 10;

export function explainServiceReasons(err: UploadError, locate: Locate | undefined): void {
  const said = err.said;
  if (!said?.errors.length) return;
  const errors = said.errors.map((r) => (r.index === null || !locate ? r : { ...r, ...locate(r.index) }));
  err.said = { ...said, errors };
  const lines = errors.slice(0, SHOWN).map((r) => `    ${reasonLine(r)}`);
  const more = said.errorCount - lines.length;
  err.message = `${err.message}. The service said:\n${lines.join('\n')}${more > 0 ? `\n    … and ${more} more` : ''}`;
}

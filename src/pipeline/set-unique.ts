// The whole set a merge, a removal or held removals will send, checked for a key or an email held by
// two records — named by where each comes from: a line of the file, or the recorded upload it keeps.
import { KINDS, type Kind } from '../contract/kinds.js';
import { InputError } from '../errors.js';
import type { RecordSet } from '../sets/index.js';
import { setClashes } from '../sets/unique.js';
import type { Plan } from './plan.js';

export function uniqueSetError(kind: Kind, set: RecordSet, file: Plan | undefined, source: string, recorded: number | null): InputError | undefined {
  const clashes = setClashes(kind, set);
  if (!clashes.length) return undefined;
  const fileIndex = file ? new Map(file.keys.map((k, i) => [k, i])) : undefined;
  const where = (key: string) => {
    const at = fileIndex?.get(key);
    const line = at === undefined ? undefined : file!.lineOf(at);
    return line !== undefined ? `${source} line ${line}` : `kept from upload #${recorded ?? '?'}`;
  };
  const { keyField, noun } = KINDS[kind];
  const lines = clashes.map((c) =>
    c.field === keyField
      ? `${keyField} '${c.value}' twice: ${where(c.first)} and ${where(c.second)}`
      : `${c.field} '${c.value}' on ${keyField} '${c.first}' (${where(c.first)}) and on '${c.second}' (${where(c.second)})`,
  );
  return new InputError(
    'DUPLICATE_IN_SET',
    `the ${noun}s that would be sent are not unique — ${lines.join('; ')}${clashes.length >= 20 ? '; …' : ''}; nothing was sent`,
    `each ${keyField} and each email must be unique in the whole set: fix the file's row, or take the other record off first (upload remove ${kind} KEY)`,
  );
}

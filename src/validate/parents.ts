// `--store-cards FILE`: the nodeKeys a team member's parentKey should match. The file is read like
// any store-card upload (format, encoding and delimiter detected on their own), so what is checked
// against is exactly what `upload store-cards FILE` would send.
import { InputError } from '../errors.js';
import { buildPlan } from '../plan.js';
import { plural } from '../report/human.js';

export async function loadKnownParents(path: string, stdin?: NodeJS.ReadableStream): Promise<ReadonlySet<string>> {
  const source = path === '-' ? 'stdin' : path;
  let plan;
  try {
    plan = await buildPlan({ kind: 'store-cards', path, read: { source }, mapping: {}, ...(stdin ? { stdin } : {}) });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(err.code, `--store-cards ${err.message}`, err.hint);
  }
  if (plan.errors > 0) {
    // Half a list of stores would turn every member of a rejected store into a false warning.
    throw new InputError(
      'STORE_CARDS_INVALID',
      `--store-cards ${source}: ${plural(plan.errors, 'error')} in the store-card file, so the parentKeys cannot be checked against it`,
      `see them with: upload store-cards ${path} --dry-run; or drop --store-cards`,
    );
  }
  return new Set(plan.keys);
}

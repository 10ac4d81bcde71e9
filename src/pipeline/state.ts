// The state store of one base URL and kind, opened for a run: what every command reads its baseline
// and history from, and a real run records into.
import type { Kind } from '../contract/kinds.js';
import { normaliseBaseUrl } from '../state/paths.js';
import type { StateKey, StateStore } from '../state/types.js';
import type { RunContext } from './context.js';

/** The store and the key a run reads and writes. */
export interface State {
  readonly store: StateStore;
  readonly key: StateKey;
  /** Whether the run opened the store itself (and so closes it), or was lent it by whoever started it. */
  readonly owned?: boolean;
}

/** The store and the key of one base URL and kind, with what the store has to say on opening. */
export async function openState(spec: string, baseUrl: URL, kind: Kind, ctx: RunContext): Promise<State> {
  const key = { baseUrl: normaliseBaseUrl(baseUrl), kind };
  // The CLI's runner opens the store once for the whole command (and says its notices).
  if (ctx.openStore) return { store: await ctx.openStore(spec), key, owned: false };
  const { openStore } = await import('../state/index.js');
  const store = await openStore(spec, { env: ctx.env, signal: ctx.signal });
  for (const message of store.notices) ctx.emit({ type: 'notice', message });
  return { store, key, owned: true };
}

/** Closes the store if the run opened it. */
export async function closeState(state: State | undefined): Promise<void> {
  if (state?.owned) await state.store.close();
}

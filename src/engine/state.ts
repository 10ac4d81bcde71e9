// The state store of one base URL and kind, opened for a run: what every command reads its baseline
// and history from, and a real run records into.
import type { Kind } from '../contract/kinds.js';
import { openStore } from '../state/index.js';
import { normaliseBaseUrl } from '../state/paths.js';
import type { StateKey, StateStore } from '../state/types.js';
import type { RunContext } from './context.js';

/** The store and the key a run reads and writes. */
export interface State {
  readonly store: StateStore;
  readonly key: StateKey;
}

/** The store and the key of one base URL and kind, with what the store has to say on opening. */
export async function openState(spec: string, baseUrl: URL, kind: Kind, ctx: RunContext): Promise<State> {
  const store = await openStore(spec, { env: ctx.env, signal: ctx.signal });
  for (const message of store.notices) ctx.emit({ type: 'notice', message });
  return { store, key: { baseUrl: normaliseBaseUrl(baseUrl), kind } };
}

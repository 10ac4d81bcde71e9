// The layout an earlier upload recorded (../map/layout-memory.ts), read from the store, and what the
// run says of it. Reading never writes: the layout is recorded with the next confirmed upload.
import { readRecorded, type LayoutDecision, type Remembered } from '../map/layout-memory.js';
import { plural } from '../numbers.js';
import type { State } from './state.js';

/** How far back to look for an upload that recorded its layout (restores and removals record none). */
const LOOK_BACK = 20;

/** The latest upload that recorded its file's layout, or undefined (none yet, or an older store's). */
export async function rememberedLayout(state: State | undefined): Promise<Remembered | undefined> {
  if (!state) return undefined;
  // The latest upload alone first: it recorded its layout unless it was a restore or a removal, and
  // listing twenty reads twenty records (forty files in the directory store) on every run.
  const latest = await state.store.generations(state.key, 1);
  const listed = latest[0] && !readRecorded(latest[0].layout) ? await state.store.generations(state.key, LOOK_BACK) : latest;
  for (const g of listed) {
    const layout = readRecorded(g.layout);
    if (layout) return { generation: g.generation, layout };
  }
  return undefined;
}

/** "The same 14 columns as upload #41": said when the recorded mapping was used (a changed header is an issue instead). */
export function layoutNotice(layout: LayoutDecision | null): string | undefined {
  const o = layout?.outcome;
  if (!o || !o.reused || o.comparedWith === null) return undefined;
  const same = `the same ${plural(o.columns, 'column')} as upload #${o.comparedWith}: read with the mapping recorded then`;
  if (!o.flagsWon.length) return same;
  return `${same}, except where ${o.flagsWon.join(', ')}, given now, ${o.flagsWon.length === 1 ? 'says' : 'say'} otherwise: the flags win`;
}

// What an upload was, in the words of the person who runs the stores or the staff list — not the tool's
// (`operation: merge`, `heldRemovals`). Each phrase is one function of the recorded upload; a new fact
// about an upload (who approved it, when four-eyes is on) is one more entry in PHRASES.
import { plural } from '../numbers.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import type { Generation } from '../state/types.js';
import { describeApproval, operationOf } from '../state/operation.js';

type Phrase = (g: Generation, kind: Kind) => string | null;

const noun = (kind: Kind, n: number) => plural(n, KINDS[kind].noun);

/** The upload itself: what it did to the list on the service. */
const whatItDid: Phrase = (g, kind) => {
  switch (operationOf(g)) {
    case 'upload':
      return `Replaced the whole list with the ${noun(kind, g.records)} of ${g.source}`;
    case 'merge':
      return `Added or updated the ${KINDS[kind].noun}s in ${g.source}, kept every other one`;
    case 'remove':
      return `Took ${KINDS[kind].noun}s off the list (${g.source})`;
    case 'restore':
      return `Put back the list as it was after upload #${g.restoredFrom ?? '?'}`;
    case 'apply':
      return `Sent a reviewed plan (${g.plan ?? g.source})`;
    case 'release':
      return `Released the ${g.source}: took off the list exactly the ${KINDS[kind].noun}s that upload had held back`;
  }
};

/** Removals --hold-removals kept: the file left them out, the service still has them. */
const heldBack: Phrase = (g, kind) => {
  const held = g.heldRemovals ?? [];
  if (!held.length) return null;
  const shown = held.slice(0, 10).join(', ') + (held.length > 10 ? `, and ${held.length - 10} more` : '');
  return `Held back ${plural(held.length, 'removal')}: kept ${noun(kind, held.length)} the file left out, instead of deleting them: ${shown}`;
};

/** Four eyes: who planned it, who approved it, who sent it, as the state store named them. */
const fourEyes: Phrase = (g) => (g.approval ? `${describeApproval(g.approval).replace(/^p/, 'P')}` : null);

/** --hours-as-of: the week the opening hours bound to dates (`Apr 10-15 off`) were read for. */
const hoursAsOf: Phrase = (g) => (g.hoursAsOf ? `Opening hours bound to dates read for the week (Monday to Sunday) of ${g.hoursAsOf}` : null);

const PHRASES: readonly Phrase[] = [whatItDid, heldBack, fourEyes, hoursAsOf];

/** The sentences that say what an upload was, in order. */
export function uploadWords(g: Generation, kind: Kind): string[] {
  return PHRASES.map((p) => p(g, kind)).filter((s): s is string => s !== null);
}

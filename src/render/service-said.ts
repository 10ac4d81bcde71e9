// A refusing service's own words, as lines for a person: its message, then each `errors[]` entry
// where the file has it (line, key) and what the service said of it. The text is already plain
// (src/send/reasons.ts); the HTML page escapes it again like every value.
import type { ServiceSaid } from '../errors.js';
import { reasonLine } from '../send/reasons.js';

export function saidLines(said: ServiceSaid | null | undefined, shown = 10): string[] {
  if (!said) return [];
  const lines = [...(said.message !== null ? [`the service said: ${JSON.stringify(said.message)}`] : []), ...said.errors.slice(0, shown).map(reasonLine)];
  const more = said.errorCount - Math.min(shown, said.errors.length);
  return more > 0 ? [...lines, `… and ${more} more`] : lines;
}

// The confirmation question: what will happen, where, in one line a person cannot misread.
import { KINDS, type Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import { formatDiffCounts, plural } from '../report/human.js';

/** "Replace all team members at https://… with these 1,234 team members: +12 −3 ~5 =1,214. Upload?" */
export function confirmQuestion(kind: Kind, count: number, where: string, diff: Diff): string {
  const { noun } = KINDS[kind];
  return `Replace all ${noun}s at ${where} with ${count === 1 ? 'this' : 'these'} ${plural(count, noun)}: ${formatDiffCounts(diff)}. Upload?`;
}

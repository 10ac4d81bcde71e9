// One cell, one value (issue 40): When I Work's `Schedules` = `Downtown, Uptown` went out as one
// parentKey "Downtown, Uptown". A cell of a one-valued field is a list only on evidence: split at a
// comma, semicolon, pipe or line break, every part is on its own a value of that field — a store
// card's key, another record's key, an email address — and the whole is not. `Smith, Jones & Co`
// stays one store name unless `Smith` and `Jones & Co` are each a store.
import { fastIsEmail } from '../contract/fast.js';
import { issue, type Issue } from '../issues.js';
import { shown } from './lookalike.js';

export const SEPARATOR = /[,;|\r\n]/;

/** The parts of a cell split at its separators, trimmed, the empty ones left out. */
export function partsOf(text: string, separator: RegExp = SEPARATOR): string[] {
  return text
    .split(new RegExp(separator.source, 'g'))
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** MULTIPLE_VALUES for an email cell holding two or more addresses (separated also by spaces), or undefined. */
export function emailList(field: string, value: unknown, at: { line: number; column: string | null }): Issue | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = partsOf(value, /[,;|\s]/);
  if (parts.length < 2 || !parts.every(fastIsEmail)) return undefined;
  return listIssue(field, value, parts, 'each an email address', at);
}

export function listIssue(field: string, value: string, parts: readonly string[], evidence: string, at: { line: number; column: string | null }): Issue {
  const named = parts.map((p) => `'${shown(p)}'`);
  const listed = named.length === 2 ? `${named[0]} and ${named[1]}` : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return issue(
    'error',
    'MULTIPLE_VALUES',
    `${field} '${shown(value)}' holds ${parts.length} values, ${listed} (${evidence}), but a record has one ${field}: keep the one this record means in the cell (a record for each of the others needs its own row)`,
    { line: at.line, column: at.column, field, value },
  );
}

/**
 * The key and parentKey cells that hold a separator, kept as they are read (few), to be judged at the
 * end, when every store key and record key is known.
 */
export class ListsInCells {
  readonly candidates: { readonly record: number; readonly field: 'parentKey' | 'key'; readonly value: string; readonly parts: string[] }[] = [];

  parent(record: number, value: unknown): void {
    if (typeof value !== 'string' || !SEPARATOR.test(value)) return;
    const parts = partsOf(value);
    if (parts.length >= 2) this.candidates.push({ record, field: 'parentKey', value, parts });
  }

  key(record: number, value: unknown): void {
    if (typeof value !== 'string' || !SEPARATOR.test(value)) return;
    const parts = partsOf(value);
    if (parts.length >= 2) this.candidates.push({ record, field: 'key', value, parts });
  }
}

/**
 * Which of `wanted` some valid record's body has as its parentKey: the file's own evidence of what a
 * store is called, looked for at the end and only when a list needs it, so no record pays for it.
 */
export function parentKeysIn(bodies: { readonly length: number; json(index: number): string }, wanted: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i < bodies.length && found.size < wanted.size; i++) {
    const json = bodies.json(i);
    const at = json.lastIndexOf(PARENT);
    if (at === -1) continue;
    const end = json.lastIndexOf('"');
    const raw = json.slice(at + PARENT.length - 1, end + 1);
    const parent = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    if (wanted.has(parent)) found.add(parent);
  }
  return found;
}

const PARENT = '"parentKey":"';

// A valid record's canonical wire JSON, written field by field in contract order: exactly what
// JSON.stringify gives for it (test/unit/wire-json.property.test.ts holds it to that), but about 7% less
// time for a 1M dry run (docs/performance.md), because a value nearly never needs escaping and its
// quotes can be put around it as it is.
import { FIELDS } from './fields.js';
import type { Kind } from './kinds.js';

/** Each field's `"name":`, and the same after a comma. */
const NAMES = {} as Record<Kind, { readonly first: readonly string[]; readonly next: readonly string[] }>;
for (const kind of Object.keys(FIELDS) as Kind[]) {
  const names = FIELDS[kind].map((field) => `${JSON.stringify(field)}:`);
  NAMES[kind] = { first: names, next: names.map((name) => `,${name}`) };
}

/** JSON of a record the contract accepted (its fields are the kind's, in order; a missing one is left out). */
export function wireJson(kind: Kind, record: Record<string, unknown>): string {
  const fields = FIELDS[kind];
  const { first, next } = NAMES[kind];
  let out = '{';
  for (let k = 0; k < fields.length; k++) {
    const value = record[fields[k]!];
    if (value === undefined) continue;
    out += (out.length === 1 ? first[k]! : next[k]!) + (typeof value === 'string' ? quoted(value) : JSON.stringify(value));
  }
  return `${out}}`;
}

/** A string as JSON.stringify writes it: as it is in quotes, unless it holds a character JSON escapes. */
function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Quote, backslash, control characters, and surrogates (a lone one is escaped) go to JSON.stringify.
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

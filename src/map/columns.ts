// Column names to wire fields: normalise, then the mapping file, the wire name, or an alias.
import type { Kind } from '../contract/kinds.js';
import { FIELDS } from '../contract/schemas.js';

/** `Employee ID`, `employee_id`, `EmployeeId` and `employeeID` all become `employeeid`. */
export function normalise(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.]+/g, '');
}

/** Aliases per wire field, most specific first (the earlier alias wins when two columns match). */
export const ALIASES: Readonly<Record<Kind, Readonly<Record<string, readonly string[]>>>> = {
  'team-members': {
    employeeID: ['employee id', 'employee number', 'emp id', 'staff id', 'person id', 'id'],
    email: ['e-mail', 'mail', 'email address', 'work email'],
    name: ['full name', 'employee name', 'display name'],
    roleCode: ['role', 'role code', 'job code', 'position code'],
    parentKey: ['parent key', 'store', 'store key', 'node key', 'node', 'location', 'location key'],
  },
  'store-cards': {
    nodeKey: ['node key', 'store key', 'store id', 'store', 'location key', 'key'],
    email: ['e-mail', 'mail', 'contact email', 'store email'],
    storeConceptCode: ['concept', 'concept code', 'store concept', 'store concept code'],
  },
};

/** The scalar wire fields of a kind (opening hours are laid out separately, see map/layout.ts). */
export function scalarFields(kind: Kind): readonly string[] {
  return FIELDS[kind].filter((f) => f !== 'opentToGuestsPeriod');
}

export interface FieldMatch {
  readonly field: string;
  /** 0: named by the mapping file; 1: the wire name; 2+: an alias (lower is more specific). */
  readonly rank: number;
}

/** What a column can mean for a kind, before competing columns are weighed against each other. */
export function matchColumn(kind: Kind, column: string, mapping: Readonly<Record<string, string>>): FieldMatch | undefined {
  for (const [field, source] of Object.entries(mapping)) if (source === column) return { field, rank: 0 };
  const n = normalise(column);
  for (const field of scalarFields(kind)) {
    if (normalise(field) === n) return { field, rank: 1 };
  }
  for (const [field, aliases] of Object.entries(ALIASES[kind])) {
    const i = aliases.findIndex((a) => normalise(a) === n);
    if (i !== -1) return { field, rank: 2 + i };
  }
  return undefined;
}

/** Levenshtein distance, for "did you mean" suggestions. */
export function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** The closest known column name, when it is close enough to be a likely typo. */
export function suggest(column: string, known: readonly string[]): string | undefined {
  const n = normalise(column);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(n, normalise(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(n.length / 4)) ? best : undefined;
}

// Column names to wire fields: normalise, then the mapping file, the wire name, or an alias.
import type { Kind } from '../contract/kinds.js';
import { FIELDS } from '../contract/fields.js';

/** `Employee ID`, `employee_id`, `EmployeeId`, `employeeID` and `Prénom`/`prenom` all become one: no case, spacing or accents. */
export function normalise(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');
}

// Shared by both kinds: the store's key and the email address, in the six languages.
const STORE_KEY = [
  'store id',
  'store key',
  'store no',
  'store number',
  'location key',
  'location id',
  'filialnummer',
  'filial nr',
  'filial-id',
  'filialnr',
  'filiaalnummer',
  'winkelnummer',
  'vestigingsnummer',
  'numéro de magasin',
  'code magasin',
  'id magasin',
  'número de tienda',
  'id tienda',
  'código de tienda',
  'codice negozio',
  'id negozio',
  'numero negozio',
  'codice punto vendita',
];
const EMAIL = [
  'e-mail',
  'mail',
  'email address',
  'e-mail address',
  'e-mail-adresse',
  'email-adresse',
  'mailadresse',
  'adresse e-mail',
  'adresse email',
  'adresse mail',
  'courriel',
  'e-mailadres',
  'emailadres',
  'correo',
  'correo electrónico',
  'email aziendale',
  'indirizzo email',
  'indirizzo e-mail',
  'posta elettronica',
];

/**
 * Aliases per wire field, as vendors' exports name them (SAP, Workday, BambooHR, Personio, ADP,
 * SuccessFactors) in English, German, French, Dutch, Spanish and Italian. Only names that can mean
 * one field: "cost center" or "department" could be a store or not, and `Nom` / `Nombre` / `Nome`
 * are a surname or a first name, so they are left to the mapping file. Two columns that both match a
 * field are an error (AMBIGUOUS_COLUMN), never a choice made here. Listed in docs/input.md.
 */
export const ALIASES: Readonly<Record<Kind, Readonly<Record<string, readonly string[]>>>> = {
  'team-members': {
    employeeID: [
      'employee id',
      'employee number',
      'employee no',
      'emp id',
      'emp no',
      'staff id',
      'staff number',
      'person id',
      'id',
      'personnel number',
      'personnel no',
      'personnel id',
      'associate id',
      'user id',
      'worker id',
      'employee code',
      'personalnummer',
      'personal nr',
      'pers nr',
      'mitarbeiternummer',
      'mitarbeiter-id',
      'mitarbeiter nr',
      'matricule',
      'numéro d’employé',
      "numéro d'employé",
      'numéro de salarié',
      'personeelsnummer',
      'medewerkernummer',
      'werknemersnummer',
      'número de empleado',
      'id empleado',
      'matricola',
      'numero dipendente',
      'codice dipendente',
    ],
    email: [...EMAIL, 'work email', 'business email', 'geschäftliche e-mail', 'e-mail professionnel', 'correo corporativo'],
    name: [
      'full name',
      'employee name',
      'display name',
      'worker name',
      'vollständiger name',
      'mitarbeitername',
      'nom complet',
      'nom et prénom',
      'volledige naam',
      'naam',
      'nombre completo',
      'nome completo',
      'nominativo',
    ],
    roleCode: [
      'role',
      'role code',
      'job code',
      'position code',
      'rolle',
      'rollencode',
      'rôle',
      'code rôle',
      'rol',
      'rolcode',
      'código de rol',
      'ruolo',
      'codice ruolo',
    ],
    parentKey: ['parent key', 'store', 'node key', 'node', 'location', ...STORE_KEY],
  },
  'store-cards': {
    // 'store code': Google Business Profile's bulk export names each location's own key so.
    nodeKey: ['node key', 'store', 'key', 'store code', ...STORE_KEY],
    email: [...EMAIL, 'contact email', 'store email', 'e-mail filiale', 'e-mail du magasin', 'winkel e-mail', 'correo de la tienda', 'email negozio'],
    storeConceptCode: [
      'concept',
      'concept code',
      'store concept',
      'store concept code',
      'konzept',
      'konzeptcode',
      'filialkonzept',
      'vertriebslinie',
      'code concept',
      'enseigne',
      'formule',
      'winkelformule',
      'concepto',
      'código de concepto',
      'concetto',
      'codice concetto',
      'insegna',
    ],
  },
};

/** The scalar wire fields of a kind (opening hours are laid out separately, see map/layout.ts). */
export function scalarFields(kind: Kind): readonly string[] {
  return FIELDS[kind].filter((f) => f !== 'opentToGuestsPeriod');
}

export interface FieldMatch {
  readonly field: string;
  /** 1: the wire name; 2: an alias. (A column the mapping names is placed before any matching.) */
  readonly rank: number;
}

/** What a column can mean for a kind by its name alone (the mapping file is weighed in map/column-plan.ts). */
export function matchColumn(kind: Kind, column: string): FieldMatch | undefined {
  const n = normalise(column);
  for (const field of scalarFields(kind)) {
    if (normalise(field) === n) return { field, rank: 1 };
  }
  for (const [field, aliases] of Object.entries(ALIASES[kind])) {
    if (aliases.some((a) => normalise(a) === n)) return { field, rank: 2 };
  }
  return undefined;
}

/** Edit distance counting a swap of neighbours as one edit ("emial" is one from "email"). */
export function distance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length]!;
}

/** A header's words: `Location Code`, `location_code` and `LocationCode` are `location`, `code`. */
function wordsOf(name: string): string[] {
  return name
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .split(/[\s_\-.]+/)
    .map(normalise)
    .filter(Boolean);
}

/**
 * A slip of the keyboard, not a different word: the whole name one edit away (`Emial`, `Emailadress`),
 * or the same words with each at most one edit away (two in a long word: `Donerstag`). Sharing a
 * word is not a reason: `Location Code` is three letters from `position code`, `Employee Role` two
 * from `employee code`, and each names another thing.
 */
function typo(column: string, known: string): boolean {
  const a = normalise(column);
  const b = normalise(known);
  if (a.length >= 4 && distance(a, b) <= 1) return true;
  const x = wordsOf(column);
  const y = wordsOf(known);
  if (x.length !== y.length) return false;
  return x.every((w, i) => distance(w, y[i]!) <= (Math.min(w.length, y[i]!.length) >= 9 ? 2 : w.length >= 4 ? 1 : 0));
}

/** The closest known column name, when the column reads as a typo of it (see typo()). */
export function suggest(column: string, known: readonly string[]): string | undefined {
  const n = normalise(column);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    if (!typo(column, k)) continue;
    const d = distance(n, normalise(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

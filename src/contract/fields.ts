// The wire contract of docs/service-interface.md §2 as data: each kind's fields in wire order and what each
// holds, the hour bounds, the email check. It is the one definition: the zod schemas (./schemas.ts) are
// built from this table, and so are the field lists the map stage needs — so a dry run loads zod only
// when the fast check (./fast.ts) cannot decide a record.
import type { Kind } from './kinds.js';

/** Bounds from §2.2: since 6..23, to 8..30 (values above 24 close after midnight). */
export const HOUR_BOUNDS = { since: { min: 6, max: 23 }, to: { min: 8, max: 30 } } as const;

// A practical email check: something@domain.tld, letters of any script allowed (björn@exämple.se),
// no spaces, no second @, no characters that cannot appear unquoted in an address.
// Made on first use, like each `…Made` below: V8 parses a `\p{…}` class when the expression is
// made, milliseconds of every start-up for values few runs hold (docs/performance.md, start-up).
let emailMade: RegExp | undefined;
const EMAIL = () => (emailMade ??= /^[^\s@"(),:;<>[\]\\]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:[\p{L}]{2,}|xn--[a-z0-9-]+)$/iu);

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL().test(value) && !value.includes('..');
}

/**
 * What a field holds: text that may not be empty (`key`, `text`), an email address, text or null
 * (`text?`), a number or null (`number?`), or the opening hours object.
 */
export type FieldType = 'key' | 'email' | 'text' | 'text?' | 'number?' | 'hours';

/** Each kind's fields, in wire order: serialisation follows it, so equal records are equal strings. */
export const CONTRACT = {
  'store-cards': { nodeKey: 'key', email: 'email', storeConceptCode: 'number?', opentToGuestsPeriod: 'hours' },
  'team-members': { employeeID: 'key', email: 'email', name: 'text', roleCode: 'text?', parentKey: 'text?' },
} as const satisfies Record<Kind, Record<string, FieldType>>;

type FieldOf<K extends Kind> = keyof (typeof CONTRACT)[K] & string;
const fieldsOf = <K extends Kind>(kind: K): readonly FieldOf<K>[] => Object.keys(CONTRACT[kind]) as FieldOf<K>[];
const typeOf = (kind: Kind, field: string): FieldType => (CONTRACT[kind] as Record<string, FieldType>)[field]!;

export const FIELDS = { 'store-cards': fieldsOf('store-cards'), 'team-members': fieldsOf('team-members') } as const;

/** Fields sent as null when their cell is empty. */
export const NULLABLE: ReadonlySet<string> = new Set(
  (['store-cards', 'team-members'] as const).flatMap((kind) => FIELDS[kind].filter((f) => typeOf(kind, f).endsWith('?'))),
);

/** The fields a record must carry a value for: text that may not be null (the hours may be absent). */
const required = (kind: Kind) => FIELDS[kind].filter((f) => ['key', 'email', 'text'].includes(typeOf(kind, f)));
export const REQUIRED = { 'store-cards': required('store-cards'), 'team-members': required('team-members') } as const;

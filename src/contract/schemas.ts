// The wire contract of service-interface.md §2 as zod schemas: the one definition shared by the
// CLI's validate stage and the sandbox. Types are inferred from here, never written twice.
import { z } from 'zod';

export const WEEKDAY_KEYS = ['0', '1', '2', '3', '4', '5', '6'] as const;
export type WeekdayKey = (typeof WEEKDAY_KEYS)[number];

/** Bounds from §2.2: since 6..23, to 8..30 (values above 24 close after midnight). */
export const HOUR_BOUNDS = { since: { min: 6, max: 23 }, to: { min: 8, max: 30 } } as const;

// A practical email check: something@domain.tld, letters of any script allowed (björn@exämple.se),
// no spaces, no second @, no characters that cannot appear unquoted in an address.
const EMAIL = /^[^\s@"(),:;<>[\]\\]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:[\p{L}]{2,}|xn--[a-z0-9-]+)$/iu;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value) && !value.includes('..');
}

const nonEmpty = z.string().regex(/\S/, 'must not be empty');
const email = z.string().refine(isEmail, 'is not an email address');

export const openPeriodDay = z
  .strictObject({
    since: z.number().finite().min(HOUR_BOUNDS.since.min).max(HOUR_BOUNDS.since.max),
    to: z.number().finite().min(HOUR_BOUNDS.to.min).max(HOUR_BOUNDS.to.max),
  })
  .refine((d) => d.since < d.to, { message: 'opening hour must be before closing hour', path: ['to'] });

/** Keys "0".."6", Sunday = "0"; a closed day is absent. */
export const openPeriod = z.strictObject({
  '0': openPeriodDay.optional(),
  '1': openPeriodDay.optional(),
  '2': openPeriodDay.optional(),
  '3': openPeriodDay.optional(),
  '4': openPeriodDay.optional(),
  '5': openPeriodDay.optional(),
  '6': openPeriodDay.optional(),
});

export const storeCard = z.strictObject({
  nodeKey: nonEmpty,
  email,
  storeConceptCode: z.number().finite().nullable(),
  opentToGuestsPeriod: openPeriod,
});

export const teamMember = z.strictObject({
  employeeID: nonEmpty,
  email,
  name: nonEmpty,
  roleCode: nonEmpty.nullable(),
  parentKey: nonEmpty.nullable(),
});

/**
 * What the service accepts for a team member: like the interface's own request sample, a number in
 * roleCode is taken and stored as a string.
 */
export const teamMemberAccepted = teamMember.extend({
  roleCode: z.union([nonEmpty, z.number().finite().transform(String)]).nullable(),
});

export type OpenPeriodDay = z.infer<typeof openPeriodDay>;
export type OpenPeriod = z.infer<typeof openPeriod>;
export type StoreCard = z.infer<typeof storeCard>;
export type TeamMember = z.infer<typeof teamMember>;
export type WireRecord = StoreCard | TeamMember;

export const SCHEMAS = { 'store-cards': storeCard, 'team-members': teamMember } as const;
export const ACCEPTED_SCHEMAS = { 'store-cards': storeCard, 'team-members': teamMemberAccepted } as const;

type Shape<K extends keyof typeof SCHEMAS> = (typeof SCHEMAS)[K]['shape'];
type FieldOf<K extends keyof typeof SCHEMAS> = keyof Shape<K> & string;

const fieldsOf = <K extends keyof typeof SCHEMAS>(kind: K): readonly FieldOf<K>[] => Object.keys(SCHEMAS[kind].shape) as FieldOf<K>[];

/** Field order on the wire, from the schemas; serialisation follows it so equal records are equal strings. */
export const FIELDS = { 'store-cards': fieldsOf('store-cards'), 'team-members': fieldsOf('team-members') } as const;

const schemaOf = (kind: keyof typeof SCHEMAS, field: string): z.ZodType => (SCHEMAS[kind].shape as Record<string, z.ZodType>)[field]!;

/** Fields sent as null when their cell is empty: the ones the schema lets be null. */
export const NULLABLE: ReadonlySet<string> = new Set(
  (['store-cards', 'team-members'] as const).flatMap((kind) => FIELDS[kind].filter((f) => schemaOf(kind, f).safeParse(null).success)),
);

/** The fields a record must carry a value for: text that may not be null (the hours may be absent). */
export const REQUIRED = {
  'store-cards': FIELDS['store-cards'].filter((f) => !NULLABLE.has(f) && schemaOf('store-cards', f).def.type === 'string'),
  'team-members': FIELDS['team-members'].filter((f) => !NULLABLE.has(f) && schemaOf('team-members', f).def.type === 'string'),
} as const;

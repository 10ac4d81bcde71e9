// The wire contract as zod schemas, built from the table in ./fields.ts (the one definition): what
// the validate stage falls back on when the fast check cannot decide, and what the sandbox judges by.
import { z } from 'zod';
import { CONTRACT, FIELDS, HOUR_BOUNDS, isEmail, type FieldType } from './fields.js';
import type { Kind } from './kinds.js';

export { isEmail } from './fields.js';

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

const ZOD = {
  key: nonEmpty,
  email,
  text: nonEmpty,
  'text?': nonEmpty.nullable(),
  'number?': z.number().finite().nullable(),
  hours: openPeriod,
} satisfies Record<FieldType, z.ZodType>;

/** A kind's zod shape, field by field from the contract table, in wire order. */
function shapeOf(kind: Kind): Record<string, z.ZodType> {
  const table = CONTRACT[kind] as Record<string, FieldType>;
  return Object.fromEntries(FIELDS[kind].map((field) => [field, ZOD[table[field]!]]));
}

export const storeCard = z.strictObject(shapeOf('store-cards'));
export const teamMember = z.strictObject(shapeOf('team-members'));

/**
 * What the service accepts for a team member: like the interface's own request sample, a number in
 * roleCode is taken and stored as a string.
 */
export const teamMemberAccepted = teamMember.extend({
  roleCode: z.union([nonEmpty, z.number().finite().transform(String)]).nullable(),
});

export type OpenPeriod = z.infer<typeof openPeriod>;

export const SCHEMAS = { 'store-cards': storeCard, 'team-members': teamMember } as const;
export const ACCEPTED_SCHEMAS = { 'store-cards': storeCard, 'team-members': teamMemberAccepted } as const;

// The config file's shape, checked with zod: named targets, each a service with everything a run
// against it needs. Unknown keys are errors (a typo must not silently drop a guard limit).
import { z } from 'zod';

const limit = z.union([z.string().regex(/^\d+%?$/, 'a count (37) or a percentage ("25%")'), z.number().int().min(0)]);
const mapping = z.union([z.string().min(1), z.record(z.string(), z.unknown())]);

export const targetSchema = z
  .strictObject({
    /** The service's address. */
    baseUrl: z.string().min(1),
    /** The state store: a directory or postgres://… */
    state: z.string().min(1).optional(),
    /** The environment variable that holds the token (default UPLOAD_TOKEN). */
    tokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, e.g. PROD_UPLOAD_TOKEN')
      .optional(),
    /** A file that holds the token. */
    tokenFile: z.string().min(1).optional(),
    /** --map per kind: a mapping file (relative to the config file) or the mapping itself. */
    map: z.strictObject({ 'store-cards': mapping.optional(), 'team-members': mapping.optional() }).optional(),
    /** Guard limits, as the flags take them. */
    guards: z.strictObject({ maxRemovals: limit.optional(), maxChanges: limit.optional(), maxEmptied: limit.optional() }).optional(),
    /** Where to post a summary after a run (secrets: shown redacted), and when. */
    notify: z.array(z.string().min(1)).optional(),
    notifyOn: z.enum(['failure', 'change', 'always']).optional(),
    notifyFormat: z.enum(['json', 'slack', 'teams']).optional(),
    /** Never chosen implicitly: only by --target NAME on the command line, and confirmed by typing its name. */
    protected: z.boolean().optional(),
    /** Four eyes: uploads go plan → approve (by this many other people) → apply; direct sends are refused. */
    approvals: z.number().int().min(1).max(10).optional(),
    /** How long an approval counts, in hours (default 24). */
    approvalHours: z
      .number()
      .positive()
      .max(24 * 365)
      .optional(),
    /**
     * With "approvals": an unattended run (--yes) whose plan is within every bound is sent without a
     * second person ("approved by policy"); any other is kept in the state store awaiting approval.
     */
    autoApply: z
      .strictObject({
        maxAdded: z.number().int().min(0),
        maxChanged: z.union([z.number().int().min(0), z.string().regex(/^\d+(\.\d+)?%$/, 'a count (20) or a percentage ("2%")')]),
        maxRemoved: z.number().int().min(0),
      })
      .optional(),
  })
  // A bound for sending without a second person means nothing where no second person is asked for: a
  // target that says it without "approvals" is a config to correct, not a policy to ignore.
  .refine((t) => t.autoApply === undefined || t.approvals !== undefined, {
    message: '"autoApply" goes with "approvals": it bounds what an unattended run may send without them',
    path: ['autoApply'],
  });

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  /** The target used when neither --target nor UPLOAD_TARGET names one (never a protected one). */
  defaultTarget: z.string().min(1).optional(),
  targets: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-"'), targetSchema),
});

export type Target = z.infer<typeof targetSchema>;
export type Config = z.infer<typeof configSchema>;

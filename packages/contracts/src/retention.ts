import { z } from 'zod';
import { anyIdParams, endpoint, ok } from './endpoints.ts';

/**
 * The account's evidence retention policy (issue #37 item 1, ADR 45): how many years its evidence is kept before the
 * daily purge removes it and leaves tombstones (the certificate's hash, signature and chain link, and the counts the
 * dashboard and the activity log's totals read). 1–10 years, 5 by default; below the TCPA's four-year limitation period
 * an owner must confirm the warning.
 */
export const RETENTION_YEARS = { min: 1, max: 10, default: 5, tcpa: 4 } as const;

export const retentionTexts = {
  /** The 400 of a policy below four years without the confirmation; the settings card's dialog says the same. */
  belowFour: (years: number) =>
    `A policy of ${years} ${years === 1 ? 'year' : 'years'} removes evidence before the TCPA's four-year limitation ` +
    'period ends (28 U.S.C. §1658(a)): a consumer may still sue over a text after its proof is gone. ' +
    'Confirm it with confirmBelowFour: true.',
  /** The certificate of purged evidence, wherever it is shown (the date as the reader's locale writes it). */
  purged: (date: string) => `Authentic; its content was removed under the retention policy on ${date}.`,
} as const;

/** The kinds of rows the purge removes, as `removed` counts them. */
export const retentionPurgeKinds = [
  'verifications',
  'attempts',
  'pageViews',
  'lookups',
  'contactabilityChecks',
  'webhookEvents',
  'webhookDeliveries',
  'certificates',
] as const;
export type RetentionPurgeKind = (typeof retentionPurgeKinds)[number];

/** One run of the purge that found something due in the account. */
export const retentionPurgeSchema = z.object({
  ranAt: z.string(),
  /** Evidence created before this instant was due. */
  cutoff: z.string(),
  /** The policy the run applied. */
  years: z.number().int(),
  /**
   * Rows removed per kind (`certificates`: certificates made tombstones; `pageViews`: page views whose IP address and
   * user agent were removed, the rows kept for the funnel's counts).
   */
  removed: z.record(z.string(), z.number().int()),
  /** Verifications past the cut-off kept because a legal hold reaches them. */
  held: z.number().int(),
});
export type RetentionPurge = z.infer<typeof retentionPurgeSchema>;

/** GET|PUT /api/accounts/{id}/retention. */
export const retentionPolicySchema = z.object({
  years: z.number().int(),
  /** True while the policy is below four years: an owner confirmed the TCPA warning (`belowFourConfirmedAt`). */
  confirmBelowFour: z.boolean(),
  belowFourConfirmedAt: z.string().nullable(),
  /** Evidence created before this instant is removed by the next purge. */
  cutoff: z.string(),
  /** When the daily purge runs next (UTC). */
  nextPurgeAt: z.string(),
  /** The latest run that removed or kept anything; null before the first. */
  lastPurge: retentionPurgeSchema.nullable(),
});
export type RetentionPolicy = z.infer<typeof retentionPolicySchema>;

export const updateRetentionRequestSchema = z
  .strictObject({
    years: z.number().int().min(RETENTION_YEARS.min).max(RETENTION_YEARS.max),
    confirmBelowFour: z.boolean().optional(),
  })
  .superRefine((body, context) => {
    if (body.years < RETENTION_YEARS.tcpa && body.confirmBelowFour !== true)
      context.addIssue({
        code: 'custom',
        path: ['confirmBelowFour'],
        message: retentionTexts.belowFour(body.years),
      });
  });
export type UpdateRetentionRequest = z.input<typeof updateRetentionRequestSchema>;

/** Every member of the account reads the policy; only owners change it (`manageCompany`). */
export const retentionEndpoints = {
  get: endpoint('GET /api/accounts/:id/retention', {
    params: anyIdParams,
    response: ok(retentionPolicySchema),
    access: { account: { from: 'path.account' } },
  }),
  update: endpoint('PUT /api/accounts/:id/retention', {
    params: anyIdParams,
    body: updateRetentionRequestSchema,
    response: ok(retentionPolicySchema),
    access: { account: { from: 'path.account', can: 'manageCompany' } },
    stepUp: true,
  }),
};

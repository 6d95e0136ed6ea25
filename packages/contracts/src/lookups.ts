import { z } from 'zod';
import { anyIdParams, endpoint, ok } from './endpoints.ts';

/**
 * Carrier lookups (issue #36, ADR 42): Twilio Lookup v2's line type, last SIM swap and reassigned-number answers,
 * each question and answer kept as evidence. The account's settings say which are asked automatically and cap how
 * many may be asked a month, per kind; this file holds the settings' contract and the kinds' names.
 */

/** The three questions, as the settings, the counts and the ceiling's refusal name them. */
export const lookupKinds = ['lineType', 'simSwap', 'reassigned'] as const;
export type LookupKind = (typeof lookupKinds)[number];

/** Each kind in words (the ceiling's refusal, the audit log's changes). */
export const lookupKindLabels: Record<LookupKind, string> = {
  lineType: 'line type',
  simSwap: 'SIM swap',
  reassigned: 'reassigned-number',
};

/**
 * A number's line type as the carrier answers it (Twilio's `line_type_intelligence.type`, in our own words); a type
 * Twilio adds later reads as `unknown` until it is named here (the answer itself is kept as received).
 */
export const carrierLineTypes = [
  'mobile',
  'landline',
  'fixed_voip',
  'non_fixed_voip',
  'toll_free',
  'premium',
  'shared_cost',
  'personal',
  'uan',
  'voicemail',
  'pager',
  'unknown',
] as const;
export type CarrierLineType = (typeof carrierLineTypes)[number];

/**
 * What a reassigned-number check answered: `yes` (reassigned since the consent's date), `no` (the safe harbour's
 * answer), `no_data` (the database has nothing for that date, or the provider answered nothing: never read as `no`).
 */
export const reassignedAnswers = ['yes', 'no', 'no_data'] as const;
export type ReassignedAnswer = (typeof reassignedAnswers)[number];

/**
 * The settings' ranges and defaults (the database checks the same ranges). Every automatic check is off until an
 * owner turns it on. A SIM swap within a week of a code weakens the proof of possession (Twilio's own magic numbers
 * and carriers' "swapped in period" answers use 24–48 hours; a week catches the slower account takeovers); a
 * reassigned-number answer is asked again after 30 days by default: providers report permanent disconnects to the
 * Reassigned Numbers Database once a month (on the 15th), so a younger answer can hardly be newer. The monthly ceiling
 * is per kind; ADR 42 says why its default is 1,000.
 */
export const LOOKUP_SIM_SWAP_WINDOW_DAYS = { min: 1, max: 90, default: 7 } as const;
export const LOOKUP_REASSIGNED_MAX_AGE_DAYS = { min: 1, max: 365, default: 30 } as const;
export const LOOKUP_MONTHLY_CEILING = { min: 0, max: 1_000_000, default: 1_000 } as const;

const days = (range: { min: number; max: number }) => z.number().int().min(range.min).max(range.max);
const ceiling = z.number().int().min(LOOKUP_MONTHLY_CEILING.min).max(LOOKUP_MONTHLY_CEILING.max);

/** A count or a ceiling for each kind. */
const perKind = <T extends z.ZodType>(value: T) =>
  z.object({ lineType: value, simSwap: value, reassigned: value });

/** GET /api/accounts/{id}/lookups: the settings and this month's lookups (UTC month), per kind. */
export const lookupSettingsSchema = z.object({
  /** Record the carrier's line type and name with each verification (asked when the code is requested). */
  lineType: z.boolean(),
  /** Record the number's last SIM swap with each verification. */
  simSwap: z.boolean(),
  /** A swap this many days or fewer before the code is flagged. */
  simSwapWindowDays: z.number().int(),
  /** A flagged swap refuses the text (the consumer is offered e-mail instead). */
  refuseOnSimSwap: z.boolean(),
  /** Check verified numbers for reassignment (in the contactability verdict and on a schedule). */
  reassignedChecks: z.boolean(),
  /** A reassignment check older than this is made again. */
  reassignedMaxAgeDays: z.number().int(),
  /** At most this many lookups of each kind a month (UTC); past it nothing is asked (429 `lookup_ceiling_reached`). */
  monthlyCeiling: perKind(z.number().int()),
  /** The lookups asked of the provider this month (UTC), per kind: what the ceiling counts. */
  thisMonth: perKind(z.number().int()),
});
export type LookupSettings = z.infer<typeof lookupSettingsSchema>;

/** PATCH /api/accounts/{id}/lookups (owners): any of the settings, the ceiling's kinds each on their own. */
export const updateLookupSettingsRequestSchema = z
  .strictObject({
    lineType: z.boolean().optional(),
    simSwap: z.boolean().optional(),
    simSwapWindowDays: days(LOOKUP_SIM_SWAP_WINDOW_DAYS).optional(),
    refuseOnSimSwap: z.boolean().optional(),
    reassignedChecks: z.boolean().optional(),
    reassignedMaxAgeDays: days(LOOKUP_REASSIGNED_MAX_AGE_DAYS).optional(),
    monthlyCeiling: z
      .strictObject({
        lineType: ceiling.optional(),
        simSwap: ceiling.optional(),
        reassigned: ceiling.optional(),
      })
      .refine((value) => Object.values(value).some((kind) => kind !== undefined), {
        message: 'Send the ceiling of at least one kind: lineType, simSwap or reassigned.',
      })
      .optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Send at least one setting.',
  });
export type UpdateLookupSettingsRequest = z.input<typeof updateLookupSettingsRequestSchema>;

export const lookupTexts = {
  /** The 429's detail once a kind's monthly ceiling is reached: nothing was asked. */
  ceilingReached: (kind: LookupKind, ceiling: number) =>
    `This month's ${lookupKindLabels[kind]} lookups reached the account's ceiling of ${ceiling}: nothing was asked. ` +
    'An owner can raise it in Settings.',
} as const;

/** The session API's lookup settings: the account in the path, owners only (`manageCompany`). */
export const lookupEndpoints = {
  get: endpoint('GET /api/accounts/:id/lookups', {
    params: anyIdParams,
    response: ok(lookupSettingsSchema),
    access: { account: { from: 'path.account', can: 'manageCompany' } },
  }),
  /** Any of the settings; answers them all, with this month's counts. */
  update: endpoint('PATCH /api/accounts/:id/lookups', {
    params: anyIdParams,
    body: updateLookupSettingsRequestSchema,
    response: ok(lookupSettingsSchema),
    access: { account: { from: 'path.account', can: 'manageCompany' } },
  }),
};

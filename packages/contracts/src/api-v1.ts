import { z } from 'zod';
import { auditEventSchema } from './audit.ts';
import { consentEvidenceSchema } from './consent.ts';
import { isoDateTimeSchema } from './date-filters.ts';
import { apiDeliveryStatusSchema } from './delivery-status.ts';
import { MAX_INT_ID } from './lists.ts';
import { carrierLineTypes } from './lookups.ts';
import { formSettingsSchema } from './verify-forms.ts';
import { WEBHOOK_TEST_EVENT_TYPE, webhookEventSchema, webhookEventTypes } from './webhooks.ts';

/**
 * API v1 (issue #15): what a customer's own systems call with an API key (`Authorization: Bearer vf_…`). Its
 * conventions differ from the app's session API on purpose — they are those of the public APIs integrators know
 * (Stripe, RFC 9457): errors are `application/problem+json` with a stable `code`, lists are cursor pages.
 */

export const API_V1_PREFIX = '/api/v1/';

// ---- Errors (RFC 9457) -------------------------------------------------------------------------------------------

/**
 * Every `code` an API v1 error may carry, with its status and what it means. The docs list this table (the OpenAPI
 * document's description); a code, once published, keeps its meaning.
 */
export const apiProblems = {
  invalid_request: {
    status: 400,
    title: 'Invalid request',
    description: 'A field is missing, malformed or out of range; `errors` says which.',
  },
  invalid_phone: {
    status: 400,
    title: 'Invalid phone number',
    description:
      'The number is not a valid mobile number (landlines, toll-free, premium and VoIP numbers are refused).',
  },
  phone_country_not_allowed: {
    status: 400,
    title: 'Country not allowed',
    description:
      'The number belongs to a country outside the account’s allowed countries (Settings → Company Info).',
  },
  sim_swap_recent: {
    status: 400,
    title: 'Recent SIM swap',
    description:
      'The carrier says the number’s SIM card was changed within the account’s SIM swap window, and the account refuses texts then: no code was sent. Verify by e-mail instead.',
  },
  unauthenticated: {
    status: 401,
    title: 'Unauthenticated',
    description: 'The `Authorization: Bearer` key is missing, malformed, unknown or revoked.',
  },
  insufficient_scope: {
    status: 403,
    title: 'Insufficient scope',
    description: 'The key lacks the scope this endpoint needs.',
  },
  test_mode_number_required: {
    status: 403,
    title: 'Test number required',
    description: 'A `vf_test_` key reaches only the account’s test numbers.',
  },
  live_mode_test_number: {
    status: 403,
    title: 'Test number in live mode',
    description:
      'A `vf_live_` key sends real codes: start a test number’s verification with a `vf_test_` key.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    description: 'No such object in this key’s account (another account’s ids answer this too).',
  },
  form_not_live: {
    status: 409,
    title: 'Form not live',
    description: 'The form is inactive: make it live before starting verifications with it.',
  },
  verification_not_pending: {
    status: 409,
    title: 'Verification not pending',
    description: 'The verification is approved, canceled, expired or locked: it takes no new code.',
  },
  revocation_not_open: {
    status: 409,
    title: 'Revocation not open',
    description:
      'Only an open (or overdue) revocation can be acknowledged, once: this one is acknowledged or dismissed.',
  },
  privacy_request_not_open: {
    status: 409,
    title: 'Privacy request not open',
    description:
      'Only an open data-subject request can be carried out, once: this one is running or answered.',
  },
  privacy_request_no_bundle: {
    status: 409,
    title: 'No bundle',
    description: 'Only an answered access request has a bundle to download.',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency key in use',
    description: 'A request with this `Idempotency-Key` is still running; retry after it finished.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    description: 'The body is larger than the endpoint accepts.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'Send JSON with `Content-Type: application/json`.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    description: 'This `Idempotency-Key` was used with a different request body.',
  },
  reassignment_check_not_possible: {
    status: 422,
    title: 'Reassigned-number check not possible',
    description:
      'The reassigned-number database answers for a US number whose consent date is known: the verification must be an approved text (SMS) verification of a US number, not redacted.',
  },
  refresh_not_possible: {
    status: 422,
    title: 'Refresh not possible',
    description:
      'Only an approved verification that was not redacted has a consent to refresh with a fresh verification link.',
  },
  lookup_ceiling_reached: {
    status: 429,
    title: 'Lookup ceiling reached',
    description:
      'The account’s monthly ceiling of carrier lookups of this kind is reached: nothing was asked. An owner can raise it; it starts again on the 1st (UTC).',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    description:
      'Too many requests; wait `Retry-After` seconds. Limits on codes sent to a number, address or account answer this too.',
  },
  server_error: {
    status: 500,
    title: 'Server error',
    description: 'Something failed on our side; the `X-Request-Id` header identifies it for support.',
  },
  lookup_failed: {
    status: 503,
    title: 'Lookup failed',
    description:
      'The carrier lookup provider did not answer (a timeout, its error, or the same question asked at the same moment failed): nothing was recorded. Retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ApiProblemCode = keyof typeof apiProblems;
export const apiProblemCodes = Object.keys(apiProblems) as ApiProblemCode[];

export const apiProblemSchema = z
  .object({
    /** A link to this code's entry in the docs. */
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(apiProblemCodes as [ApiProblemCode, ...ApiProblemCode[]]),
    /** For `invalid_request` and the like: each problem with its place in the body or query (a JSON Pointer). */
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });
export type ApiProblem = z.infer<typeof apiProblemSchema>;

// ---- Cursor pages ------------------------------------------------------------------------------------------------

export const API_PAGE_LIMIT_MAX = 100;
export const API_PAGE_LIMIT_DEFAULT = 20;

/** `limit` and `startingAfter` (the last id of the previous page, `nextCursor`). */
export const apiPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(API_PAGE_LIMIT_MAX).default(API_PAGE_LIMIT_DEFAULT),
  startingAfter: z.string().max(64).optional(),
});

export function apiPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    hasMore: z.boolean(),
    /** Pass as `startingAfter` for the next page; null on the last one. */
    nextCursor: z.string().nullable(),
  });
}

// ---- Forms -------------------------------------------------------------------------------------------------------

export const apiFormSchema = z
  .object({
    id: z.number().int().meta({ description: 'Pass as `formId` when starting a verification.' }),
    ...formSettingsSchema.shape,
    hostedUrl: z
      .string()
      .meta({ description: 'The form’s hosted page, where a consumer verifies in the browser.' }),
    created: z.string().meta({ description: 'ISO 8601.' }),
  })
  .meta({ id: 'Form' });
export type ApiForm = z.infer<typeof apiFormSchema>;

export const apiFormListQuerySchema = apiPageQuerySchema;
export const apiFormListSchema = apiPageSchema(apiFormSchema);
export type ApiFormList = z.infer<typeof apiFormListSchema>;

export const apiFormIdSchema = z.number().int().positive().max(MAX_INT_ID);

// ---- Verifications -----------------------------------------------------------------------------------------------

/**
 * A verification as API v1 shows it: one code sent to one number (or address) through one form, and what became of
 * it. Unlike Twilio Verify, nothing is deleted once approved or expired, and a wrong code is never a silent `pending`.
 */
export const apiVerificationStatuses = [
  /** A code was sent and may still be entered. */
  'pending',
  'approved',
  /** Ten minutes passed without the right code. */
  'expired',
  /** Locked after the 5th wrong code. */
  'max_attempts',
  /** A newer code was sent to the same number through the same form: only the newest one works. */
  'replaced',
  /** Canceled through the API: its code no longer works. */
  'canceled',
] as const;
export const apiVerificationStatusSchema = z.enum(apiVerificationStatuses);
export type ApiVerificationStatus = z.infer<typeof apiVerificationStatusSchema>;

// The delivery statuses live in their own module (delivery-status.ts); API v1 re-exports them under the same names.
export { type ApiDeliveryStatus, apiDeliveryStatuses, apiDeliveryStatusSchema } from './delivery-status.ts';

export const apiDeliverySchema = z
  .object({
    status: apiDeliveryStatusSchema,
    errorCode: z.string().nullable().meta({
      description:
        'The provider’s error code of a failed or undelivered message: Twilio’s (30003, 30007, 21610…) or the SMTP reply code (550…).',
    }),
    reason: z.object({ reason: z.string(), nextStep: z.string() }).nullable().meta({
      description: 'The error code in words, with what to do next; null without a code or words for it.',
    }),
  })
  .meta({ id: 'Delivery' });
export type ApiDelivery = z.infer<typeof apiDeliverySchema>;

/** A reassigned-number answer (issue #36): `no_data` is the provider's "no data available" or an empty answer, never `no`. */
export const reassignmentAnswers = ['yes', 'no', 'no_data'] as const;
export type ReassignmentAnswer = (typeof reassignmentAnswers)[number];

/** The latest check as the verification carries it. */
export const apiReassignmentSchema = z
  .object({
    checkedAt: z.string().meta({ description: 'When the provider answered.' }),
    lastVerifiedDate: z.string().meta({
      description: 'The consent date sent as `LastVerifiedDate`: the UTC date of approval (YYYY-MM-DD).',
    }),
    answer: z.enum(reassignmentAnswers).meta({
      description:
        '`yes`: disconnected since that date (reassigned); `no`: not; `no_data`: the database had no data for it (or answered nothing), which is not `no`.',
    }),
    errorCode: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The provider’s error code in its answer, if any.' }),
  })
  .meta({ id: 'Reassignment' });
export type ApiReassignment = z.infer<typeof apiReassignmentSchema>;

/** One reassigned-number check of a verification: the question, the answer, the provider (issue #36 item 2). */
export const apiReassignmentCheckSchema = apiReassignmentSchema
  .extend({
    id: z.string(),
    verificationId: z.string(),
    provider: z.enum(['twilio']),
    livemode: z.boolean(),
  })
  .meta({ id: 'ReassignmentCheck' });
export type ApiReassignmentCheck = z.infer<typeof apiReassignmentCheckSchema>;

export const apiReassignmentCheckListSchema = z
  .object({ data: z.array(apiReassignmentCheckSchema).meta({ description: 'Newest first.' }) })
  .meta({ id: 'ReassignmentCheckList' });
export type ApiReassignmentCheckList = z.infer<typeof apiReassignmentCheckListSchema>;

/**
 * What the carrier said of the number when the code was requested (issue #36 item 1): its line type and name, asked
 * when the account turned line type lookups on.
 */
export const apiCarrierSchema = z
  .object({
    lineType: z.enum(carrierLineTypes).meta({
      description:
        'The line type as the carrier answered it (Twilio Lookup’s line type intelligence): `mobile`, `landline`, `fixed_voip`, `non_fixed_voip`, `toll_free`… `unknown` for a type not named yet.',
    }),
    name: z.string().nullable().meta({ description: 'The carrier’s name; null when it gave none.' }),
  })
  .meta({ id: 'Carrier' });
export type ApiCarrier = z.infer<typeof apiCarrierSchema>;

/**
 * The number's last SIM swap as the carrier told it when the code was requested (issue #36 item 1), and whether it
 * fell within the account's window then (a recent swap weakens the code's proof that the consumer holds the number).
 */
export const apiSimSwapSchema = z
  .object({
    lastSwapAt: z.string().nullable().meta({
      description:
        'When the SIM was last swapped. Null when the carrier told no date: some tell only whether a swap fell within their own period (e.g. the last 48 hours), and `withinWindow` is judged from that.',
    }),
    withinWindow: z.boolean().meta({
      description:
        'The swap fell within the account’s SIM swap window (`windowDays` days before the code was requested), judged then and kept as judged.',
    }),
    windowDays: z
      .number()
      .int()
      .meta({ description: 'The account’s SIM swap window when it was judged, in days.' }),
  })
  .meta({ id: 'SimSwap' });
export type ApiSimSwap = z.infer<typeof apiSimSwapSchema>;

export const apiVerificationSchema = z
  .object({
    id: z.string().nullable().meta({ description: 'Null for a hosted link (started without `to`).' }),
    status: apiVerificationStatusSchema,
    formId: z.number().int(),
    channel: z.enum(['sms', 'email']).nullable(),
    to: z.string().nullable().meta({
      description:
        'The phone number: E.164 with the `verifications:read` scope, masked (`+1 ••• ••• 0006`) without.',
    }),
    email: z
      .string()
      .nullable()
      .meta({ description: 'For the e-mail channel; masked without `verifications:read`.' }),
    externalRefId: z.string().nullable(),
    source: z
      .enum(['api', 'hosted'])
      .meta({ description: 'Started through the API, or on the hosted page.' }),
    test: z.boolean().meta({ description: 'Sent to one of the account’s test numbers: nothing was sent.' }),
    livemode: z.boolean().meta({
      description:
        'False for a test object (made for one of the account’s test numbers, always with a `vf_test_` key or on the hosted page): a `vf_test_` key reads and acts only on these, a `vf_live_` key only on live ones.',
    }),
    attemptsLeft: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Wrong codes still allowed before the lock.' }),
    expiresAt: z.string().nullable(),
    resendAfter: z
      .string()
      .nullable()
      .meta({ description: 'From when a new code may be sent to this number.' }),
    hostedUrl: z.string().nullable().meta({
      description: 'Started without `to`: the hosted page to send the consumer to, bound to `externalRefId`.',
    }),
    approvedAt: z.string().nullable(),
    sentAt: z.string().nullable().meta({
      description:
        'When the SMS provider or mail server took the code (null for test numbers and while queued).',
    }),
    evidence: z
      .object({
        ip: z
          .string()
          .nullable()
          .meta({ description: 'The address the code was asked from (your server for the API).' }),
        userAgent: z.string().nullable(),
      })
      .nullable()
      .meta({ description: 'As the activity log keeps it; only with the `verifications:read` scope.' }),
    consent: consentEvidenceSchema.nullable().meta({
      description:
        'The consent text version the hosted page showed when the code was asked for: its id, number, language and the SHA-256 of its exact text. Null when the form had none, and for codes started through the API.',
    }),
    delivery: apiDeliverySchema.nullable().meta({
      description:
        'What became of the code’s message. A test number’s is simulated: delivered, or undelivered with the error code chosen for the number (Settings → Company Info → Test numbers). Null for a hosted link, which sends nothing.',
    }),
    redactedAt: z.string().nullable().meta({
      description:
        'When the account redacted the consumer’s personal data in the verification this code approved (an erasure request): `to` and `email` are then masked whatever the scope, `evidence` is empty, and it has no certificate. Null otherwise; the codes asked for before it on the same visit to the hosted page are masked too.',
    }),
    revokedAt: z.string().nullable().meta({
      description:
        'When the consumer revoked consent for this number or address, on any form: the first open or acknowledged revocation of the same mode received at or after approval (a test key’s revocations reach test verifications only). The verification stays evidence of its moment; a later approval is new consent. Null unless approved and revoked since. Webhook events carry the verification as it was when they happened: the revocation has a `consent.revoked` event of its own.',
    }),
    revocationId: z.string().nullable().meta({
      description: 'The revocation `revokedAt` is from (`GET /api/v1/revocations/{id}`); null when none.',
    }),
    reassignment: apiReassignmentSchema.nullable().meta({
      description:
        'The latest reassigned-number check of the number since this consent (`POST /api/v1/verifications/{id}/reassignment-checks`); null when none was made. `yes` means the number changed hands since: the consent no longer covers it. Webhook events carry null.',
    }),
    carrier: apiCarrierSchema.nullable().meta({
      description:
        'The carrier’s line type and name, asked when the code was requested (when the account turned line type lookups on, for a text to a live number). Null when not asked or the carrier told nothing. Webhook events carry it as the verification’s.',
    }),
    simSwap: apiSimSwapSchema.nullable().meta({
      description:
        'The number’s last SIM swap, asked when the code was requested (when the account turned SIM swap lookups on, for a text to a live number). Null when not asked or the carrier told nothing to judge. Webhook events carry it as the verification’s.',
    }),
    refreshes: z.string().nullable().meta({
      description:
        'The verification whose consent this one refreshes: it was made through a fresh verification link of that one (`POST /api/v1/verifications/{id}/refresh`), with its `externalRefId`. Null otherwise.',
    }),
    heldBy: z.array(z.string()).meta({
      description:
        'The ids (`lh_…`) of the legal holds that reach it now: on the account, its form, its number or address, or on it. While any does, it is kept whatever the retention policy says and cannot be redacted. Empty when none, and in webhook events.',
    }),
    created: z.string(),
  })
  .meta({ id: 'Verification' });
export type ApiVerification = z.infer<typeof apiVerificationSchema>;

export const apiStartVerificationRequestSchema = z
  .object({
    formId: z.number().int().positive().max(MAX_INT_ID),
    to: z.string().trim().min(1).max(40).optional().meta({
      description: 'A mobile number, E.164 or national (read as US). Leave out to get a hosted link.',
    }),
    // Optional rather than defaulted: a default would make the document's request type require it.
    channel: z
      .enum(['sms', 'email'])
      .optional()
      .meta({ description: 'How the code goes out; `sms` unless named.' }),
    email: z
      .string()
      .trim()
      .max(254)
      .optional()
      .meta({ description: 'Where the code goes for `channel: "email"`.' }),
    externalRefId: z
      .string()
      .trim()
      .max(200)
      .optional()
      .meta({ description: 'Your own reference (a lead id).' }),
  })
  .strict()
  .meta({ id: 'StartVerification' });
export type ApiStartVerificationRequest = z.input<typeof apiStartVerificationRequestSchema>;

export const apiCheckVerificationRequestSchema = z
  .object({ code: z.string().trim().min(1).max(20) })
  .strict()
  .meta({ id: 'CheckVerification' });

export const apiCheckResults = [
  'approved',
  /** Wrong code; `attemptsLeft` says how many remain. */
  'incorrect',
  'expired',
  'max_attempts',
  'already_approved',
  'replaced',
  'canceled',
] as const;

export const apiCheckResultSchema = z
  .object({
    status: z.enum(apiCheckResults),
    attemptsLeft: z.number().int(),
    verification: apiVerificationSchema,
  })
  .meta({ id: 'CheckResult' });
export type ApiCheckResult = z.infer<typeof apiCheckResultSchema>;

export const apiVerificationIdParamsSchema = z.object({ id: z.string().max(64) });

/** POST /api/v1/verifications/{id}/refresh (and the app's): a fresh verification link bound to the verification. */
export const apiRefreshLinkSchema = z
  .object({
    hostedUrl: z.string().meta({
      description:
        'The form’s hosted page with the link’s token: the verification made there `refreshes` this one and keeps its `externalRefId` (whatever the URL’s `ref` says). Shown once: only a hash of the token is kept.',
    }),
    refreshes: z.string().meta({ description: 'The verification it refreshes.' }),
    expiresAt: z.string().meta({
      description:
        'After this the link still opens the form, but the verification made there refreshes nothing.',
    }),
  })
  .meta({ id: 'RefreshLink' });
export type ApiRefreshLink = z.infer<typeof apiRefreshLinkSchema>;

/** GET /api/v1/verifications: newest first, in cursor pages, with filters. */
export const apiVerificationListQuerySchema = apiPageQuerySchema.extend({
  status: apiVerificationStatusSchema.optional(),
  formId: z.coerce.number().int().positive().max(MAX_INT_ID).optional(),
  externalRefId: z.string().max(200).optional(),
  'created[gte]': isoDateTimeSchema
    .optional()
    .meta({ description: 'Created at or after this time (ISO 8601).' }),
  'created[lt]': isoDateTimeSchema.optional().meta({ description: 'Created before this time.' }),
});
export const apiVerificationListSchema = apiPageSchema(apiVerificationSchema);
export type ApiVerificationList = z.infer<typeof apiVerificationListSchema>;

// ---- Audit events ------------------------------------------------------------------------------------------------

export const apiAuditEventListQuerySchema = apiPageQuerySchema;
/** An audit event as API v1 shows it: member and key actions are live data (a `vf_test_` key lists none). */
export const apiAuditEventSchema = auditEventSchema
  .extend({
    livemode: z.boolean().meta({
      description: 'Always true: the audit log records live actions; a `vf_test_` key’s list is empty.',
    }),
  })
  .meta({ id: 'AuditEvent' });
export type ApiAuditEvent = z.infer<typeof apiAuditEventSchema>;
export const apiAuditEventListSchema = apiPageSchema(apiAuditEventSchema);

// ---- Events ------------------------------------------------------------------------------------------------------

/** What `type` may filter on: every event type, and the test events "Send test event" makes. */
export const apiEventTypes = [...webhookEventTypes, WEBHOOK_TEST_EVENT_TYPE] as const;

/** GET /api/v1/events: the last WEBHOOK_EVENT_RETENTION_DAYS days, newest first, in cursor pages, with filters. */
export const apiEventListQuerySchema = apiPageQuerySchema.extend({
  type: z.enum(apiEventTypes).optional().meta({ description: 'Only events of this type.' }),
  deliveryFailed: z.enum(['true', 'false']).optional().meta({
    description:
      '`true`: only events with a delivery that failed (still being retried, or given up); `false`: only events none of whose deliveries failed.',
  }),
  'created[gte]': isoDateTimeSchema
    .optional()
    .meta({ description: 'Created at or after this time (ISO 8601).' }),
  'created[lt]': isoDateTimeSchema.optional().meta({ description: 'Created before this time.' }),
});
export const apiEventListSchema = apiPageSchema(webhookEventSchema);
export type ApiEventList = z.infer<typeof apiEventListSchema>;
export const apiEventIdParamsSchema = z.object({ id: z.string().max(64) });

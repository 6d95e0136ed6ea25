import { z } from 'zod';
import { publicConsentSchema } from './consent.ts';
import { apiDeliveryStatusSchema } from './delivery-status.ts';
import { anyIdParams, created, endpoint, noContent, ok } from './endpoints.ts';
import { publicVerifyPaths } from './public-verify-paths.ts';
import { languageSchema } from './verify-forms.ts';

/**
 * The public verification page `/f/{publicId}?ref=…` and its API under /api/public (DESIGN §5; ours). No login; CSRF
 * still applies to the POSTs (the page's data carries the token). Answers and refusals are in the form's language
 * (texts in public-verify-texts.ts).
 */

/** Codes, tries and timing (DESIGN §5). */
export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 10 * 60;
export const MAX_WRONG_TRIES = 5;
export const RESEND_AFTER_SECONDS = 30;

export const verificationMethods = ['sms', 'email'] as const;
export const verificationMethodSchema = z.enum(verificationMethods);
export type VerificationMethod = z.infer<typeof verificationMethodSchema>;

/** GET /api/public/verify-forms/{publicId}: the live form's public face. */
export const publicVerifyFormSchema = z.object({
  publicId: z.string(),
  name: z.string(),
  /** The account's display name. */
  company: z.string(),
  /**
   * The account's first verified domain (issue #33 item 10: proven by a DNS record or a file), shown beside its name;
   * null when it has verified none (the page then shows the name alone).
   */
  companyDomain: z.string().nullable(),
  language: languageSchema,
  bannerImage: z.string().nullable(),
  /**
   * True only when a member of the form's account opens an inactive form: the page shows it with a preview notice
   * and sending is refused. Everyone else gets 404 for an inactive form.
   */
  preview: z.boolean(),
  /** The current consent version of the form's language (issue #18), shown above the button; null when none. */
  consent: publicConsentSchema.nullable(),
  /**
   * This opening of the page (issue #18: the timeline's "page opened" and "consent shown", the funnel's first step),
   * sent back with `send-code`; null for a preview, which records no view.
   */
  pageViewId: z.string().nullable(),
});
export type PublicVerifyForm = z.infer<typeof publicVerifyFormSchema>;

/** The data embedded in the public page (`<script id="initial-data">`). `form` null → the "not available" page. */
export const publicPageDataSchema = z.object({
  csrfToken: z.string(),
  form: publicVerifyFormSchema.nullable(),
  /** `?ref=` of the link, passed on to send-code as externalRefId. */
  externalRefId: z.string().nullable(),
  /**
   * The form's language, also when the form is not shown (inactive: its "not available" page speaks the consumer's
   * language too); null for an unknown link, which has none (the page then speaks English).
   */
  language: languageSchema.nullable(),
});
export type PublicPageData = z.infer<typeof publicPageDataSchema>;

export const EXTERNAL_REF_ID_MAX = 200;

/**
 * POST /api/public/verify-forms/{publicId}/send-code. The server parses `cellPhone` with libphonenumber-js (default
 * country US) and stores E.164; only mobile (or US-style fixed-or-mobile) numbers of the account's countries
 * (CompanyInfo.phoneCountries) are accepted, whatever the method; `email` is required when method is email. Field
 * messages come in the form's language.
 */
export const sendCodeRequestSchema = z.object({
  cellPhone: z.string().trim().min(1).max(40),
  method: verificationMethodSchema,
  email: z.string().trim().max(254).optional(),
  externalRefId: z.string().trim().max(EXTERNAL_REF_ID_MAX).optional(),
  /**
   * The consent version the page showed (issue #18) and whether its box was ticked: a version that is no longer the
   * current one, or a required tick missing, is refused on `consentAccepted` in the form's language.
   */
  consentVersionId: z.string().max(64).optional(),
  consentAccepted: z.boolean().optional(),
  /**
   * The page view the page's data carried (issue #18), linking the attempt to it. Kept only when it is a view of this
   * form; anything else (a stale tab, another form's view) is dropped silently, never refused.
   */
  pageViewId: z.string().max(64).optional().catch(undefined),
  /**
   * The page URL's `refresh`, a refresh link's token (issue #36 item 4): a link of this form, not expired, makes the
   * verification refresh the link's one, with its reference. An unknown or expired token is dropped silently, never
   * refused: the consumer still verifies, and the answer says nothing of it.
   */
  refresh: z.string().max(64).optional().catch(undefined),
});
export type SendCodeRequest = z.input<typeof sendCodeRequestSchema>;

export const sendCodeResponseSchema = z.object({
  attemptId: z.string(),
  /** Seconds until the page may ask for a new code (RESEND_AFTER_SECONDS). */
  resendAfterSeconds: z.number().int(),
  expiresAt: z.string(),
  /** Masked destination, e.g. "(•••) •••-0123" or "j•••@example.com". */
  sentTo: z.string(),
  /** The number as stored (E.164, formatted for reading), for the success screen. */
  cellPhone: z.string(),
});
export type SendCodeResponse = z.infer<typeof sendCodeResponseSchema>;

/** POST /api/public/attempts/{attemptId}/check. A wrong, expired, used or locked code: 400 with an error on `code`. */
export const checkCodeRequestSchema = z.object({ code: z.string().trim().max(20) });
export type CheckCodeRequest = z.infer<typeof checkCodeRequestSchema>;
export const checkCodeResponseSchema = z.object({
  verified: z.literal(true),
  verificationId: z.number().int(),
});
export type CheckCodeResponse = z.infer<typeof checkCodeResponseSchema>;

/**
 * GET /api/public/attempts/{attemptId}/delivery: what the public page shows while the consumer waits. `message` is in
 * the form's language and set only when the message could not be delivered; `suggestEmail` when the form offers e-mail
 * and the code went by SMS.
 */
export const publicDeliveryStatusSchema = z.object({
  status: apiDeliveryStatusSchema,
  message: z.string().nullable(),
  suggestEmail: z.boolean(),
});
export type PublicDeliveryStatus = z.infer<typeof publicDeliveryStatusSchema>;

/**
 * POST /api/public/verify-forms/{publicId}/revocations (issue #35, the public revocation page): a consumer revokes
 * their consent to the form's company by a phone number or an e-mail address (at least one), and may ask for the one
 * confirmation text the FCC allows (`confirm`, a number only). No proof that the number or address is theirs is asked
 * (FCC 24-24). Field messages come in the form's language (public-revoke-texts.ts).
 */
export const publicRevocationRequestSchema = z.object({
  phone: z.string().trim().max(40).optional(),
  email: z.string().trim().max(254).optional(),
  confirm: z.boolean().optional(),
});
export type PublicRevocationRequest = z.input<typeof publicRevocationRequestSchema>;

/**
 * 201, the same for any number or address, known to the company or not: the revocation's id (the consumer's
 * reference) and when it was received (its 10 business days count from that day).
 */
export const publicRevocationResponseSchema = z.object({ id: z.string(), receivedAt: z.string() });
export type PublicRevocationResponse = z.infer<typeof publicRevocationResponseSchema>;

/** Any string: the service answers 404 for anything that is not a live form (or a pending attempt's id). */
const publicIdParams = z.object({ publicId: z.string() });
const attemptIdParams = z.object({ attemptId: z.string() });

/**
 * The hosted verification page's API: no login, CSRF like every unsafe call. The bodies are checked by the service
 * once the form is loaded (`bodyCheckedBy`), because every field message must be in the form's language. The paths
 * are in a zod-free module of their own, which the page's small client imports (public-verify-paths.ts).
 */
export const publicVerifyEndpoints = {
  /** The live form's public face (or a member's preview of an inactive one); 404 for anything else. */
  form: endpoint(`GET ${publicVerifyPaths.form}`, {
    params: publicIdParams,
    response: ok(publicVerifyFormSchema),
    access: 'public',
  }),
  /** Sends a code to the consumer: 201 with the attempt. */
  sendCode: endpoint(`POST ${publicVerifyPaths.sendCode}`, {
    params: publicIdParams,
    body: sendCodeRequestSchema,
    bodyCheckedBy: 'handler',
    response: created(sendCodeResponseSchema),
    access: 'public',
  }),
  /** Polled by the page while the consumer waits for the code (issue #18 item 5). */
  delivery: endpoint(`GET ${publicVerifyPaths.delivery}`, {
    params: attemptIdParams,
    response: ok(publicDeliveryStatusSchema),
    access: 'public',
  }),
  /** Checks the code typed: 400 on `code` when it is wrong, expired, used or locked. */
  check: endpoint(`POST ${publicVerifyPaths.check}`, {
    params: attemptIdParams,
    body: checkCodeRequestSchema,
    bodyCheckedBy: 'handler',
    response: ok(checkCodeResponseSchema),
    access: 'public',
  }),
  /**
   * A consumer's revocation of consent through the form's revocation page: 201 for any number or address; 400 on
   * `phone` or `email`; 404 for an unknown or inactive form; 429 past the per-IP limit.
   */
  revoke: endpoint(`POST ${publicVerifyPaths.revoke}`, {
    params: publicIdParams,
    body: publicRevocationRequestSchema,
    bodyCheckedBy: 'handler',
    response: created(publicRevocationResponseSchema),
    access: 'public',
  }),
};

// ---- Test numbers (test mode; ours) ----------------------------------------------------------------------------
// Routes: `testPhoneNumberEndpoints` below. A code sent to a test number sends nothing; the number's fixed
// code verifies it and the verification is marked as a test. Its message's delivery is simulated (issue #18): queued,
// sent, then delivered, or undelivered with the number's `simulatedErrorCode`, like a decline test card.

/** The failures a test number can simulate: Twilio's error codes, as the attempts view and API v1 show them. */
export const simulatedDeliveryErrorCodes = ['30003', '30006', '30007', '21610', '30005'] as const;
export const simulatedDeliveryErrorCodeSchema = z.enum(simulatedDeliveryErrorCodes);
export type SimulatedDeliveryErrorCode = z.infer<typeof simulatedDeliveryErrorCodeSchema>;

/** The choice's words, in the order offered (null: delivered, the default). */
export const simulatedDeliveryOptions: readonly { code: SimulatedDeliveryErrorCode | null; label: string }[] =
  [
    { code: null, label: 'Delivered' },
    { code: '30003', label: 'Unreachable (30003)' },
    { code: '30006', label: 'Landline (30006)' },
    { code: '30007', label: 'Carrier filter (30007)' },
    { code: '21610', label: 'Opted out (21610)' },
    { code: '30005', label: 'Unknown number (30005)' },
  ];

export const testPhoneNumberSchema = z.object({
  id: z.number().int(),
  account: z.number().int(),
  /** E.164. */
  cellPhone: z.string(),
  code: z.string(),
  /** The error code its messages "fail" with; null: they are delivered. */
  simulatedErrorCode: simulatedDeliveryErrorCodeSchema.nullable(),
  created: z.string(),
});
export type TestPhoneNumber = z.infer<typeof testPhoneNumberSchema>;
export const testPhoneNumberListSchema = z.object({ results: z.array(testPhoneNumberSchema) });
export const testPhoneNumberListQuerySchema = z.object({ account: z.coerce.number().int().positive() });
export const createTestPhoneNumberRequestSchema = z.object({
  account: z.number().int().positive(),
  cellPhone: z.string().trim().min(1).max(40),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code has 6 digits.'),
  simulatedErrorCode: z
    .enum(simulatedDeliveryErrorCodes, { error: 'Choose one of the simulated outcomes.' })
    .nullable()
    .default(null),
});
export type CreateTestPhoneNumberRequest = z.input<typeof createTestPhoneNumberRequestSchema>;

/** The session API's test-number routes: any member lists them, owners (`manageCompany`) add and delete them. */
export const testPhoneNumberEndpoints = {
  /** The account's test numbers. */
  list: endpoint('GET /api/test-phone-numbers', {
    query: testPhoneNumberListQuerySchema,
    response: ok(testPhoneNumberListSchema),
    access: { account: { from: 'query.account' } },
  }),
  /** `{account, cellPhone, code}` → 201; 400 on `cellPhone` when it is invalid or already there. */
  create: endpoint('POST /api/test-phone-numbers', {
    body: createTestPhoneNumberRequestSchema,
    response: created(testPhoneNumberSchema),
    access: { account: { from: 'body.account', can: 'manageCompany' } },
  }),
  /** Deletes it. */
  remove: endpoint('DELETE /api/test-phone-numbers/:id', {
    params: anyIdParams,
    response: noContent,
    access: { account: { from: { pathObject: 'testPhoneNumbers' }, can: 'manageCompany' } },
  }),
};
export const testNumberTexts = {
  duplicate: 'This number is already a test number.',
  invalidPhone: 'This is not a valid phone number. Check the digits and the country code.',
} as const;

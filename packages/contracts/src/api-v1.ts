import { z } from 'zod';
import { MAX_INT_ID } from './lists.ts';
import { languageSchema } from './verify-forms.ts';

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
    name: z.string(),
    category: z.string(),
    language: languageSchema,
    isLive: z.boolean().meta({ description: 'Only live forms start verifications.' }),
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

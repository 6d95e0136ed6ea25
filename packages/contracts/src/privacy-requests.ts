import { z } from 'zod';
import { apiPageQuerySchema, apiPageSchema } from './api-v1.ts';
import { emailSchema } from './auth.ts';
import { isoDateTimeSchema } from './date-filters.ts';
import { accepted, created, endpoint, ok } from './endpoints.ts';
import { listResponseSchema } from './lists.ts';
import { hasLineBreakOrControl, singleLineName, singleLineTexts } from './names.ts';
import { ofQueryAccount } from './verifications.ts';

/**
 * Data-subject requests (issue #37 item 3): a person asks what the account holds about their numbers and addresses
 * (`access`), to have it erased (`erasure`, GDPR art. 17, CCPA §1798.105) or to have its processing restricted
 * (`restriction`, GDPR art. 18). An owner files one in Settings, or the customer's privacy tooling through API v1; it
 * is `open` until carried out (`running`: a job), then `answered`. Each has a due date by its law (CCPA 45 days,
 * extendable once by 45; GDPR 30 days, extendable once by 60; other 30, extendable once by 30), and is `overdue`
 * (derived, never stored) while open or running past it. Evidence under a legal hold is never erased: it is restricted
 * instead and the answer names the holds. The log of requests is kept 24 months; once answered, the identifiers it
 * names are masked (it holds no more personal data than the answer needs).
 */

/** The app's page of privacy requests (Settings → Privacy requests). */
export const PRIVACY_REQUESTS_PAGE_PATH = '/settings/privacy-requests';

export const privacyRequestTypes = ['access', 'erasure', 'restriction'] as const;
export type PrivacyRequestType = (typeof privacyRequestTypes)[number];

export const privacyLaws = ['ccpa', 'gdpr', 'other'] as const;
export type PrivacyLaw = (typeof privacyLaws)[number];

/** Stored statuses. */
export const privacyRequestStatuses = ['open', 'running', 'answered'] as const;
export type PrivacyRequestStatus = (typeof privacyRequestStatuses)[number];

/** The list's filter: a stored status, or `overdue` (open or running past the due date). */
export const privacyRequestFilters = [...privacyRequestStatuses, 'overdue'] as const;
export type PrivacyRequestFilter = (typeof privacyRequestFilters)[number];

/**
 * Days to answer from receipt, and the one extension's days, per law. CCPA: 11 CCR §7021(a)/(b) (45 calendar days,
 * once more up to 45 with notice). GDPR art. 12(3) says "one month … extended by two further months": the issue counts
 * them as 30 and 60 days (ADR 47). Other laws: 30 and 30, the stricter of the two.
 */
export const privacyLawDeadlines = {
  ccpa: { days: 45, extensionDays: 45 },
  gdpr: { days: 30, extensionDays: 60 },
  other: { days: 30, extensionDays: 30 },
} as const satisfies Record<PrivacyLaw, { days: number; extensionDays: number }>;

/** Identifiers one request may name, of each kind. */
export const MAX_PRIVACY_REQUEST_IDENTIFIERS = 20;
export const MAX_PRIVACY_EXTENSION_REASON_LENGTH = 1000;
/** The earliest `receivedAt` taken. */
export const PRIVACY_REQUEST_EARLIEST_RECEIVED_AT = '2000-01-01T00:00:00.000Z';

export const PRIVACY_REQUEST_PAGE_SIZE_DEFAULT = 25;
export const PRIVACY_REQUEST_PAGE_SIZE_MAX = 100;

export const privacyRequestTexts = {
  phoneOrEmail: 'Name at least one phone number or e-mail address the request is about.',
  invalidPhone: 'Enter a valid phone number, with its country code if it is not a US number.',
  receivedAtOutOfRange: 'Date it when it was received: not in the future, and not before the year 2000.',
  notOpen: 'Only an open request can be carried out.',
  alreadyExtended: 'A request can be extended once only.',
  answeredNotExtendable: 'An answered request cannot be extended.',
  noBundle: 'Only an answered access request has a bundle to download.',
  bundleGone: 'The bundle is no longer available: the request’s data was removed.',
} as const;

/** What holds the request's identifiers, counted (computed when filed, refreshed when read while open). */
export const privacyRequestMatchesSchema = z
  .object({
    verifications: z.number().int(),
    attempts: z.number().int(),
    revocations: z.number().int(),
    webhookEvents: z.number().int(),
    deliveries: z.number().int(),
  })
  .meta({ id: 'PrivacyRequestMatches' });
export type PrivacyRequestMatches = z.infer<typeof privacyRequestMatchesSchema>;

/** A legal hold that kept evidence from erasure (it was restricted instead). */
export const privacyRequestHoldSchema = z
  .object({
    id: z.string(),
    reason: z.string(),
    /** How many of the matching verifications it kept. */
    verifications: z.number().int(),
  })
  .meta({ id: 'PrivacyRequestHold' });
export type PrivacyRequestHold = z.infer<typeof privacyRequestHoldSchema>;

/**
 * What was done. `counts`: what matched when it was carried out. Access: `bundleReady` (the ZIP at `…/bundle`).
 * Erasure: `erased` verifications redacted (their attempts, events and deliveries with them); `restricted` those a
 * legal hold kept, named in `holds`; revocations naming the identifiers are kept (`revocationsKept`): they are the
 * person's own "do not contact me", which erasing would undo (ADR 47). Restriction: `restricted` every matching verification. `message`: the answer in words, for the requester.
 */
export const privacyRequestAnswerSchema = z
  .object({
    counts: privacyRequestMatchesSchema,
    bundleReady: z.boolean(),
    erased: z.number().int(),
    revocationsKept: z.number().int(),
    restricted: z.number().int(),
    holds: z.array(privacyRequestHoldSchema),
    /** An erasure's: the matching codes no verification names, masked (held ones kept). */
    attemptsErased: z.number().int().optional(),
    /** An erasure's: the contactability verdicts about the numbers, their number masked (held ones kept). */
    verdictsErased: z.number().int().optional(),
    /** An erasure's: the carrier lookups of the numbers, their number and provider body removed (held ones kept). */
    lookupsErased: z.number().int().optional(),
    message: z.string(),
  })
  .meta({ id: 'PrivacyRequestAnswer' });
export type PrivacyRequestAnswer = z.infer<typeof privacyRequestAnswerSchema>;

export const privacyRequestSchema = z.object({
  /** `dsr_…`. */
  id: z.string(),
  type: z.enum(privacyRequestTypes),
  law: z.enum(privacyLaws),
  status: z.enum(privacyRequestStatuses),
  /** Open or running past `dueAt`. */
  overdue: z.boolean(),
  /** E.164; masked (`+1******4567`) once answered. */
  phones: z.array(z.string()),
  /** Lower-case; masked (`j***@example.com`) once answered. */
  emails: z.array(z.string()),
  /** Whether `phones`, `emails` and the requester's address are masked (answered). */
  identifiersMasked: z.boolean(),
  requester: z.object({ name: z.string(), email: z.string().nullable() }),
  receivedAt: z.string(),
  /** `receivedAt` + the law's days (+ the extension's once extended). */
  dueAt: z.string(),
  extendedAt: z.string().nullable(),
  extensionReason: z.string().nullable(),
  /** Open or running, and not extended yet. */
  extendable: z.boolean(),
  /** A member's e-mail or an API key's prefix. */
  filedBy: z.string(),
  matches: privacyRequestMatchesSchema,
  answer: privacyRequestAnswerSchema.nullable(),
  answeredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PrivacyRequest = z.infer<typeof privacyRequestSchema>;

export const privacyRequestListSchema = listResponseSchema(privacyRequestSchema);
export type PrivacyRequestList = z.infer<typeof privacyRequestListSchema>;

const identifierText = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .refine((value) => !hasLineBreakOrControl(value), singleLineTexts.controlCharacters);

const receivedAtSchema = isoDateTimeSchema.refine(
  (value) => {
    const time = new Date(value).getTime();
    return Number.isNaN(time) || time >= Date.parse(PRIVACY_REQUEST_EARLIEST_RECEIVED_AT);
  },
  { message: privacyRequestTexts.receivedAtOutOfRange },
);

/**
 * A request as filed: its type and law, the numbers (parsed to E.164 like revocations; US without a country code)
 * and addresses it names (at least one), who asked, and when it arrived (now when left out; never in the future —
 * the server checks against its clock — nor before 2000).
 */
export const filePrivacyRequestRequestSchema = z
  .object({
    type: z.enum(privacyRequestTypes),
    law: z.enum(privacyLaws),
    phones: z.array(identifierText).max(MAX_PRIVACY_REQUEST_IDENTIFIERS).default([]),
    emails: z.array(emailSchema).max(MAX_PRIVACY_REQUEST_IDENTIFIERS).default([]),
    requester: z.object({
      name: singleLineName(200),
      email: emailSchema.nullish(),
    }),
    receivedAt: receivedAtSchema.optional(),
  })
  .refine((body) => body.phones.length + body.emails.length > 0, {
    message: privacyRequestTexts.phoneOrEmail,
    path: ['phones'],
  })
  .meta({ id: 'FilePrivacyRequestRequest' });
export type FilePrivacyRequestRequest = z.input<typeof filePrivacyRequestRequestSchema>;
export type FilePrivacyRequestBody = z.output<typeof filePrivacyRequestRequestSchema>;

/** The one extension: why (told to the requester, as CCPA and GDPR ask). */
export const extendPrivacyRequestRequestSchema = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(MAX_PRIVACY_EXTENSION_REASON_LENGTH)
      .refine(
        (value) => !hasLineBreakOrControl(value.replace(/\r?\n/g, ' ')),
        singleLineTexts.controlCharacters,
      ),
  })
  .meta({ id: 'ExtendPrivacyRequestRequest' });
export type ExtendPrivacyRequestRequest = z.infer<typeof extendPrivacyRequestRequestSchema>;

/** POST …/carry-out: nothing to choose; no body or `{}`. */
export const carryOutPrivacyRequestRequestSchema = z.object({}).strict().nullish();

/** Settings → Privacy requests' search params (bad values fall back). */
export const privacyRequestSearchSchema = z.object({
  status: z.enum(privacyRequestFilters).optional().catch(undefined),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(PRIVACY_REQUEST_PAGE_SIZE_MAX)
    .catch(PRIVACY_REQUEST_PAGE_SIZE_DEFAULT)
    .default(PRIVACY_REQUEST_PAGE_SIZE_DEFAULT),
});
export type PrivacyRequestSearch = z.infer<typeof privacyRequestSearchSchema>;

const accountQuerySchema = z.object({ account: z.coerce.number().int().positive() });
export const privacyRequestListQuerySchema = privacyRequestSearchSchema.extend(accountQuerySchema.shape);

const privacyRequestIdParams = z.object({ id: z.string().min(1).max(64) });
const onPrivacyRequest = (can: 'readPrivacyRequests' | 'writePrivacyRequests') =>
  ({ account: { from: { pathObject: 'privacyRequests' }, can } }) as const;

/**
 * The session API's privacy requests: owners only (Settings; the log names requesters and their identifiers, and
 * erasure is the owners' like a redaction). Another account's id answers 404.
 */
export const privacyRequestEndpoints = {
  /** Newest received first, filtered by status (`overdue` too). */
  list: endpoint('GET /api/privacy-requests', {
    query: privacyRequestListQuerySchema,
    response: ok(privacyRequestListSchema),
    access: ofQueryAccount('readPrivacyRequests'),
  }),
  /** Filed: `open`, its due date by its law, its matches counted. */
  file: endpoint('POST /api/privacy-requests', {
    query: accountQuerySchema,
    body: filePrivacyRequestRequestSchema,
    response: created(privacyRequestSchema),
    access: ofQueryAccount('writePrivacyRequests'),
  }),
  /** One request; while open or running its matches are counted again. */
  get: endpoint('GET /api/privacy-requests/:id', {
    params: privacyRequestIdParams,
    response: ok(privacyRequestSchema),
    access: onPrivacyRequest('readPrivacyRequests'),
  }),
  /** Carried out by a job: `open` → `running` (202); anything but an open one answers 409 (many at once: one job). */
  carryOut: endpoint('POST /api/privacy-requests/:id/carry-out', {
    params: privacyRequestIdParams,
    body: carryOutPrivacyRequestRequestSchema,
    response: accepted(privacyRequestSchema),
    access: onPrivacyRequest('writePrivacyRequests'),
  }),
  /** The one extension, with a reason; a second, or one of an answered request, answers 400. */
  extend: endpoint('POST /api/privacy-requests/:id/extend', {
    params: privacyRequestIdParams,
    body: extendPrivacyRequestRequestSchema,
    response: ok(privacyRequestSchema),
    access: onPrivacyRequest('writePrivacyRequests'),
  }),
  /** An answered access request's bundle: a ZIP of `data.json` and one CSV per kind. Anything else answers 409. */
  bundle: endpoint('GET /api/privacy-requests/:id/bundle', {
    params: privacyRequestIdParams,
    response: ok(),
    access: onPrivacyRequest('readPrivacyRequests'),
    stepUp: true,
  }),
};

/** The bundle's download name. */
export function privacyRequestBundleFileName(id: string): string {
  return `privacy-request-${id}.zip`;
}

// ---- API v1 (scopes `privacy:read`, `privacy:write`) -----------------------------------------------------------

export const apiPrivacyRequestSchema = privacyRequestSchema
  .extend({
    livemode: z.boolean().meta({
      description:
        'False for one filed with a `vf_test_` key: it reaches the account’s test data only, and only `vf_test_` keys see it.',
    }),
  })
  .meta({ id: 'PrivacyRequest' });
export type ApiPrivacyRequest = z.infer<typeof apiPrivacyRequestSchema>;

export const apiPrivacyRequestListQuerySchema = apiPageQuerySchema.extend({
  status: z.enum(privacyRequestFilters).optional(),
});
export type ApiPrivacyRequestListQuery = z.infer<typeof apiPrivacyRequestListQuerySchema>;
export const apiPrivacyRequestListSchema = apiPageSchema(apiPrivacyRequestSchema);
export type ApiPrivacyRequestList = z.infer<typeof apiPrivacyRequestListSchema>;
export const apiPrivacyRequestIdParamsSchema = privacyRequestIdParams;

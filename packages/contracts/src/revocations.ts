import { z } from 'zod';
import { apiPageQuerySchema, apiPageSchema } from './api-v1.ts';
import { emailSchema } from './auth.ts';
import { isoDateTimeSchema } from './date-filters.ts';
import { created, endpoint, ok } from './endpoints.ts';
import { listResponseSchema } from './lists.ts';
import { hasLineBreakOrControl, singleLineTexts } from './names.ts';
import { ofQueryAccount } from './verifications.ts';

/**
 * Revocations of consent (issue #35; FCC 24-24: by any reasonable means, honoured within 10 business days). One per
 * revocation received, from any channel: a reply to a code text (`sms_reply`), the public revocation page, API v1, or
 * a member recording what the customer heard elsewhere (by phone, e-mail, letter). A reply that is not a per-se
 * revocation is `possible` until a member decides (`open`, or `dismissed`: not a revocation). An open one is
 * `overdue` once its deadline has passed, until the customer's systems acknowledge it (`acknowledged`).
 */

/** The app's page of revocations (Activity Log → Revocations), linked from e-mails. */
export const REVOCATIONS_PAGE_PATH = '/activity-log/revocations';

export const revocationChannels = ['sms_reply', 'public_page', 'api', 'member'] as const;
export type RevocationChannel = (typeof revocationChannels)[number];

/** How a revocation recorded by a member or API v1 reached the customer. */
export const revocationVias = ['phone_call', 'email', 'letter', 'other'] as const;
export type RevocationVia = (typeof revocationVias)[number];

/** What a revocation is now: `overdue` is an open one past its deadline (derived when read, never stored). */
export const revocationStatuses = ['open', 'overdue', 'possible', 'acknowledged', 'dismissed'] as const;
export type RevocationStatus = (typeof revocationStatuses)[number];

export const revocationSchema = z.object({
  id: z.string(),
  channel: z.enum(revocationChannels),
  via: z.enum(revocationVias).nullable(),
  /** A member's or the API caller's note; empty for a reply. */
  note: z.string(),
  /** Who recorded it: a member's e-mail, an API key's prefix; null for a reply or the public page. */
  recordedBy: z.string().nullable(),
  /** E.164. */
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** A reply's exact words. */
  words: z.string(),
  /** The per-se words or phrases recognised in them (what flagged a possible one). */
  perSeWords: z.array(z.string()),
  status: z.enum(revocationStatuses),
  receivedAt: z.string(),
  /** The last day to honour it (YYYY-MM-DD): 10 business days after the day it was received. */
  deadline: z.string(),
  acknowledgedAt: z.string().nullable(),
  /** The account's verifications of the number made before it: valid evidence of their moment, consent revoked since. */
  verificationIds: z.array(z.number().int()),
});
export type Revocation = z.infer<typeof revocationSchema>;

export const revocationListSchema = listResponseSchema(revocationSchema);
export type RevocationList = z.infer<typeof revocationListSchema>;

export const REVOCATION_PAGE_SIZE_DEFAULT = 25;
export const REVOCATION_PAGE_SIZE_MAX = 100;
export const MAX_REVOCATION_NOTE_LENGTH = 2000;

const revocationNoteText = 'Control characters are not allowed.';

export const revocationTexts = {
  phoneOrEmail: 'Enter the phone number or the e-mail address that revoked consent.',
  invalidPhone: 'Enter a valid phone number, with its country code if it is not a US number.',
  notPossible: 'Only a possible revocation can be decided.',
  notOpen: 'Only an open revocation can be acknowledged.',
  receivedAtOutOfRange: 'Date it when it was received: not in the future, and at most a year ago.',
} as const;

/** /revocations search params (every bad value falls back): a status, a search (a number's digits or an address). */
export const revocationSearchSchema = z.object({
  status: z.enum(revocationStatuses).optional().catch(undefined),
  q: z.string().trim().max(254).optional().catch(undefined),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(REVOCATION_PAGE_SIZE_MAX)
    .catch(REVOCATION_PAGE_SIZE_DEFAULT)
    .default(REVOCATION_PAGE_SIZE_DEFAULT),
});
export type RevocationSearch = z.infer<typeof revocationSearchSchema>;

const accountQuerySchema = z.object({ account: z.coerce.number().int().positive() });

export const revocationListQuerySchema = revocationSearchSchema.extend(accountQuerySchema.shape);

/** A note may span lines; no other control character (they would travel into the CSV and e-mails). */
const noteSchema = z
  .string()
  .trim()
  .max(MAX_REVOCATION_NOTE_LENGTH)
  .refine((value) => !hasLineBreakOrControl(value.replace(/\r?\n/g, ' ')), revocationNoteText);

/** What a member records: the number or the address (at least one), how it reached the customer, a note. */
export const recordRevocationRequestSchema = z
  .object({
    phone: z
      .string()
      .trim()
      .max(32)
      .refine((value) => !hasLineBreakOrControl(value), singleLineTexts.controlCharacters)
      .optional(),
    email: emailSchema.optional(),
    via: z.enum(revocationVias),
    note: noteSchema.default(''),
  })
  .refine((body) => Boolean(body.phone) || Boolean(body.email), {
    message: revocationTexts.phoneOrEmail,
    path: ['phone'],
  });
export type RecordRevocationRequest = z.input<typeof recordRevocationRequestSchema>;
/** The body as the server reads it once validated (the note defaulted). */
export type RecordRevocationBody = z.output<typeof recordRevocationRequestSchema>;

/** A possible revocation decided: `isRevocation` opens it (its deadline counted from when it arrived) or dismisses it. */
export const decideRevocationRequestSchema = z.object({ isRevocation: z.boolean() });

const revocationIdParams = z.object({ id: z.string().min(1).max(64) });

/** What the dashboard counts (issue #35 item 3): live revocations waiting on the customer. */
export const revocationCountsSchema = z.object({
  /** Open and within their deadline. */
  open: z.number().int(),
  /** Open past their deadline. */
  overdue: z.number().int(),
  /** Replies waiting for a member's decision. */
  possible: z.number().int(),
});
export type RevocationCounts = z.infer<typeof revocationCountsSchema>;

/**
 * The session API's revocations (issue #35): owners and members with canSearchData (they hold numbers and a
 * consumer's words). Another account's id answers 404.
 */
export const revocationEndpoints = {
  /** Newest first, filtered by status and a search; `count` is the filtered total. */
  list: endpoint('GET /api/revocations', {
    query: revocationListQuerySchema,
    response: ok(revocationListSchema),
    access: ofQueryAccount('searchData'),
  }),
  /** How many wait on the customer: open, overdue, possible (the dashboard's card). */
  counts: endpoint('GET /api/revocations/counts', {
    query: accountQuerySchema,
    response: ok(revocationCountsSchema),
    access: ofQueryAccount('searchData'),
  }),
  /** One received elsewhere (a call, an e-mail, a letter), recorded by a member: open at once. */
  record: endpoint('POST /api/revocations', {
    query: accountQuerySchema,
    body: recordRevocationRequestSchema,
    response: created(revocationSchema),
    access: ofQueryAccount('searchData'),
  }),
  /** A possible one decided; anything but a possible one answers 409 and changes nothing. */
  decide: endpoint('POST /api/revocations/:id/decide', {
    params: revocationIdParams,
    body: decideRevocationRequestSchema,
    response: ok(revocationSchema),
    access: { account: { from: { pathObject: 'revocations' }, can: 'searchData' } },
  }),
  /** Honoured: an open (or overdue) one acknowledged once; a second acknowledgment answers 409 and changes nothing. */
  acknowledge: endpoint('POST /api/revocations/:id/acknowledge', {
    params: revocationIdParams,
    response: ok(revocationSchema),
    access: { account: { from: { pathObject: 'revocations' }, can: 'searchData' } },
  }),
};

// ---- API v1 (scopes `revocations:read`, `revocations:write`) -----------------------------------------------------

/** A revocation as API v1 shows it: the app's object, and whether it is a test object. */
export const apiRevocationSchema = revocationSchema
  .extend({
    livemode: z.boolean().meta({
      description:
        'False for one recorded with a `vf_test_` key: it revokes the account’s test verifications only, and only `vf_test_` keys see it.',
    }),
  })
  .meta({ id: 'Revocation' });
export type ApiRevocation = z.infer<typeof apiRevocationSchema>;

/** How far back a revocation received elsewhere may be dated: a year (its deadline may already have passed). */
export const REVOCATION_BACKDATE_DAYS = 365;

/** One received elsewhere (a call centre, an e-mail, a letter), as a member records it, dated when it was received. */
export const apiRecordRevocationRequestSchema = recordRevocationRequestSchema
  .safeExtend({
    receivedAt: isoDateTimeSchema.optional().meta({
      description: `When the consumer revoked (ISO 8601): its deadline counts from that day. Now when left out; at most ${REVOCATION_BACKDATE_DAYS} days ago, never in the future.`,
    }),
  })
  .meta({ id: 'RecordRevocationRequest' });
export type ApiRecordRevocationRequest = z.input<typeof apiRecordRevocationRequestSchema>;
export type ApiRecordRevocationBody = z.output<typeof apiRecordRevocationRequestSchema>;

export const apiRevocationListQuerySchema = apiPageQuerySchema.extend({
  status: z.enum(revocationStatuses).optional(),
  phone: z
    .string()
    .trim()
    .max(32)
    .optional()
    .meta({ description: 'Only this number’s (E.164, or as typed).' }),
});
export type ApiRevocationListQuery = z.infer<typeof apiRevocationListQuerySchema>;
export const apiRevocationListSchema = apiPageSchema(apiRevocationSchema);
export type ApiRevocationList = z.infer<typeof apiRevocationListSchema>;
export const apiRevocationIdParamsSchema = revocationIdParams;

import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { anyIdParams, created, endpoint, ok } from './endpoints.ts';
import {
  type LegalHoldScope,
  legalHoldScopes,
  legalHoldSearchSchema,
  legalHoldStatuses,
} from './legal-hold-search.ts';
import { listResponseSchema, MAX_BIGINT_ID, MAX_INT_ID } from './lists.ts';
import { hasLineBreakOrControl, singleLineTexts } from './names.ts';

/**
 * Legal holds (issue #37 item 2): evidence an account must keep whatever its retention policy or a data-subject
 * request says, placed on the whole account, a form, a number or address, or one verification, with a reason, by an
 * owner. A held verification is never purged nor redacted (a redaction answers 409 naming the hold); a hold is
 * released once, with a reason, and stays listed. What a hold reaches is one rule, in SQL, on the server
 * (modules/legal-holds/held.ts).
 */

/** What a hold's reach is counted up to (the list stays cheap on an account of millions): past it, `more`. */
export const LEGAL_HOLD_REACH_COUNT_MAX = 1000;
export const MAX_LEGAL_HOLD_REASON_LENGTH = 500;

export const legalHoldTexts = {
  formRequired: 'Choose the form to hold.',
  phoneOrEmail: 'Enter the number or the address to hold (one of them).',
  oneIdentifier: 'Hold a number or an address, not both: place two holds.',
  verificationRequired: 'Enter the id of the verification to hold.',
  notForScope: 'Leave this out for this kind of hold.',
  invalidPhone: 'Enter a valid phone number, with its country code if it is not a US number.',
  noSuchForm: 'No form with this id in this account.',
  noSuchVerification: 'No verification with this id in this account.',
  alreadyReleased: 'This hold was already released.',
  /** The 409 of a redaction of held evidence: the hold's id and reason. */
  redactionRefused: (id: string, reason: string) =>
    `This verification is under legal hold ${id} (“${reason}”): its evidence cannot be redacted until the hold is released.`,
} as const;

/** A hold's reason or a release's: one line of text, required. */
const reasonSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_LEGAL_HOLD_REASON_LENGTH)
  .refine((value) => !hasLineBreakOrControl(value), singleLineTexts.controlCharacters);

export const legalHoldSchema = z.object({
  /** `lh_` and 22 characters. */
  id: z.string(),
  scope: z.enum(legalHoldScopes),
  /** The form held (scope `form`). */
  formId: z.number().int().nullable(),
  /** Its name now; null when the form is gone or the hold is not on a form. */
  formName: z.string().nullable(),
  /** E.164 (scope `identifier`, on a number). */
  phone: z.string().nullable(),
  /** Lower-case (scope `identifier`, on an address). */
  email: z.string().nullable(),
  /** The verification held (scope `verification`). */
  verificationId: z.number().int().nullable(),
  reason: z.string(),
  status: z.enum(legalHoldStatuses),
  /** The owner who placed it (their e-mail, as the audit log names them). */
  placedBy: z.string(),
  placedAt: z.string(),
  releasedBy: z.string().nullable(),
  releasedAt: z.string().nullable(),
  releaseReason: z.string().nullable(),
  /**
   * The verifications an active hold reaches now, counted up to LEGAL_HOLD_REACH_COUNT_MAX (`more`: there are more);
   * null once released.
   */
  reaches: z.object({ verifications: z.number().int(), more: z.boolean() }).nullable(),
});
export type LegalHold = z.infer<typeof legalHoldSchema>;

export const legalHoldListSchema = listResponseSchema(legalHoldSchema);
export type LegalHoldList = z.infer<typeof legalHoldListSchema>;

/**
 * What an owner places: the scope and exactly the field it needs (400 naming the field otherwise), and a reason. The
 * server checks what only it can: the form and the verification are the account's, the number is one.
 */
export const placeLegalHoldRequestSchema = z
  .object({
    scope: z.enum(legalHoldScopes),
    formId: z.number().int().positive().max(MAX_INT_ID).nullish(),
    phone: z
      .string()
      .trim()
      .max(32)
      .refine((value) => !hasLineBreakOrControl(value), singleLineTexts.controlCharacters)
      .nullish(),
    email: emailSchema.nullish(),
    verificationId: z.number().int().positive().max(MAX_BIGINT_ID).nullish(),
    reason: reasonSchema,
  })
  .superRefine((body, context) => {
    const given = {
      formId: body.formId != null,
      phone: body.phone != null && body.phone !== '',
      email: body.email != null,
      verificationId: body.verificationId != null,
    };
    const needs: Record<LegalHoldScope, (keyof typeof given)[]> = {
      account: [],
      form: ['formId'],
      identifier: ['phone', 'email'],
      verification: ['verificationId'],
    };
    const wanted = needs[body.scope];
    for (const field of Object.keys(given) as (keyof typeof given)[])
      if (given[field] && !wanted.includes(field))
        context.addIssue({ code: 'custom', path: [field], message: legalHoldTexts.notForScope });
    if (body.scope === 'form' && !given.formId)
      context.addIssue({ code: 'custom', path: ['formId'], message: legalHoldTexts.formRequired });
    if (body.scope === 'verification' && !given.verificationId)
      context.addIssue({
        code: 'custom',
        path: ['verificationId'],
        message: legalHoldTexts.verificationRequired,
      });
    if (body.scope === 'identifier' && given.phone === given.email)
      context.addIssue({
        code: 'custom',
        path: ['phone'],
        message: given.phone ? legalHoldTexts.oneIdentifier : legalHoldTexts.phoneOrEmail,
      });
  });
export type PlaceLegalHoldRequest = z.input<typeof placeLegalHoldRequestSchema>;
export type PlaceLegalHoldBody = z.output<typeof placeLegalHoldRequestSchema>;

export const releaseLegalHoldRequestSchema = z.object({ reason: reasonSchema });
export type ReleaseLegalHoldRequest = z.input<typeof releaseLegalHoldRequestSchema>;

const accountQuerySchema = z.object({ account: z.coerce.number().int().positive().max(MAX_INT_ID) });

export const legalHoldListQuerySchema = legalHoldSearchSchema.extend(accountQuerySchema.shape);

/** Any id: the tenancy hook answers 404 for anything but a hold of the caller's account. */
const legalHoldIdParams = anyIdParams;

/** Readers: members who may search the account's data (a hold names a number or an address, as the log does). */
const readers = { account: { from: 'query.account', can: 'searchData' } } as const;
/** Placing and releasing: the owners' (`manageEvidence`, as redaction and revoking a certificate). */
const onHold = (can: 'searchData' | 'manageEvidence') =>
  ({ account: { from: { pathObject: 'legalHolds' }, can, alsoNamedBy: 'query.account' } }) as const;

/** The session API's legal holds (Settings › Legal holds); another account's hold answers 404. */
export const legalHoldEndpoints = {
  /** Active first, then newest placed first; `status` filters. */
  list: endpoint('GET /api/legal-holds', {
    query: legalHoldListQuerySchema,
    response: ok(legalHoldListSchema),
    access: readers,
  }),
  get: endpoint('GET /api/legal-holds/:id', {
    params: legalHoldIdParams,
    query: accountQuerySchema.partial(),
    response: ok(legalHoldSchema),
    access: onHold('searchData'),
  }),
  /** Placed at once: audited, and sent as `legal_hold.placed`. */
  place: endpoint('POST /api/legal-holds', {
    query: accountQuerySchema,
    body: placeLegalHoldRequestSchema,
    response: created(legalHoldSchema),
    access: { account: { from: 'query.account', can: 'manageEvidence' } },
  }),
  /** Released once, with a reason; a second release answers 409 and changes nothing. */
  release: endpoint('POST /api/legal-holds/:id/release', {
    params: legalHoldIdParams,
    query: accountQuerySchema.partial(),
    body: releaseLegalHoldRequestSchema,
    response: ok(legalHoldSchema),
    access: onHold('manageEvidence'),
  }),
};

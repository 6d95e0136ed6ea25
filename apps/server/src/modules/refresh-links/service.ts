import { randomBytes } from 'node:crypto';
import type { ApiRefreshLink } from '@veriform/contracts';
import { type Db, schema, transaction } from '@veriform/db';
import { and, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { maskPhone } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';

const { refreshLinks, verificationAttempts, verifications, verifyForms } = schema;

/**
 * Refresh links (issue #36 item 4, ADR 44): a fresh verification link for an approved verification, bound to the old
 * one. This module is the one home of the link's rules: what may be refreshed (`create`) and which link a code request
 * may name (`linkForSend`, asked by the attempt's owner when it issues the code).
 */

/** API v1's verification ids (an attempt's): 16 random bytes, base64url. */
const ATTEMPT_ID = /^[A-Za-z0-9_-]{22}$/;
/** A link's token: 16 random bytes (128 bits), base64url. */
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

/**
 * How long a link works: long enough for a consent-refresh campaign by e-mail or text (a consumer may act on it days
 * later), short enough that a forwarded or leaked link stops binding verifications to the record within a month.
 */
export const REFRESH_LINK_DAYS = 30;
const DAY_MS = 86_400_000;

export const refreshTexts = {
  notApproved:
    'Only an approved verification can be refreshed: this one has no consent to refresh (it was not approved).',
  redacted:
    'This verification was redacted (an erasure request): its consent record no longer holds the consumer’s data to refresh.',
  formNotLive: 'This verification’s form is inactive: make it live before sending a fresh verification link.',
} as const;

/** The link's query parameter on the hosted page (`/f/{publicId}?ref=…&refresh=…`). */
export const REFRESH_PARAM = 'refresh';

export type RefreshLinkForSend = {
  id: number;
  /** The old verification (attempt id) the new one refreshes. */
  attemptId: string;
  /** The old verification's reference: the new one's, whatever the page's URL says. */
  externalRefId: string;
};

/**
 * The link a code request names, when it may bind the new attempt: a link of this form and account, of the same mode
 * as the new attempt (a test number's attempt only through a test verification's link), not expired, whose
 * verification was not redacted since (as `create` refuses a redacted one). An unknown, malformed or expired token, or
 * another form's, is no link (null): the consumer still verifies, unlinked.
 */
export async function linkForSend(
  db: Db,
  query: { token: string; accountId: number; formId: number; isTest: boolean; now: Date },
): Promise<RefreshLinkForSend | null> {
  if (!TOKEN.test(query.token)) return null;
  const [row] = await db
    .select({
      id: refreshLinks.id,
      attemptId: refreshLinks.attemptId,
      externalRefId: refreshLinks.externalRefId,
    })
    .from(refreshLinks)
    .innerJoin(verificationAttempts, eq(verificationAttempts.id, refreshLinks.attemptId))
    .leftJoin(verifications, eq(verifications.id, verificationAttempts.verificationId))
    .where(
      and(
        eq(refreshLinks.tokenSha256, sha256Hex(query.token)),
        isNull(verifications.redactedAt),
        eq(refreshLinks.accountId, query.accountId),
        eq(refreshLinks.verifyFormId, query.formId),
        eq(refreshLinks.isTest, query.isTest),
        gt(refreshLinks.expiresAt, query.now),
      ),
    )
    .limit(1);
  return row ?? null;
}

export function createRefreshLinks(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  /** Making a link is a member's or key's act on a verification: audited in its transaction. */
  audit: AuditLog;
}) {
  const { config, db, clock, audit } = deps;

  const notPossible = (detail: string) =>
    new AppError('validation_error', { nonFieldErrors: [detail], problem: 'refresh_not_possible' });

  /**
   * A fresh link for the approved attempt `where` names in the caller's account (another account's, or the key's
   * other mode's, is not found): 422 `refresh_not_possible` when it was not approved or was redacted, `form_not_live`
   * when its form is inactive. Each call makes a new link (the token is shown once, never stored).
   */
  async function createWhere(ctx: AccountContext, where: SQL | undefined): Promise<ApiRefreshLink> {
    const [old] = await db
      .select({
        id: verificationAttempts.id,
        isTest: verificationAttempts.isTest,
        status: verificationAttempts.status,
        verifiedAt: verificationAttempts.verifiedAt,
        externalRefId: verificationAttempts.externalRefId,
        formId: verifyForms.id,
        publicId: verifyForms.publicId,
        formIsLive: verifyForms.isLive,
        redactedAt: verifications.redactedAt,
        verificationId: verificationAttempts.verificationId,
        cellPhone: verificationAttempts.cellPhone,
      })
      .from(verificationAttempts)
      .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
      .leftJoin(verifications, eq(verifications.id, verificationAttempts.verificationId))
      .where(and(eq(verificationAttempts.accountId, ctx.accountId), where))
      .limit(1);
    if (!old) throw new AppError('not_found');
    if (old.redactedAt) throw notPossible(refreshTexts.redacted);
    if (old.status !== 'verified' || !old.verifiedAt) throw notPossible(refreshTexts.notApproved);
    if (!old.formIsLive)
      throw new AppError('validation_error', {
        nonFieldErrors: [refreshTexts.formNotLive],
        problem: 'form_not_live',
      });

    const token = randomBytes(16).toString('base64url');
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + REFRESH_LINK_DAYS * DAY_MS);
    const actor = ctx.actor;
    await transaction(db, async (tx) => {
      await tx.insert(refreshLinks).values({
        tokenSha256: sha256Hex(token),
        accountId: ctx.accountId,
        isTest: old.isTest,
        attemptId: old.id,
        verifyFormId: old.formId,
        externalRefId: old.externalRefId,
        createdByUserId: actor.type === 'member' ? actor.user.id : null,
        createdByApiKeyId: actor.type === 'api_key' ? actor.keyId : null,
        createdAt: now,
        expiresAt,
      });
      await audit.record(tx, ctx, {
        action: 'verification.refresh_link_created',
        targets: [
          { type: 'verification', id: String(old.verificationId ?? old.id), name: maskPhone(old.cellPhone) },
        ],
        changes: { apiVerificationId: old.id, expiresAt: expiresAt.toISOString() },
      });
    });
    const query = new URLSearchParams();
    if (old.externalRefId) query.set('ref', old.externalRefId);
    query.set(REFRESH_PARAM, token);
    return {
      hostedUrl: `${config.publicUrl}/f/${old.publicId}?${query.toString()}`,
      refreshes: old.id,
      expiresAt: expiresAt.toISOString(),
    };
  }

  return {
    /**
     * API v1: the attempt by its id, in the key's own mode (issue #33, ADR 29): the other mode's is not found, as
     * another account's.
     */
    forAttempt(ctx: AccountContext, attemptId: string): Promise<ApiRefreshLink> {
      if (!ATTEMPT_ID.test(attemptId)) throw new AppError('not_found');
      const livemode = keyLivemode(ctx);
      const mode = livemode === null ? undefined : eq(verificationAttempts.isTest, !livemode);
      return createWhere(ctx, and(eq(verificationAttempts.id, attemptId), mode));
    },
    /** The app: the verification by the app's id (its approving attempt). */
    forVerification(ctx: AccountContext, verificationId: number): Promise<ApiRefreshLink> {
      return createWhere(ctx, eq(verificationAttempts.verificationId, verificationId));
    },
  };
}

export type RefreshLinks = ReturnType<typeof createRefreshLinks>;

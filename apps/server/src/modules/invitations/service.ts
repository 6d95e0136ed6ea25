import type { AuditTarget } from '@veriform/contracts';
import {
  type createInvitationRequestSchema,
  type FollowInvitation,
  type FollowInvitationError,
  INVITATION_RESEND_SECONDS,
  INVITATION_VALID_DAYS,
  type Invitation,
  type InvitationList,
  type InvitationStatus,
  type invitationErrorCodes,
  invitationErrorTexts,
  invitationLinkPath,
  type Membership,
  teamTexts,
  tooManyRequestsText,
} from '@veriform/contracts';
import type { Db, Tx } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import { invitationKeyContext, sendInvitationEmail } from '../../jobs/definitions/send-invitation-email.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import { type RateLimiter, tooMany } from '../../lib/rate-limit.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { SessionRow, SessionStore } from '../../lib/session-store.ts';
import type { Mailer } from '../../messaging/email.ts';
import { invitationMessage } from '../../messaging/templates/invitation.ts';
import { type AccountContext, memberOf, type RequestOrigin } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { type AccountRow, toAccountDto, toApiMembership, toMembershipDto } from '../memberships/index.ts';
import { findUserByEmail, type UserRow } from '../users/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { inviterMayInvite } from './inviter.ts';

const { accounts, invitations, memberships, users } = schema;
/** The inviter's membership of the invitation's account (none once they were removed). */
const inviterMemberships = alias(memberships, 'inviter_memberships');

type InvitationRow = typeof invitations.$inferSelect;
type InviterRow = { name: string; email: string } | null;
type CreateInput = z.output<typeof createInvitationRequestSchema>;
export type InvitationErrorCode = (typeof invitationErrorCodes)[number];

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** E-mails sent by invitations (create and resend) per account and per inviting user, per day. */
export const INVITATION_SEND_LIMITS = { perAccount: 50, perUser: 100, windowMs: DAY_MS };
/** Accept attempts per user and per IP (a key is 256 random bits; this only keeps guessing noisy and slow). */
export const INVITATION_ACCEPT_LIMITS = { perUser: 20, perIp: 60, windowMs: 60 * MINUTE_MS };

/** The keys we hand out: 32 random bytes, base64url. Anything else cannot be one. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** sent: handed to the mailer. skipped: nothing to send any more (accepted, revoked, or resent since). */
export type InvitationEmailOutcome = 'sent' | 'skipped';

export function invitationStatusOf(row: InvitationRow, now: Date): InvitationStatus {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

export function invitationError(code: InvitationErrorCode): AppError {
  return AppError.nonField(`invitation_${code}`, invitationErrorTexts[code]);
}

/** Open: neither accepted nor revoked (pending, or expired and still resendable). */
const isOpen = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

export type FollowInvitationExtra =
  | { followInvitation: FollowInvitation }
  | { followInvitation: { hasError: true }; followInvitationError: FollowInvitationError };

/**
 * Invitations (DESIGN §5 "Team"): owners invite an address with a role and the two permissions; the e-mail carries
 * `${PUBLIC_URL}/follow-invitation/?key=…`; the invited person, logged in with that address, accepts with the key.
 * Only the key's SHA-256 is stored; a resend makes a new key (the old link stops working) and re-arms the expiry.
 */
export function createInvitationService(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sealer: Sealer;
  jobs: JobQueue;
  rateLimit: RateLimiter;
  sessions: SessionStore;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
  /** Webhook events (issue #17): `membership.created` when an accept makes a membership, in its transaction. */
  webhookEvents: WebhookEvents;
}) {
  const { config, db, clock, mailer, sealer, jobs, rateLimit, sessions, audit, webhookEvents } = deps;
  const invitationTarget = (row: { id: number; email: string }): AuditTarget => ({
    type: 'invitation',
    id: String(row.id),
    name: row.email,
  });

  const inAccount = (ctx: AccountContext) => eq(invitations.accountId, ctx.accountId);

  function newKey(): { key: string; keyHash: string } {
    const key = randomToken(32);
    return { key, keyHash: sha256Hex(key) };
  }

  function toDto(row: InvitationRow, account: AccountRow, inviter: InviterRow): Invitation {
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      canSearchData: row.canSearchData,
      canViewReports: row.canViewReports,
      account: toAccountDto(account),
      invitedBy: { name: inviter?.name ?? '', email: inviter?.email ?? '' },
      created: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      lastSentAt: row.lastSentAt.toISOString(),
      status: invitationStatusOf(row, clock.now()),
    };
  }

  const withAccountAndInviter = () =>
    db
      .select({
        invitation: invitations,
        account: accounts,
        inviter: { name: users.name, email: users.email },
        inviterMembership: {
          role: inviterMemberships.role,
          canSearchData: inviterMemberships.canSearchData,
          canViewReports: inviterMemberships.canViewReports,
        },
      })
      .from(invitations)
      .innerJoin(accounts, eq(accounts.id, invitations.accountId))
      .leftJoin(users, eq(users.id, invitations.invitedByUserId))
      .leftJoin(
        inviterMemberships,
        and(
          eq(inviterMemberships.accountId, invitations.accountId),
          eq(inviterMemberships.userId, invitations.invitedByUserId),
        ),
      );

  async function findScoped(ctx: AccountContext, id: number) {
    const [row] = await withAccountAndInviter()
      .where(and(inAccount(ctx), eq(invitations.id, id)))
      .limit(1);
    return row;
  }

  /**
   * The e-mail is a job stored by the transaction that made the key (create, resend): committed with it or not at
   * all. The key rests in the job sealed to this invitation; the job calls `deliverEmail` with it.
   */
  async function enqueueEmail(tx: Tx, invitationId: number, key: string): Promise<void> {
    const sealedKey = sealer.seal(key, invitationKeyContext(invitationId));
    await jobs.enqueue(sendInvitationEmail, { invitationId, sealedKey }, { tx });
  }

  /**
   * Sends the invitation e-mail with `key` (the send-invitation-email job) while that key is still the open
   * invitation's: a resend since (a new key), a revocation (also what removing the inviter does) or an acceptance
   * make a late job send nothing. Inviter and company are read now, so the e-mail names them as they are.
   */
  async function deliverEmail(invitationId: number, key: string): Promise<InvitationEmailOutcome> {
    const [found] = await withAccountAndInviter().where(eq(invitations.id, invitationId)).limit(1);
    if (!found || found.invitation.keyHash !== sha256Hex(key)) return 'skipped';
    const { invitation, account, inviter } = found;
    if (invitation.acceptedAt || invitation.revokedAt) return 'skipped';
    await mailer.send(
      invitationMessage({
        to: invitation.email,
        inviterName: inviter?.name ?? '',
        inviterEmail: inviter?.email ?? '',
        accountName: account.displayName,
        role: invitation.role,
        link: `${config.publicUrl}${invitationLinkPath(key)}`,
        validForDays: INVITATION_VALID_DAYS,
      }),
    );
    return 'sent';
  }

  async function consumeSend(ctx: AccountContext): Promise<void> {
    const { perAccount, perUser, windowMs } = INVITATION_SEND_LIMITS;
    await rateLimit.consume(
      [
        { bucket: `invitation-send:account:${ctx.accountId}`, limit: perAccount, windowMs },
        { bucket: `invitation-send:user:${memberOf(ctx).user.id}`, limit: perUser, windowMs },
      ],
      tooManyRequestsText,
    );
  }

  /** Open invitations (pending, and expired ones that can still be resent), newest first, all on one page. */
  async function list(ctx: AccountContext): Promise<InvitationList> {
    const rows = await withAccountAndInviter()
      .where(and(inAccount(ctx), isOpen))
      .orderBy(desc(invitations.createdAt), desc(invitations.id));
    const results = rows.map((r) => toDto(r.invitation, r.account, r.inviter));
    return { count: results.length, pageNumber: 1, pageSize: results.length, results };
  }

  /**
   * manageTeam (checked by the route). Refuses an address that is already a member or has a pending invitation
   * (both on `email`). An expired open invitation to the same address is superseded (marked revoked) by the new one.
   */
  async function create(ctx: AccountContext, input: CreateInput): Promise<Invitation> {
    await consumeSend(ctx);
    const email = input.email.toLowerCase();
    const [member] = await db
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.accountId, ctx.accountId), sql`lower(${users.email}) = ${email}`))
      .limit(1);
    if (member) throw AppError.field('validation_error', 'email', teamTexts.alreadyMember);

    const now = clock.now();
    const alreadyInvited = () => AppError.field('validation_error', 'email', teamTexts.alreadyInvited);
    const [open] = await db
      .select()
      .from(invitations)
      .where(and(inAccount(ctx), eq(invitations.email, email), isOpen))
      .limit(1);
    if (open) {
      if (invitationStatusOf(open, now) === 'pending') throw alreadyInvited();
      await db
        .update(invitations)
        .set({ revokedAt: now })
        .where(and(inAccount(ctx), eq(invitations.id, open.id), isOpen));
    }

    const { key, keyHash } = newKey();
    let row: InvitationRow | undefined;
    try {
      row = await transaction(db, async (tx) => {
        const [inserted] = await tx
          .insert(invitations)
          .values({
            accountId: ctx.accountId,
            email,
            role: input.role,
            canSearchData: input.canSearchData,
            canViewReports: input.canViewReports,
            keyHash,
            invitedByUserId: memberOf(ctx).user.id,
            createdAt: now,
            expiresAt: new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS),
            lastSentAt: now,
          })
          .returning();
        if (!inserted) return undefined;
        await enqueueEmail(tx, inserted.id, key);
        await audit.record(tx, ctx, {
          action: 'invitation.sent',
          targets: [invitationTarget(inserted)],
          changes: {
            role: [null, inserted.role],
            canSearchData: [null, inserted.canSearchData],
            canViewReports: [null, inserted.canViewReports],
          },
        });
        return inserted;
      });
    } catch (error) {
      // Two invitations of one address at once: the partial unique index lets one through.
      if (isUniqueViolation(error)) throw alreadyInvited();
      throw error;
    }
    if (!row) throw new Error('Invitation insert returned no row');
    const found = await findScoped(ctx, row.id);
    if (!found) throw new Error('Invitation vanished after insert');
    return toDto(row, found.account, found.inviter);
  }

  /**
   * manageTeam. A new key (the old link dies), expiry re-armed to INVITATION_VALID_DAYS from now, and the e-mail
   * again; at most once every INVITATION_RESEND_SECONDS (counting the first send). Accepted or revoked: 404.
   */
  async function resend(ctx: AccountContext, id: number): Promise<Invitation> {
    const found = await findScoped(ctx, id);
    if (!found || found.invitation.acceptedAt || found.invitation.revokedAt) throw new AppError('not_found');
    const now = clock.now();
    const waitMs = found.invitation.lastSentAt.getTime() + INVITATION_RESEND_SECONDS * 1000 - now.getTime();
    if (waitMs > 0) {
      throw tooMany({ allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) }, tooManyRequestsText);
    }
    await consumeSend(ctx);
    const { key, keyHash } = newKey();
    // Conditional on the send time read above: of two concurrent resends only one goes out.
    const row = await transaction(db, async (tx) => {
      const [updated] = await tx
        .update(invitations)
        .set({
          keyHash,
          lastSentAt: now,
          expiresAt: new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS),
        })
        .where(
          and(
            inAccount(ctx),
            eq(invitations.id, id),
            isOpen,
            eq(invitations.lastSentAt, found.invitation.lastSentAt),
          ),
        )
        .returning();
      if (!updated) return undefined;
      await enqueueEmail(tx, updated.id, key);
      await audit.record(tx, ctx, { action: 'invitation.resent', targets: [invitationTarget(updated)] });
      return updated;
    });
    if (!row) {
      throw tooMany({ allowed: false, retryAfterSeconds: INVITATION_RESEND_SECONDS }, tooManyRequestsText);
    }
    return toDto(row, found.account, found.inviter);
  }

  /**
   * manageTeam. Revokes an open invitation (its link then says so); accepted or revoked already: 404. (Invitations
   * revoked as a side effect — an expired one superseded by a new one, those of an inviter removed or demoted — are
   * in the log through the event that caused them, not as revocations of their own.)
   */
  async function revoke(ctx: AccountContext, id: number): Promise<void> {
    await transaction(db, async (tx) => {
      const [row] = await tx
        .update(invitations)
        .set({ revokedAt: clock.now() })
        .where(and(inAccount(ctx), eq(invitations.id, id), isOpen))
        .returning({ id: invitations.id, email: invitations.email });
      if (!row) throw new AppError('not_found');
      await audit.record(tx, ctx, { action: 'invitation.revoked', targets: [invitationTarget(row)] });
    });
  }

  async function findByKey(key: string) {
    if (!KEY_PATTERN.test(key)) return undefined;
    const [row] = await withAccountAndInviter()
      .where(eq(invitations.keyHash, sha256Hex(key)))
      .limit(1);
    return row;
  }

  /**
   * Why the invitation cannot be accepted (null: it can). One whose inviter may no longer invite is revoked, unless
   * `inviter` is false (accept checks that itself, under the account's lock).
   */
  function errorOf(
    found: Awaited<ReturnType<typeof findByKey>>,
    now: Date,
    { inviter = true } = {},
  ): InvitationErrorCode | null {
    if (!found) return 'not_found';
    const status = invitationStatusOf(found.invitation, now);
    if (status !== 'pending') return status;
    return !inviter || inviterMayInvite(found.inviterMembership) ? null : 'revoked';
  }

  /** `extra` of the follow-invitation pages: checks the key, consumes nothing (mail scanners prefetch links). */
  async function pageExtra(key: string | undefined): Promise<FollowInvitationExtra> {
    const failed = (code: InvitationErrorCode): FollowInvitationExtra => ({
      followInvitation: { hasError: true },
      followInvitationError: { code, message: invitationErrorTexts[code] },
    });
    if (!key) return failed('missing');
    const found = await findByKey(key);
    const code = errorOf(found, clock.now());
    if (code || !found) return failed(code ?? 'not_found');
    const { invitation, account, inviter } = found;
    return {
      followInvitation: {
        hasError: false,
        key,
        email: invitation.email,
        role: invitation.role,
        accountName: account.displayName,
        invitedByName: inviter?.name || inviter?.email || '',
        expiresAt: invitation.expiresAt.toISOString(),
        userExists: (await findUserByEmail(db, invitation.email)) !== undefined,
      },
    };
  }

  /**
   * The logged-in user accepts with the key. The address must be the invited one (case-insensitive). Creates the
   * membership with the invited role and permissions — or, when the user is already a member, keeps that membership
   * as it is and only marks the invitation accepted. The link proves the mailbox, so an unverified address becomes
   * verified. The membership becomes this session's current one. Recorded as `invitation.accepted` in the
   * invitation's account only (the user's other companies hear nothing), with the membership's rights when it is new.
   */
  async function accept(
    user: UserRow,
    session: SessionRow,
    key: string,
    origin: RequestOrigin & { ip: string },
  ): Promise<Membership> {
    const { perUser, perIp, windowMs } = INVITATION_ACCEPT_LIMITS;
    await rateLimit.consume(
      [
        { bucket: `invitation-accept:user:${user.id}`, limit: perUser, windowMs },
        { bucket: `invitation-accept:ip:${ipKey(origin.ip)}`, limit: perIp, windowMs },
      ],
      tooManyRequestsText,
    );
    const found = await findByKey(key);
    const code = errorOf(found, clock.now(), { inviter: false });
    if (code || !found) throw invitationError(code ?? 'not_found');
    const { invitation, account } = found;
    if (user.email.toLowerCase() !== invitation.email) {
      throw AppError.nonField('invitation_wrong_invitee', teamTexts.wrongInvitee(invitation.email));
    }

    const now = clock.now();
    const outcome = await transaction(db, async (tx) => {
      // The account's lock, shared: accepts run side by side, while a membership change (removal, demotion) that
      // holds it exclusively runs wholly before or after. Under it the inviter must still be one who may invite.
      await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.id, invitation.accountId))
        .for('share');
      const [inviter] = invitation.invitedByUserId
        ? await tx
            .select()
            .from(memberships)
            .where(
              and(
                eq(memberships.accountId, invitation.accountId),
                eq(memberships.userId, invitation.invitedByUserId),
              ),
            )
            .limit(1)
        : [];
      if (!inviterMayInvite(inviter)) {
        await tx
          .update(invitations)
          .set({ revokedAt: now })
          .where(and(eq(invitations.id, invitation.id), isOpen));
        return 'inviter_gone' as const;
      }
      // Claim first: of two concurrent accepts (or an accept racing a revoke or resend) only one gets the row.
      const [claimed] = await tx
        .update(invitations)
        .set({ acceptedAt: now })
        .where(
          and(
            eq(invitations.id, invitation.id),
            eq(invitations.keyHash, invitation.keyHash),
            isOpen,
            gt(invitations.expiresAt, now),
          ),
        )
        .returning();
      if (!claimed) return 'lost' as const;
      const [inserted] = await tx
        .insert(memberships)
        .values({
          userId: user.id,
          accountId: claimed.accountId,
          role: claimed.role,
          canSearchData: claimed.canSearchData,
          canViewReports: claimed.canViewReports,
          createdAt: now,
        })
        .onConflictDoNothing({ target: [memberships.userId, memberships.accountId] })
        .returning();
      const [row] = inserted
        ? [inserted]
        : await tx
            .select()
            .from(memberships)
            .where(and(eq(memberships.userId, user.id), eq(memberships.accountId, claimed.accountId)))
            .limit(1);
      if (!row) throw new Error('Membership neither inserted nor found');
      await tx
        .update(invitations)
        .set({ acceptedMembershipId: row.id })
        .where(eq(invitations.id, claimed.id));
      await tx
        .update(users)
        .set({ emailIsVerified: true, emailVerifiedAsOf: now })
        .where(and(eq(users.id, user.id), eq(users.emailIsVerified, false)));
      // Only a membership this accept made is new to the account's receivers.
      if (inserted) {
        await webhookEvents.emit(tx, claimed.accountId, {
          type: 'membership.created',
          data: toApiMembership(inserted, user),
        });
      }
      await audit.recordForUserIn(tx, claimed.accountId, user, origin, {
        action: 'invitation.accepted',
        targets: [invitationTarget(claimed), { type: 'membership', id: String(row.id), name: user.email }],
        // An existing membership is kept as it was: nothing about it changed.
        changes: inserted
          ? {
              role: [null, row.role],
              canSearchData: [null, row.canSearchData],
              canViewReports: [null, row.canViewReports],
            }
          : undefined,
      });
      return row;
    });
    if (outcome === 'inviter_gone') throw invitationError('revoked');
    if (outcome === 'lost') {
      const again = await findByKey(key);
      throw invitationError(errorOf(again, clock.now()) ?? 'accepted');
    }
    const membership = outcome;
    await sessions.setCurrentMembership(session.idHash, membership.id);
    return toMembershipDto(membership, account);
  }

  return { list, create, resend, revoke, pageExtra, accept, deliverEmail };
}

export type InvitationService = ReturnType<typeof createInvitationService>;

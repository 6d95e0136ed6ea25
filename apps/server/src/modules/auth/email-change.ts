import {
  EMAIL_CHANGE_RESEND_SECONDS,
  EMAIL_CHANGE_VALID_DAYS,
  type EmailChangeRequest,
  type EmailChangeStatus,
  emailChangeStatusDisplay,
  errorTexts,
  SUPPORT_EMAIL,
  serverTexts,
  tooManyRequestsText,
} from '@veriform/contracts';
import type { Tx } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { sendEmailChangeLink } from '../../jobs/definitions/send-email-change-link.ts';
import { sendEmailChangeRequestedNotice } from '../../jobs/definitions/send-email-change-requested-notice.ts';
import {
  emailChangedAddressesSeal,
  sendEmailChangedNotice,
} from '../../jobs/definitions/send-email-changed-notice.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import { signedLink } from '../../lib/signed-links.ts';
import { changeEmailMessage, emailChangedMessage } from '../../messaging/templates/change-email.ts';
import { emailChangeRequestedMessage } from '../../messaging/templates/change-email-requested.ts';
import type { RequestOrigin } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';
import { findUserByEmail, findUserById, type UserRow } from '../users/index.ts';
import { invalidTokenError } from './errors.ts';
import type { LinkMailDeps } from './link-mail.ts';

const { emailChangeRequests, users } = schema;

export type EmailChangeRow = typeof emailChangeRequests.$inferSelect;
type PendingChange = { user: UserRow; row: EmailChangeRow };

const MINUTE_MS = 60 * 1000;
const VALID_MS = EMAIL_CHANGE_VALID_DAYS * 24 * 60 * MINUTE_MS;
/**
 * Requests and resends per user and per IP and hour (every call counts, refused ones included, so the "address
 * taken" answer cannot be used to harvest addresses quickly), and at most one change e-mail per user every 30 s.
 */
export const EMAIL_CHANGE_LIMITS = { perUser: 10, perIp: 30, windowMs: 60 * MINUTE_MS };

/** SPEC §4: '' without a request; "expired" is computed, never stored. */
export function emailChangeStatusOf(row: EmailChangeRow | undefined, now: Date): EmailChangeStatus {
  if (!row) return '';
  if (row.status === 'successfully_changed') return 'successfully_changed';
  return now.getTime() - row.requestedAt.getTime() > VALID_MS ? 'expired' : 'pending';
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * Changing the login's e-mail address (SPEC §3, §4): the user asks for a new address, a signed link goes to that
 * address, and opening it (on any device, logged in or not) makes the change. One row per user, reused.
 *
 * The link's state is the request's id, target, requested-at and status (and the user's current address): it works
 * once, and dies when a newer request replaces it or the address changes otherwise.
 *
 * Asking needs the current password (checked by the auth service's shared helper, so wrong ones count as failed
 * logins), and the OLD address is told at once with a link that cancels the request (same state, its own purpose):
 * a stolen session alone cannot move the login to another mailbox, and the mailbox's owner hears of any attempt.
 */
export function createEmailChange(
  deps: LinkMailDeps & {
    /** The auth service's checkCurrentPassword: a 400 on `field` when wrong, counted in the failed-login buckets. */
    checkPassword: (user: UserRow, password: string, ip: string, field: string) => Promise<void>;
    /** The audit log (issue #16): write with the change's own transaction. */
    audit: AuditLog;
  },
) {
  const { config, db, clock, tokens, mailer, jobs, sealer, rateLimit, checkPassword, audit } = deps;
  /** The target was taken after the request was made (a sign-up, another change): nothing to put it on but the whole. */
  const takenError = () => new AppError('email_taken', { nonFieldErrors: [errorTexts.emailTaken] });

  async function findRow(userId: number): Promise<EmailChangeRow | undefined> {
    const [row] = await db
      .select()
      .from(emailChangeRequests)
      .where(eq(emailChangeRequests.userId, userId))
      .limit(1);
    return row;
  }

  /** The user's request while it is pending (not changed yet, not expired): what both links act on. */
  async function pendingRequestOf(userId: number): Promise<PendingChange | undefined> {
    const user = await findUserById(db, userId);
    if (!user) return undefined;
    const row = await findRow(user.id);
    if (!row || emailChangeStatusOf(row, clock.now()) !== 'pending') return undefined;
    return { user, row };
  }

  const linkSpec = {
    tokens,
    publicUrl: config.publicUrl,
    maxAgeSeconds: VALID_MS / 1000,
    load: pendingRequestOf,
    userIdOf: ({ user }: PendingChange) => user.id,
    state: ({ user, row }: PendingChange) => [
      String(row.id),
      row.toEmail,
      row.requestedAt.toISOString(),
      row.status,
      user.email,
    ],
  };
  /** To the NEW address: opening it makes the change. */
  const confirmLink = signedLink({ ...linkSpec, purpose: 'change-email' });
  /** To the OLD address: its page (GET shows it, its button POSTs) calls the request off. */
  const cancelLink = signedLink({ ...linkSpec, purpose: 'change-email-cancel' });

  function toDto(user: UserRow, row: EmailChangeRow | undefined): EmailChangeRequest {
    const status = emailChangeStatusOf(row, clock.now());
    return {
      id: row?.id ?? null,
      user: user.id,
      fromEmail: row?.fromEmail ?? '',
      toEmail: row?.toEmail ?? '',
      requestedAt: iso(row?.requestedAt ?? null),
      successfullyChangedAt: iso(row?.successfullyChangedAt ?? null),
      lastRequestedANewFromOrToEmailAt: iso(row?.lastRequestedANewFromOrToEmailAt ?? null),
      lastSentAChangeEmailAt: iso(row?.lastSentAChangeEmailAt ?? null),
      lastSuccessfullyChangedAt: iso(row?.lastSuccessfullyChangedAt ?? null),
      status,
      status_display: emailChangeStatusDisplay[status],
    };
  }

  async function consumeAttempt(user: UserRow, ip: string): Promise<void> {
    const { perUser, perIp, windowMs } = EMAIL_CHANGE_LIMITS;
    await rateLimit.consume(
      [
        { bucket: `change-email:user:${user.id}`, limit: perUser, windowMs },
        { bucket: `change-email:ip:${ipKey(ip)}`, limit: perIp, windowMs },
      ],
      tooManyRequestsText,
    );
  }

  async function consumeSend(user: UserRow): Promise<void> {
    await rateLimit.consume(
      [
        {
          bucket: `change-email-send:user:${user.id}`,
          limit: 1,
          windowMs: EMAIL_CHANGE_RESEND_SECONDS * 1000,
        },
      ],
      tooManyRequestsText,
    );
  }

  /**
   * Queues, by the transaction that armed the request, the link to the NEW address and, when `notifyOldAddress`, the
   * notice with the cancel link to the old one (whenever a request is armed: made, or an expired one re-armed).
   */
  async function enqueueEmails(tx: Tx, row: EmailChangeRow, notifyOldAddress: boolean): Promise<void> {
    const request = { userId: row.userId, requestedAt: row.requestedAt.toISOString() };
    await jobs.enqueue(sendEmailChangeLink, request, { tx });
    if (notifyOldAddress) await jobs.enqueue(sendEmailChangeRequestedNotice, request, { tx });
  }

  /** The request a job names (user, requested-at), while it is still pending: else its e-mail has nothing to say. */
  async function stillPending(userId: number, requestedAt: string): Promise<PendingChange | undefined> {
    const found = await pendingRequestOf(userId);
    return found?.row.requestedAt.toISOString() === requestedAt ? found : undefined;
  }

  /** The send-email-change-link job's work: the confirmation link, minted now, to the NEW address. */
  async function deliverLink(userId: number, requestedAt: string): Promise<'sent' | 'skipped'> {
    const found = await stillPending(userId, requestedAt);
    if (!found) return 'skipped';
    const { user, row } = found;
    await mailer.send(
      changeEmailMessage({
        to: row.toEmail,
        name: user.name,
        fromEmail: user.email,
        link: confirmLink.linkFor(found),
        validForDays: EMAIL_CHANGE_VALID_DAYS,
      }),
    );
    return 'sent';
  }

  /** The send-email-change-requested-notice job's work: the cancel link, minted now, to the OLD address. */
  async function deliverRequestedNotice(userId: number, requestedAt: string): Promise<'sent' | 'skipped'> {
    const found = await stillPending(userId, requestedAt);
    if (!found) return 'skipped';
    const { user, row } = found;
    await mailer.send(
      emailChangeRequestedMessage({
        to: user.email,
        name: user.name,
        toEmail: row.toEmail,
        cancelLink: cancelLink.linkFor(found),
        validForDays: EMAIL_CHANGE_VALID_DAYS,
        supportEmail: SUPPORT_EMAIL,
      }),
    );
    return 'sent';
  }

  /** The send-email-changed-notice job's work: the OLD address hears that the login moved. */
  async function deliverChangedNotice(
    userId: number,
    addresses: { from: string; to: string },
  ): Promise<'sent' | 'skipped'> {
    const user = await findUserById(db, userId);
    if (!user) return 'skipped';
    await mailer.send(
      emailChangedMessage({
        to: addresses.from,
        name: user.name,
        newEmail: addresses.to,
        supportEmail: SUPPORT_EMAIL,
      }),
    );
    return 'sent';
  }

  async function retrieve(user: UserRow): Promise<EmailChangeRequest> {
    return toDto(user, await findRow(user.id));
  }

  /**
   * Checks the current password, creates or replaces the user's request (pending from now), sends the link to the new
   * address and the cancel link to the old one.
   */
  async function request(
    user: UserRow,
    input: { toEmail: string; password: string },
    ip: string,
  ): Promise<EmailChangeRequest> {
    const toEmail = input.toEmail.trim().toLowerCase();
    if (toEmail === user.email.toLowerCase()) {
      throw AppError.field('validation_error', 'toEmail', serverTexts.sameEmail);
    }
    await consumeAttempt(user, ip);
    // Before the address is looked up: without the password, nobody learns which addresses are taken either.
    await checkPassword(user, input.password, ip, 'password');
    const holder = await findUserByEmail(db, toEmail);
    if (holder && holder.id !== user.id)
      throw AppError.field('email_taken', 'toEmail', errorTexts.emailTaken);
    await consumeSend(user);

    const now = clock.now();
    const previous = await findRow(user.id);
    const newFromOrTo = !previous || previous.fromEmail !== user.email || previous.toEmail !== toEmail;
    const values = {
      fromEmail: user.email,
      toEmail,
      requestedAt: now,
      successfullyChangedAt: null,
      lastSentAChangeEmailAt: now,
      status: 'pending' as const,
      ...(newFromOrTo ? { lastRequestedANewFromOrToEmailAt: now } : {}),
    };
    const row = await transaction(db, async (tx) => {
      const [upserted] = await tx
        .insert(emailChangeRequests)
        .values({ userId: user.id, ...values })
        .onConflictDoUpdate({ target: emailChangeRequests.userId, set: values })
        .returning();
      if (!upserted) throw new Error('E-mail change upsert returned no row');
      await enqueueEmails(tx, upserted, true);
      return upserted;
    });
    return toDto(user, row);
  }

  /** Sends the pending request's link again; an expired request is re-armed (pending from now) first. */
  async function resend(user: UserRow, ip: string): Promise<EmailChangeRequest> {
    await consumeAttempt(user, ip);
    const row = await findRow(user.id);
    const status = emailChangeStatusOf(row, clock.now());
    if (!row || (status !== 'pending' && status !== 'expired') || row.fromEmail !== user.email) {
      throw AppError.nonField('validation_error', serverTexts.emailChangeNothingPending);
    }
    const holder = await findUserByEmail(db, row.toEmail);
    if (holder && holder.id !== user.id) throw takenError();
    await consumeSend(user);
    const now = clock.now();
    const updated = await transaction(db, async (tx) => {
      const [rearmed] = await tx
        .update(emailChangeRequests)
        .set({ lastSentAChangeEmailAt: now, ...(status === 'expired' ? { requestedAt: now } : {}) })
        .where(eq(emailChangeRequests.id, row.id))
        .returning();
      if (!rearmed) throw AppError.nonField('validation_error', serverTexts.emailChangeNothingPending);
      // Re-armed: the old address's cancel link (bound to requested-at) died with the expiry; it gets a fresh one.
      await enqueueEmails(tx, rearmed, status === 'expired');
      return rearmed;
    });
    return toDto(user, updated);
  }

  /** The request a token was checked against, still pending and unchanged: of two racing uses, one finds it. */
  function stillTheRequestOf(row: EmailChangeRow) {
    return and(
      eq(emailChangeRequests.id, row.id),
      eq(emailChangeRequests.status, 'pending'),
      eq(emailChangeRequests.toEmail, row.toEmail),
      eq(emailChangeRequests.requestedAt, row.requestedAt),
    );
  }

  /**
   * The old address calls the pending request off: the row goes (status '' again, as before any request), so the
   * confirmation link dies with it. Conditional on the state the token was checked against: racing a confirmation,
   * exactly one of the two wins. Needs no session: the mailbox may be read anywhere.
   */
  async function cancel(uidb64: string, token: string): Promise<void> {
    const found = await cancelLink.subjectFor(uidb64, token);
    if (!found) throw invalidTokenError();
    const { row } = found;
    const [deleted] = await db
      .delete(emailChangeRequests)
      .where(stillTheRequestOf(row))
      .returning({ id: emailChangeRequests.id });
    if (!deleted) throw invalidTokenError();
  }

  /**
   * Makes the change: the new address is the login's, verified as of now (the link proved the mailbox); the old
   * address hears about it. Answers the updated user. Needs no session: the link may be opened on another device.
   * The audit log of each of the user's accounts has the change, by the user under the new address, from wherever
   * the link was opened.
   */
  async function confirm(uidb64: string, token: string, origin: RequestOrigin): Promise<UserRow> {
    const found = await confirmLink.subjectFor(uidb64, token);
    if (!found) throw invalidTokenError();
    const { user, row } = found;
    // Someone else may have taken the address since the request (sign-up, another change).
    const holder = await findUserByEmail(db, row.toEmail);
    if (holder && holder.id !== user.id) throw takenError();

    const now = clock.now();
    try {
      return await transaction(db, async (tx) => {
        // Conditional on the state the token was checked against: of two concurrent confirmations one succeeds.
        const [claimed] = await tx
          .update(emailChangeRequests)
          .set({ status: 'successfully_changed', successfullyChangedAt: now, lastSuccessfullyChangedAt: now })
          .where(stillTheRequestOf(row))
          .returning({ id: emailChangeRequests.id });
        if (!claimed) throw invalidTokenError();
        const [changed] = await tx
          .update(users)
          .set({ email: row.toEmail, emailIsVerified: true, emailVerifiedAsOf: now })
          .where(and(eq(users.id, user.id), eq(users.email, user.email)))
          .returning();
        if (!changed) throw invalidTokenError();
        const addresses = JSON.stringify({ from: user.email, to: changed.email });
        const sealedAddresses = sealer.seal(addresses, emailChangedAddressesSeal(user.id));
        await jobs.enqueue(sendEmailChangedNotice, { userId: user.id, sealedAddresses }, { tx });
        await audit.recordForUser(tx, changed, origin, {
          action: 'user.email_changed',
          targets: [auditTarget.user(changed)],
          changes: { email: [user.email, changed.email] },
        });
        return changed;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw takenError();
      throw error;
    }
  }

  return {
    retrieve,
    request,
    resend,
    isValid: confirmLink.isValid,
    confirm,
    isCancelValid: cancelLink.isValid,
    cancel,
    deliverLink,
    deliverRequestedNotice,
    deliverChangedNotice,
  };
}

export type EmailChange = ReturnType<typeof createEmailChange>;

import {
  RESET_PASSWORD_VALID_HOURS,
  type ResetPasswordConfirmRequest,
  serverTexts,
} from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import {
  resetPasswordAddressSeal,
  sendResetPasswordEmail,
} from '../../jobs/definitions/send-reset-password-email.ts';
import type { Passwords } from '../../lib/passwords.ts';
import type { SessionStore } from '../../lib/session-store.ts';
import { signedLink } from '../../lib/signed-links.ts';
import { resetPasswordMessage } from '../../messaging/templates/reset-password.ts';
import type { RequestOrigin } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';
import { findUserById, type UserRow } from '../users/index.ts';
import { reserveAddressMail } from './address-mail-limits.ts';
import { invalidTokenError } from './errors.ts';
import { type LinkMailDeps, mailUserAt } from './link-mail.ts';

const { users } = schema;

/**
 * Forgotten password by a signed link (lib/signed-links.ts), Django-style. The token's state is the password hash, the
 * last login and the address: setting the password (or logging in, or changing the address) kills every link sent
 * before, so a link works once.
 */
export function createPasswordReset(
  deps: LinkMailDeps & {
    sessions: SessionStore;
    /** The audit log (issue #16): write with the change's own transaction. */
    audit: AuditLog;
    passwords: Passwords;
  },
) {
  const { config, db, clock, tokens, jobs, sealer, rateLimit, sessions, audit } = deps;
  const { hashPassword } = deps.passwords;
  const link = signedLink({
    tokens,
    publicUrl: config.publicUrl,
    purpose: 'reset-password',
    maxAgeSeconds: RESET_PASSWORD_VALID_HOURS * 60 * 60,
    load: (id) => findUserById(db, id),
    userIdOf: (user) => user.id,
    state: (user) => [user.passwordHash, user.lastLoginAt?.toISOString() ?? '', user.email],
  });

  /**
   * Always the same answer, after the same work: the job (jobs/definitions/send-reset-password-email.ts) is queued
   * whether or not the address is a user's, so neither the answer nor its timing says whether there is an account.
   */
  async function request(email: string, ip: string): Promise<string> {
    const address = email.toLowerCase();
    if (await reserveAddressMail(rateLimit, 'reset-password', address, ip)) {
      const sealedEmail = sealer.seal(address, resetPasswordAddressSeal);
      await jobs.enqueue(sendResetPasswordEmail, { sealedEmail });
    }
    return serverTexts.resetPasswordSent;
  }

  /** The job's work: a link minted now, when the address is a user's. */
  function deliver(email: string): Promise<'sent' | 'skipped'> {
    return mailUserAt(deps, email, (user) =>
      resetPasswordMessage({
        to: user.email,
        name: user.name,
        link: link.linkFor(user),
        validForHours: RESET_PASSWORD_VALID_HOURS,
      }),
    );
  }

  /**
   * Sets the new password and ends every session of the user. The link proved the mailbox, so an unverified
   * address becomes verified. Answers the updated user. The change is in the audit log of each of the user's accounts,
   * by the user (the link proved who they are), from wherever the link was opened.
   */
  async function confirm(input: ResetPasswordConfirmRequest, origin: RequestOrigin): Promise<UserRow> {
    const user = await link.subjectFor(input.uidb64, input.token);
    if (!user) throw invalidTokenError();
    const passwordHash = await hashPassword(input.newPassword);
    const now = clock.now();
    const unchanged: SQL[] = [
      eq(users.id, user.id),
      eq(users.passwordHash, user.passwordHash),
      eq(users.email, user.email),
      user.lastLoginAt ? eq(users.lastLoginAt, user.lastLoginAt) : isNull(users.lastLoginAt),
    ];
    const updated = await transaction(db, async (tx) => {
      // Conditional on the state the token was checked against: of two concurrent uses only one succeeds.
      const [row] = await tx
        .update(users)
        .set({
          passwordHash,
          passwordChangedAt: now,
          ...(user.emailIsVerified ? {} : { emailIsVerified: true, emailVerifiedAsOf: now }),
        })
        .where(and(...unchanged))
        .returning();
      if (!row) throw invalidTokenError();
      await audit.recordForUser(tx, row, origin, {
        action: 'user.password_changed',
        targets: [auditTarget.user(row)],
      });
      return row;
    });
    await sessions.removeAllOfUser(user.id);
    // Whoever was guessing this login's password is no longer relevant: the owner chose a new one.
    await rateLimit.reset(`login-fail:email:${user.email}`);
    return updated;
  }

  return { request, deliver, isValid: link.isValid, confirm };
}

export type PasswordReset = ReturnType<typeof createPasswordReset>;

import { serverTexts } from '@veriform/contracts';
import type { Tx } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { sendVerifyEmail, verifyEmailAddressSeal } from '../../jobs/definitions/send-verify-email.ts';
import { signedLink } from '../../lib/signed-links.ts';
import { verifyEmailMessage } from '../../messaging/templates/verify-email.ts';
import { findUserById, type UserRow } from '../users/index.ts';
import { reserveAddressMail } from './address-mail-limits.ts';
import { invalidTokenError } from './errors.ts';
import { type LinkMailDeps, mailUserAt } from './link-mail.ts';

const { users } = schema;

export const VERIFY_EMAIL_VALID_DAYS = 3;

/**
 * E-mail verification by a signed link (lib/signed-links.ts). The link's state is the address and its verification
 * status, so it stops working once used, or when the address or password changes. The e-mail is a job
 * (jobs/definitions/send-verify-email.ts) that mints the link when it sends.
 */
export function createEmailVerification(deps: LinkMailDeps) {
  const { config, db, clock, tokens, jobs, sealer, rateLimit } = deps;
  const link = signedLink({
    tokens,
    publicUrl: config.publicUrl,
    purpose: 'verify-email',
    maxAgeSeconds: VERIFY_EMAIL_VALID_DAYS * 24 * 60 * 60,
    load: (id) => findUserById(db, id),
    userIdOf: (user) => user.id,
    state: (user) => [
      user.email,
      String(user.emailIsVerified),
      user.emailVerifiedAsOf?.toISOString() ?? '',
      user.passwordHash,
    ],
  });

  /** Queues the e-mail to `email` (by `tx`, when it follows a write); whose address it is, the job finds out. */
  async function enqueueLink(email: string, tx?: Tx): Promise<void> {
    const sealedEmail = sealer.seal(email, verifyEmailAddressSeal);
    await jobs.enqueue(sendVerifyEmail, { sealedEmail }, { tx });
  }

  /** The job's work: a link to the address, when it is an unverified user's. */
  function deliver(email: string): Promise<'sent' | 'skipped'> {
    return mailUserAt(deps, email, (user) =>
      user.emailIsVerified
        ? null
        : verifyEmailMessage({
            to: user.email,
            name: user.name,
            link: link.linkFor(user),
            validForDays: VERIFY_EMAIL_VALID_DAYS,
          }),
    );
  }

  async function confirm(uidb64: string, token: string): Promise<UserRow> {
    const user = await link.subjectFor(uidb64, token);
    if (!user) throw invalidTokenError();
    // Conditional on the state the token was checked against: of two concurrent confirmations only one succeeds.
    const [updated] = await db
      .update(users)
      .set({ emailIsVerified: true, emailVerifiedAsOf: clock.now() })
      .where(
        and(
          eq(users.id, user.id),
          eq(users.emailIsVerified, false),
          eq(users.email, user.email),
          eq(users.passwordHash, user.passwordHash),
        ),
      )
      .returning();
    if (!updated) throw invalidTokenError();
    return updated;
  }

  /**
   * Always the same answer, after the same work: the job is queued whether or not the address is a user's (it sends
   * only to an unverified user), so neither the answer nor its timing says whether there is an account.
   */
  async function resend(email: string, ip: string): Promise<string> {
    const address = email.toLowerCase();
    if (await reserveAddressMail(rateLimit, 'verify-email-send', address, ip)) await enqueueLink(address);
    return serverTexts.resendVerificationEmail;
  }

  return { enqueueLink, deliver, isValid: link.isValid, confirm, resend };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;

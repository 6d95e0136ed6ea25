import { serverTexts } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Background } from '../../lib/background.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { signedLink } from '../../lib/signed-links.ts';
import type { TokenSigner } from '../../lib/tokens.ts';
import type { Mailer } from '../../messaging/email.ts';
import { verifyEmailMessage } from '../../messaging/templates/verify-email.ts';
import { findUserByEmail, findUserById, type UserRow } from '../users/repository.ts';
import { reserveAddressMail } from './address-mail-limits.ts';
import { invalidTokenError } from './errors.ts';

const { users } = schema;

export const VERIFY_EMAIL_VALID_DAYS = 3;

/**
 * E-mail verification by a signed link (lib/signed-links.ts). The link's state is the address and its verification
 * status, so it stops working once used, or when the address or password changes.
 */
export function createEmailVerification(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: TokenSigner;
  mailer: Mailer;
  background: Background;
  rateLimit: RateLimiter;
}) {
  const { config, db, clock, tokens, mailer, background, rateLimit } = deps;
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
  const { linkFor, isValid } = link;

  function sendLink(user: UserRow): void {
    const message = verifyEmailMessage({
      to: user.email,
      name: user.name,
      link: linkFor(user),
      validForDays: VERIFY_EMAIL_VALID_DAYS,
    });
    background.run('verification e-mail', () => mailer.send(message));
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

  /** Always the same answer; sends only when the address belongs to an unverified user. */
  async function resend(email: string, ip: string): Promise<string> {
    const address = email.toLowerCase();
    const send = await reserveAddressMail(rateLimit, 'verify-email-send', address, ip);
    const user = send ? await findUserByEmail(db, address) : undefined;
    if (user && !user.emailIsVerified) sendLink(user);
    return serverTexts.resendVerificationEmail;
  }

  return { linkFor, sendLink, isValid, confirm, resend };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;

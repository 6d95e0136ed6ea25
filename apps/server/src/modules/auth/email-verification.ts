import { serverTexts } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Background } from '../../lib/background.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { decodeUid, encodeUid, type TokenSigner } from '../../lib/tokens.ts';
import type { Mailer } from '../../messaging/email.ts';
import { verifyEmailMessage } from '../../messaging/templates/verify-email.ts';
import { findUserByEmail, findUserById, type UserRow } from '../users/repository.ts';
import { reserveAddressMail } from './address-mail-limits.ts';
import { invalidTokenError } from './errors.ts';

const { users } = schema;

export const VERIFY_EMAIL_VALID_DAYS = 3;

export const verifyEmailPath = (uidb64: string, token: string) =>
  `/auth/verify-email/confirm/${uidb64}/${token}/`;

/**
 * E-mail verification by a signed link (see lib/tokens.ts). The link's state is the address and its verification
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
  const maxAgeSeconds = VERIFY_EMAIL_VALID_DAYS * 24 * 60 * 60;

  const stateOf = (user: UserRow) => [
    user.email,
    String(user.emailIsVerified),
    user.emailVerifiedAsOf?.toISOString() ?? '',
    user.passwordHash,
  ];

  /** Built from PUBLIC_URL, never from the request's Host header. */
  function linkFor(user: UserRow): string {
    const token = tokens.make('verify-email', user.id, stateOf(user));
    return `${config.publicUrl}${verifyEmailPath(encodeUid(user.id), token)}`;
  }

  function sendLink(user: UserRow): void {
    const message = verifyEmailMessage({
      to: user.email,
      name: user.name,
      link: linkFor(user),
      validForDays: VERIFY_EMAIL_VALID_DAYS,
    });
    background.run('verification e-mail', () => mailer.send(message));
  }

  async function userForToken(uidb64: string, token: string): Promise<UserRow | undefined> {
    const id = decodeUid(uidb64);
    if (id === null) return undefined;
    const user = await findUserById(db, id);
    if (!user || !tokens.check('verify-email', user.id, stateOf(user), token, maxAgeSeconds))
      return undefined;
    return user;
  }

  /** For the link's page GET: checks only, consumes nothing (mail scanners prefetch links; DESIGN §5). */
  async function isValid(uidb64: string, token: string): Promise<boolean> {
    return (await userForToken(uidb64, token)) !== undefined;
  }

  async function confirm(uidb64: string, token: string): Promise<UserRow> {
    const user = await userForToken(uidb64, token);
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

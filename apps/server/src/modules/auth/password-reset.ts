import {
  RESET_PASSWORD_VALID_HOURS,
  type ResetPasswordConfirmRequest,
  serverTexts,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Background } from '../../lib/background.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { decodeUid, encodeUid, type TokenSigner } from '../../lib/tokens.ts';
import type { Mailer } from '../../messaging/email.ts';
import { resetPasswordMessage } from '../../messaging/templates/reset-password.ts';
import { findUserByEmail, findUserById, type UserRow } from '../users/repository.ts';
import { reserveAddressMail } from './address-mail-limits.ts';
import { invalidTokenError } from './errors.ts';
import type { SessionStore } from './session-store.ts';

const { users } = schema;

export const resetPasswordPath = (uidb64: string, token: string) =>
  `/auth/reset-password/confirm/${uidb64}/${token}/`;

/**
 * Forgotten password by a signed link (lib/tokens.ts), Django-style. The token's state is the password hash, the
 * last login and the address: setting the password (or logging in, or changing the address) kills every link sent
 * before, so a link works once.
 */
export function createPasswordReset(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: TokenSigner;
  mailer: Mailer;
  background: Background;
  rateLimit: RateLimiter;
  sessions: SessionStore;
}) {
  const { config, db, clock, tokens, mailer, background, rateLimit, sessions } = deps;
  const maxAgeSeconds = RESET_PASSWORD_VALID_HOURS * 60 * 60;

  const stateOf = (user: UserRow) => [user.passwordHash, user.lastLoginAt?.toISOString() ?? '', user.email];

  /** Built from PUBLIC_URL, never from the request's Host header. */
  function linkFor(user: UserRow): string {
    const token = tokens.make('reset-password', user.id, stateOf(user));
    return `${config.publicUrl}${resetPasswordPath(encodeUid(user.id), token)}`;
  }

  /** Always the same answer; sends only when the address belongs to a user. */
  async function request(email: string, ip: string): Promise<string> {
    const address = email.toLowerCase();
    const send = await reserveAddressMail(rateLimit, 'reset-password', address, ip);
    const user = send ? await findUserByEmail(db, address) : undefined;
    if (user) {
      const message = resetPasswordMessage({
        to: user.email,
        name: user.name,
        link: linkFor(user),
        validForHours: RESET_PASSWORD_VALID_HOURS,
      });
      background.run('password reset e-mail', () => mailer.send(message));
    }
    return serverTexts.resetPasswordSent;
  }

  async function userForToken(uidb64: string, token: string): Promise<UserRow | undefined> {
    const id = decodeUid(uidb64);
    if (id === null) return undefined;
    const user = await findUserById(db, id);
    if (!user || !tokens.check('reset-password', user.id, stateOf(user), token, maxAgeSeconds))
      return undefined;
    return user;
  }

  /** For the link's page GET: checks only, consumes nothing (DESIGN §5). */
  async function isValid(uidb64: string, token: string): Promise<boolean> {
    return (await userForToken(uidb64, token)) !== undefined;
  }

  /**
   * Sets the new password and ends every session of the user. The link proved the mailbox, so an unverified
   * address becomes verified. Answers the updated user.
   */
  async function confirm(input: ResetPasswordConfirmRequest): Promise<UserRow> {
    const user = await userForToken(input.uidb64, input.token);
    if (!user) throw invalidTokenError();
    const passwordHash = await hashPassword(input.newPassword);
    const now = clock.now();
    const unchanged: SQL[] = [
      eq(users.id, user.id),
      eq(users.passwordHash, user.passwordHash),
      eq(users.email, user.email),
      user.lastLoginAt ? eq(users.lastLoginAt, user.lastLoginAt) : isNull(users.lastLoginAt),
    ];
    // Conditional on the state the token was checked against: of two concurrent uses only one succeeds.
    const [updated] = await db
      .update(users)
      .set({
        passwordHash,
        passwordChangedAt: now,
        ...(user.emailIsVerified ? {} : { emailIsVerified: true, emailVerifiedAsOf: now }),
      })
      .where(and(...unchanged))
      .returning();
    if (!updated) throw invalidTokenError();
    await sessions.removeAllOfUser(user.id);
    // Whoever was guessing this login's password is no longer relevant: the owner chose a new one.
    await rateLimit.reset(`login-fail:email:${user.email}`);
    return updated;
  }

  return { linkFor, request, isValid, confirm };
}

export type PasswordReset = ReturnType<typeof createPasswordReset>;

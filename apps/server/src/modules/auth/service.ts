import {
  type ChangePasswordRequest,
  type LoginRequest,
  type SignupRequest,
  serverTexts,
  tooManyLoginAttemptsText,
  tooManyRequestsText,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../lib/passwords.ts';
import { type RateLimiter, tooMany } from '../../lib/rate-limit.ts';
import { findUserByEmail, type UserRow } from '../users/repository.ts';
import type { EmailVerification } from './email-verification.ts';
import { emailTakenError, invalidCredentialsError } from './errors.ts';
import type { SessionStore } from './session-store.ts';

const { users } = schema;

const MINUTE_MS = 60 * 1000;
/** Failed logins per address and per IP within the window; then 429 until the oldest counted failure ages out. */
export const LOGIN_FAILURE_LIMITS = { perAddress: 5, perIp: 20, windowMs: 15 * MINUTE_MS };
/**
 * Sign-ups per IP and hour. Sign-up says whether an address is taken (the spec's flow logs the new user in, so it
 * cannot pretend), so attempts are limited to keep that from being used to harvest addresses.
 */
export const SIGNUP_LIMITS = { perIp: 30, windowMs: 60 * MINUTE_MS };

export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  rateLimit: RateLimiter;
  sessions: SessionStore;
  emailVerification: EmailVerification;
}) {
  const { db, clock, rateLimit, sessions, emailVerification } = deps;

  /** The login-failure buckets (per address, per IP): also charged by wrong current passwords. */
  function loginFailureRules(email: string, ip: string) {
    const { windowMs } = LOGIN_FAILURE_LIMITS;
    return [
      { bucket: `login-fail:email:${email.toLowerCase()}`, limit: LOGIN_FAILURE_LIMITS.perAddress, windowMs },
      { bucket: `login-fail:ip:${ip}`, limit: LOGIN_FAILURE_LIMITS.perIp, windowMs },
    ];
  }

  /** Creates the user and sends the verification e-mail; the route then logs the user in. */
  async function signup(input: SignupRequest, ip: string): Promise<UserRow> {
    await rateLimit.consume(
      [{ bucket: `signup:ip:${ip}`, limit: SIGNUP_LIMITS.perIp, windowMs: SIGNUP_LIMITS.windowMs }],
      tooManyRequestsText,
    );
    const email = input.email.toLowerCase();
    if (await findUserByEmail(db, email)) throw emailTakenError();
    const passwordHash = await hashPassword(input.password);
    let user: UserRow | undefined;
    try {
      [user] = await db
        .insert(users)
        .values({ email, name: `${input.firstName} ${input.lastName}`, passwordHash, createdAt: clock.now() })
        .returning();
    } catch (error) {
      // Two sign-ups for one address at once: the unique index decides, the loser hears "taken".
      if (isUniqueViolation(error)) throw emailTakenError();
      throw error;
    }
    if (!user) throw new Error('User insert returned no row');
    emailVerification.sendLink(user);
    return user;
  }

  /**
   * Unknown address and wrong password answer alike and take about as long (a dummy hash is verified for unknown
   * addresses). Failures are counted per address and per IP; a success clears the address's count.
   */
  async function login(input: LoginRequest, ip: string): Promise<UserRow> {
    const email = input.email.toLowerCase();
    const rules = loginFailureRules(email, ip);
    const decision = await rateLimit.checkAll(rules);
    if (!decision.allowed) throw tooMany(decision, tooManyLoginAttemptsText);

    const user = await findUserByEmail(db, email);
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !ok) {
      for (const rule of rules) await rateLimit.hit(rule.bucket);
      throw invalidCredentialsError();
    }
    await rateLimit.reset(`login-fail:email:${email}`);
    await db.update(users).set({ lastLoginAt: clock.now() }).where(eq(users.id, user.id));
    return user;
  }

  /**
   * Checks the current password (wrong guesses count in the same buckets as failed logins, so a stolen session
   * cannot be used to brute-force the password), stores the new one and ends every OTHER session of the user; the
   * route then moves this session to a new id. Answers the updated user.
   */
  async function changePassword(
    user: UserRow,
    keepSessionIdHash: string,
    input: ChangePasswordRequest,
    ip: string,
  ): Promise<UserRow> {
    const rules = loginFailureRules(user.email, ip);
    const decision = await rateLimit.checkAll(rules);
    if (!decision.allowed) throw tooMany(decision, tooManyLoginAttemptsText);
    if (!(await verifyPassword(user.passwordHash, input.previousPassword))) {
      for (const rule of rules) await rateLimit.hit(rule.bucket);
      throw AppError.field('validation_error', 'previousPassword', serverTexts.wrongCurrentPassword);
    }
    await rateLimit.reset(`login-fail:email:${user.email.toLowerCase()}`);
    const [updated] = await db
      .update(users)
      .set({ passwordHash: await hashPassword(input.newPassword), passwordChangedAt: clock.now() })
      .where(eq(users.id, user.id))
      .returning();
    if (!updated) throw new AppError('not_authenticated');
    await sessions.removeAllOfUser(user.id, { exceptIdHash: keepSessionIdHash });
    return updated;
  }

  return { signup, login, changePassword };
}

export type AuthService = ReturnType<typeof createAuthService>;

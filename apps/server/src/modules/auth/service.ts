import {
  type ChangePasswordRequest,
  type LoginRequest,
  type SignupRequest,
  serverTexts,
  tooManyLoginAttemptsText,
  tooManyRequestsText,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import type { Passwords } from '../../lib/passwords.ts';
import { type RateLimiter, type RateLimitRule, type Reservation, tooMany } from '../../lib/rate-limit.ts';
import type { SessionStore } from '../../lib/session-store.ts';
import type { RequestOrigin } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';
import { findUserByEmail, type UserRow } from '../users/index.ts';
import type { EmailVerification } from './email-verification.ts';
import { emailTakenError, invalidCredentialsError } from './errors.ts';

const { users } = schema;

const MINUTE_MS = 60 * 1000;
/**
 * Password guesses (failed logins and wrong current passwords), ADR 12. A client is an address-and-IP pair: 5 guesses
 * per 15 min, and one IP (IPv6 by /64) 20 per 15 min across addresses. Failures from elsewhere never lock a client
 * out, so nobody can lock a known user out from their own network. Against guessing spread over many IPs, one
 * address takes at most 100 failures a day (NIST SP 800-63B §5.2.2); past that ceiling each client gets a single guess
 * a window (the right password from a network that has not failed is still accepted).
 */
export const LOGIN_FAILURE_LIMITS = {
  perAddressAndIp: 5,
  perIp: 20,
  windowMs: 15 * MINUTE_MS,
  perAddressCeiling: 100,
  ceilingWindowMs: 24 * 60 * MINUTE_MS,
  perAddressAndIpOverCeiling: 1,
};
export const SIGNUP_LIMITS = { perIp: 30, windowMs: 60 * MINUTE_MS };

/** A request's origin with its address, which every request has: the guess limits count by it, the audit log keeps it. */
export type ClientOrigin = RequestOrigin & { readonly ip: string };

export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  rateLimit: RateLimiter;
  sessions: SessionStore;
  emailVerification: EmailVerification;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
  passwords: Passwords;
}) {
  const { db, clock, rateLimit, sessions, emailVerification, audit } = deps;
  const { hashPassword, verifyPassword, verifyAgainstDummy } = deps.passwords;

  /**
   * Counts one password guess BEFORE argon2 runs (so a burst is refused before any of it is checked), atomically
   * across the pair, IP and address buckets. The caller releases the reservation when the password was right.
   */
  async function reserveGuess(email: string, ip: string): Promise<Reservation> {
    const address = email.toLowerCase();
    const client = ipKey(ip);
    const { windowMs } = LOGIN_FAILURE_LIMITS;
    const ceiling: RateLimitRule = {
      bucket: `login-fail:email:${address}`,
      limit: LOGIN_FAILURE_LIMITS.perAddressCeiling,
      windowMs: LOGIN_FAILURE_LIMITS.ceilingWindowMs,
    };
    const pair = `login-fail:pair:${address}:${client}`;
    const perIp: RateLimitRule = {
      bucket: `login-fail:ip:${client}`,
      limit: LOGIN_FAILURE_LIMITS.perIp,
      windowMs,
    };
    return rateLimit.locked([ceiling.bucket, pair, perIp.bucket], async (scope) => {
      const underAttack = !(await scope.check(ceiling)).allowed;
      const perPair: RateLimitRule = {
        bucket: pair,
        limit: underAttack
          ? LOGIN_FAILURE_LIMITS.perAddressAndIpOverCeiling
          : LOGIN_FAILURE_LIMITS.perAddressAndIp,
        windowMs,
      };
      const decision = await scope.checkAll([perPair, perIp]);
      if (!decision.allowed) throw tooMany(decision, tooManyLoginAttemptsText);
      return scope.record([ceiling.bucket, pair, perIp.bucket]);
    });
  }

  /** A right password: its guess is taken back, and this client's earlier failures for the address are forgiven. */
  async function forgiveGuess(reservation: Reservation, email: string, ip: string): Promise<void> {
    await rateLimit.release(reservation);
    await rateLimit.reset(`login-fail:pair:${email.toLowerCase()}:${ipKey(ip)}`);
  }

  /** Creates the user and, in the same transaction, queues the verification e-mail; the route then logs them in. */
  async function signup(input: SignupRequest, ip: string): Promise<UserRow> {
    await rateLimit.consume(
      [{ bucket: `signup:ip:${ipKey(ip)}`, limit: SIGNUP_LIMITS.perIp, windowMs: SIGNUP_LIMITS.windowMs }],
      tooManyRequestsText,
    );
    const email = input.email.toLowerCase();
    if (await findUserByEmail(db, email)) throw emailTakenError();
    const passwordHash = await hashPassword(input.password);
    try {
      return await transaction(db, async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            email,
            name: `${input.firstName} ${input.lastName}`,
            passwordHash,
            createdAt: clock.now(),
          })
          .returning();
        if (!user) throw new Error('User insert returned no row');
        await emailVerification.enqueueLink(user.email, tx);
        return user;
      });
    } catch (error) {
      // Two sign-ups for one address at once: the unique index decides, the loser hears "taken".
      if (isUniqueViolation(error)) throw emailTakenError();
      throw error;
    }
  }

  /**
   * A signed-in user's current password, asked before a sensitive change: wrong guesses count in the failed-login
   * buckets (counted before argon2), so a stolen session cannot be used to brute-force the password. A wrong one is
   * a 400 on `field`.
   */
  async function checkCurrentPassword(
    user: UserRow,
    password: string,
    ip: string,
    field: string,
  ): Promise<void> {
    const guess = await reserveGuess(user.email, ip);
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw AppError.field('validation_error', field, serverTexts.wrongCurrentPassword);
    }
    await forgiveGuess(guess, user.email, ip);
  }

  /**
   * Unknown address and wrong password answer alike and take about as long (a dummy hash is verified for unknown
   * addresses). Failures are counted per address and per IP; a success clears the address's count.
   *
   * The audit log (issue #16) has a sign-in, and a failed one, in each account the user belongs to. A guess the limits
   * refuse (429) reaches no password and records nothing, so the log's failures are bounded by those limits. An
   * unknown address records nothing: it is nobody's, so no account's owners have anything to see. (The failure's
   * event costs a known address a few milliseconds of writing that an unknown one does not spend: small beside
   * argon2's own spread, and the guess limits keep anyone from sampling it often.) A person with a second factor
   * (`mfaEnrolledAt`) is answered without a sign-in recorded: the route asks for the second step (issue #38).
   */
  async function login(input: LoginRequest, origin: ClientOrigin): Promise<UserRow> {
    const { ip } = origin;
    const email = input.email.toLowerCase();
    const guess = await reserveGuess(email, ip);
    const user = await findUserByEmail(db, email);
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user) throw invalidCredentialsError();
    const target = [auditTarget.user(user)];
    if (!ok) {
      await transaction(db, (tx) =>
        audit.recordForUser(tx, user, origin, { action: 'auth.login_failed', targets: target }),
      );
      throw invalidCredentialsError();
    }
    await forgiveGuess(guess, email, ip);
    // A person with a second factor is not signed in yet (issue #38): the second step records the sign-in.
    if (user.mfaEnrolledAt) return user;
    await transaction(db, (tx) => recordSignIn(tx, user, origin));
    return user;
  }

  /**
   * A sign-in that succeeded: the user's last login and `auth.login_succeeded` in each of their accounts, in the
   * caller's transaction (a password alone here; the second step of a sign-in with a second factor, issue #38).
   */
  async function recordSignIn(tx: Db, user: UserRow, origin: RequestOrigin): Promise<void> {
    await tx.update(users).set({ lastLoginAt: clock.now() }).where(eq(users.id, user.id));
    await audit.recordForUser(tx, user, origin, {
      action: 'auth.login_succeeded',
      targets: [auditTarget.user(user)],
    });
  }

  /**
   * Ends the session and records the sign-out in each of the user's accounts; a session already gone (a second
   * sign-out at once, from another tab) records nothing.
   */
  async function logout(user: UserRow, sessionIdHash: string, origin: RequestOrigin): Promise<void> {
    await transaction(db, async (tx) => {
      if (!(await sessions.remove(sessionIdHash, tx))) return;
      await audit.recordForUser(tx, user, origin, {
        action: 'auth.logout',
        targets: [auditTarget.user(user)],
      });
    });
  }

  /**
   * Checks the current password (wrong guesses count in the same buckets as failed logins, so a stolen session
   * cannot be used to brute-force the password), stores the new one and ends every OTHER session of the user; the
   * route then moves this session to a new id. Answers the updated user. The change is in the audit log of each of
   * the user's accounts (never the password: the event only says that it changed); a wrong current password is a
   * refused change and records nothing there.
   */
  async function changePassword(
    user: UserRow,
    keepSessionIdHash: string,
    input: ChangePasswordRequest,
    origin: ClientOrigin,
  ): Promise<UserRow> {
    await checkCurrentPassword(user, input.previousPassword, origin.ip, 'previousPassword');
    const passwordHash = await hashPassword(input.newPassword);
    const updated = await transaction(db, async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ passwordHash, passwordChangedAt: clock.now() })
        .where(eq(users.id, user.id))
        .returning();
      if (!row) throw new AppError('not_authenticated');
      await audit.recordForUser(tx, row, origin, {
        action: 'user.password_changed',
        targets: [auditTarget.user(row)],
      });
      return row;
    });
    await sessions.removeAllOfUser(user.id, { exceptIdHash: keepSessionIdHash });
    return updated;
  }

  /**
   * The guess limits, for other proofs of who a person is (a passkey's assertion, issue #38): `reserveGuess` before
   * the proof is checked, `forgiveGuess` when it was right. One home for the rule: LOGIN_FAILURE_LIMITS above.
   */
  return {
    signup,
    login,
    recordSignIn,
    logout,
    changePassword,
    checkCurrentPassword,
    reserveGuess,
    forgiveGuess,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

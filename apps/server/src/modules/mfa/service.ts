import {
  MFA_LOGIN_TTL_MS,
  type RecoveryCodesResponse,
  type SecondFactorMethod,
  type SecondFactors,
  type secondFactorProofSchema,
  secondFactorTexts,
  type TotpSetupResponse,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, count, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { Reservation } from '../../lib/rate-limit.ts';
import type { SessionRow, UserRow } from '../../lib/rows.ts';
import { SealedValueError, type Sealer } from '../../lib/sealed.ts';
import type { SessionStore } from '../../lib/session-store.ts';
import type { RequestOrigin } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';
import { clearEnrolmentWithoutFactors, type PasskeyService } from '../passkeys/index.ts';
import { recoveryCodeHash, replaceRecoveryCodes } from './recovery-codes.ts';
import { matchingStep, newTotpSecret, otpauthUrl } from './totp.ts';

const { userTotp, recoveryCodes, passkeys, authChallenges, users } = schema;

/** A request's origin with its address: the guess limits count by it, the audit log keeps it. */
export type MfaOrigin = RequestOrigin & { readonly ip: string };

/** The auth module's guess limits (LOGIN_FAILURE_LIMITS): wrong codes count as wrong passwords do. */
export type Guesses = {
  reserveGuess(email: string, ip: string): Promise<Reservation>;
  forgiveGuess(reservation: Reservation, email: string, ip: string): Promise<void>;
  /** `auth.login_succeeded` and the last login, in the caller's transaction. */
  recordSignIn(tx: Db, user: UserRow, origin: RequestOrigin): Promise<void>;
};

type Proof = z.output<typeof secondFactorProofSchema>;

/** A proof checked as far as it can be outside the transaction that uses it up. */
type CheckedProof =
  | { method: 'totp'; step: number | null }
  | { method: 'recovery_code'; codeHash: string }
  | { method: 'passkey'; passkeyId: number };

const totpContext = (userId: number) => `totp:${userId}`;
const wrongCode = () => AppError.field('validation_error', 'code', secondFactorTexts.wrongCode);
const noPendingLogin = () => AppError.nonField('invalid_token', secondFactorTexts.noPendingLogin);

/** Thrown inside a transaction to roll back a proof that turned out wrong; answered as `wrongCode` after it. */
class WrongProof extends Error {}

/**
 * Second factors on the server (issue #38, ADR 48): TOTP enrolment and removal, recovery codes, the sign-in's second
 * step and step-up. Every proof (a TOTP code, a recovery code, a passkey's assertion) is checked the same way:
 *
 * 1. a guess is reserved in the password's buckets before anything is checked (`Guesses`: 5 per address and IP per
 *    15 min…), so a burst of wrong codes is refused with 429 before it is checked;
 * 2. the proof is used up atomically in the transaction that records what it proves: a TOTP step by a conditional
 *    UPDATE (`last_used_step < step`), a recovery code by `UPDATE … WHERE used_at IS NULL`, a passkey's challenge by
 *    the passkeys module's own DELETE; of twenty identical submissions at once exactly one passes;
 * 3. a right proof takes its guess back; a wrong one keeps it and writes `auth.mfa_failed`.
 */
export function createMfaService(deps: {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  sessions: SessionStore;
  audit: AuditLog;
  guesses: Guesses;
  passkeys: Pick<PasskeyService, 'verifyAssertionForUser'>;
}) {
  const { db, clock, sealer, sessions, audit, guesses, passkeys: passkeyService } = deps;

  async function totpRow(userId: number) {
    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
    return row;
  }

  async function unusedRecoveryCodes(executor: Db, userId: number): Promise<number> {
    const [row] = await executor
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return Number(row?.n ?? 0);
  }

  async function passkeyCount(userId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    return Number(row?.n ?? 0);
  }

  /** Locks the person's row: their factors change one at a time (the passkeys module takes the same lock). */
  async function lockUser(tx: Db, userId: number): Promise<void> {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  }

  /** The methods a person can finish a sign-in or a step-up with. */
  async function methodsOf(userId: number): Promise<SecondFactorMethod[]> {
    const [totp, keys, codes] = await Promise.all([
      totpRow(userId),
      passkeyCount(userId),
      unusedRecoveryCodes(db, userId),
    ]);
    const methods: SecondFactorMethod[] = [];
    if (totp?.confirmedAt) methods.push('totp');
    if (keys > 0) methods.push('passkey');
    if (codes > 0) methods.push('recovery_code');
    return methods;
  }

  /**
   * The person's TOTP secret, or null when it no longer opens (SECRET_KEY was changed: deploy.md): no code matches
   * it then, and the person signs in with a recovery code or a passkey and sets the app up again.
   */
  function openSecret(userId: number, sealed: string): string | null {
    try {
      return sealer.open(sealed, totpContext(userId));
    } catch (error) {
      if (error instanceof SealedValueError) return null;
      throw error;
    }
  }

  /** Checks what can be checked before the transaction: the TOTP code's step, the code's hash, the assertion. */
  async function check(user: UserRow, proof: Proof): Promise<CheckedProof> {
    switch (proof.method) {
      case 'totp': {
        const row = await totpRow(user.id);
        if (!row?.confirmedAt) return { method: 'totp', step: null };
        const secret = openSecret(user.id, row.secretSealed);
        return {
          method: 'totp',
          step: secret === null ? null : matchingStep(secret, proof.code, clock.now()),
        };
      }
      case 'recovery_code':
        return { method: 'recovery_code', codeHash: recoveryCodeHash(proof.code) };
      case 'passkey': {
        const { passkeyId } = await passkeyService.verifyAssertionForUser(user.id, proof.response);
        return { method: 'passkey', passkeyId };
      }
    }
  }

  /**
   * Uses the proof up in `tx`, or throws WrongProof (rolling the transaction back): a TOTP step at most once (and
   * never one at or before the last one used), a recovery code once.
   */
  async function useUp(tx: Db, user: UserRow, checked: CheckedProof, origin: RequestOrigin): Promise<void> {
    const now = clock.now();
    if (checked.method === 'totp') {
      const { step } = checked;
      if (step === null) throw new WrongProof();
      const taken = await tx
        .update(userTotp)
        .set({ lastUsedStep: step })
        .where(
          and(
            eq(userTotp.userId, user.id),
            isNotNull(userTotp.confirmedAt),
            or(isNull(userTotp.lastUsedStep), lt(userTotp.lastUsedStep, step)),
          ),
        )
        .returning({ userId: userTotp.userId });
      if (taken.length === 0) throw new WrongProof();
    } else if (checked.method === 'recovery_code') {
      const taken = await tx
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(recoveryCodes.userId, user.id),
            eq(recoveryCodes.codeHash, checked.codeHash),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      if (taken.length === 0) throw new WrongProof();
      await audit.recordForUser(tx, user, origin, {
        action: 'auth.recovery_code_used',
        targets: [auditTarget.user(user)],
      });
    }
    // A passkey's assertion was used up with its challenge (passkeys module).
  }

  /** `auth.mfa_failed` in each of the person's accounts, in a transaction of its own (the proof's rolled back). */
  async function recordFailure(user: UserRow, origin: MfaOrigin): Promise<void> {
    await transaction(db, (tx) =>
      audit.recordForUser(tx, user, origin, { action: 'auth.mfa_failed', targets: [auditTarget.user(user)] }),
    );
  }

  /**
   * The common path of every proof: the guess reserved first, the proof checked, then `record(tx)` with the proof
   * used up in the same transaction. A wrong proof writes `auth.mfa_failed` and answers 400 (its guess kept).
   */
  async function prove<T>(
    user: UserRow,
    proof: Proof,
    origin: MfaOrigin,
    record: (tx: Db) => Promise<T>,
  ): Promise<T> {
    const guess = await guesses.reserveGuess(user.email, origin.ip);
    let checked: CheckedProof;
    try {
      checked = await check(user, proof);
    } catch (error) {
      // A passkey's assertion that does not verify (the passkeys module's 400).
      if (error instanceof AppError) await recordFailure(user, origin);
      throw error;
    }
    let result: T;
    try {
      result = await transaction(db, async (tx) => {
        await useUp(tx, user, checked, origin);
        return record(tx);
      });
    } catch (error) {
      if (!(error instanceof WrongProof)) throw error;
      await recordFailure(user, origin);
      throw wrongCode();
    }
    await guesses.forgiveGuess(guess, user.email, origin.ip);
    return result;
  }

  return {
    /** What the person has enrolled, and this session's last proof (`GET /api/auth/mfa`). */
    async status(user: UserRow, session: SessionRow): Promise<SecondFactors> {
      const [totp, keys, codes] = await Promise.all([
        totpRow(user.id),
        passkeyCount(user.id),
        unusedRecoveryCodes(db, user.id),
      ]);
      return {
        totp: { enabled: Boolean(totp?.confirmedAt), confirmedAt: totp?.confirmedAt?.toISOString() ?? null },
        recoveryCodesLeft: codes,
        passkeys: keys,
        lastProofAt: session.lastProofAt?.toISOString() ?? null,
      };
    },

    /**
     * A new unconfirmed secret (sealed under `totp:<userId>`), replacing an earlier unconfirmed one; 400 when an
     * authenticator is already confirmed (it is removed first, under step-up).
     */
    async startTotp(user: UserRow): Promise<TotpSetupResponse> {
      const secret = newTotpSecret();
      const sealed = sealer.seal(secret, totpContext(user.id));
      const stored = await db
        .insert(userTotp)
        .values({ userId: user.id, secretSealed: sealed, createdAt: clock.now() })
        .onConflictDoUpdate({
          target: userTotp.userId,
          set: { secretSealed: sealed, lastUsedStep: null, createdAt: clock.now() },
          // Never over a confirmed one, even one confirmed a moment ago by another tab.
          setWhere: isNull(userTotp.confirmedAt),
        })
        .returning({ userId: userTotp.userId });
      if (stored.length === 0)
        throw AppError.nonField('validation_error', secondFactorTexts.totpAlreadyEnabled);
      return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
    },

    /**
     * The first code proves the app holds the secret: the factor is on (`users.mfa_enrolled_at` = now), this session
     * has just proved it, and 10 recovery codes are answered (once: only their hashes are kept). The code counts as
     * a guess; its step cannot be used again.
     */
    async confirmTotp(
      user: UserRow,
      session: SessionRow,
      code: string,
      origin: MfaOrigin,
    ): Promise<RecoveryCodesResponse> {
      const row = await totpRow(user.id);
      if (!row || row.confirmedAt) {
        throw AppError.nonField('validation_error', secondFactorTexts.noTotpToConfirm);
      }
      const guess = await guesses.reserveGuess(user.email, origin.ip);
      const secret = openSecret(user.id, row.secretSealed);
      const step = secret === null ? null : matchingStep(secret, code, clock.now());
      if (step === null) throw wrongCode();
      const now = clock.now();
      const codes = await transaction(db, async (tx) => {
        await lockUser(tx, user.id);
        // The secret read above, unconfirmed still (a restart in another tab replaced it: that code is for no secret).
        const confirmed = await tx
          .update(userTotp)
          .set({ confirmedAt: now, lastUsedStep: step })
          .where(
            and(
              eq(userTotp.userId, user.id),
              eq(userTotp.secretSealed, row.secretSealed),
              isNull(userTotp.confirmedAt),
            ),
          )
          .returning({ userId: userTotp.userId });
        if (confirmed.length === 0) throw wrongCode();
        await tx.update(users).set({ mfaEnrolledAt: now }).where(eq(users.id, user.id));
        await sessions.markProof(session.idHash, now, tx);
        const made = await replaceRecoveryCodes(tx, user.id, now);
        await audit.recordForUser(tx, user, origin, {
          action: 'auth.mfa_enrolled',
          targets: [auditTarget.user(user)],
        });
        return made;
      });
      await guesses.forgiveGuess(guess, user.email, origin.ip);
      return { recoveryCodes: codes };
    },

    /**
     * Removes the authenticator app (under step-up): its recovery codes go when no other factor is left, and so does
     * `users.mfa_enrolled_at`; every OTHER session of the person ends (issue #38 item 5). 404 when there is none.
     */
    async removeTotp(user: UserRow, session: SessionRow, origin: RequestOrigin): Promise<void> {
      await transaction(db, async (tx) => {
        await lockUser(tx, user.id);
        const removed = await tx
          .delete(userTotp)
          .where(and(eq(userTotp.userId, user.id), isNotNull(userTotp.confirmedAt)))
          .returning({ userId: userTotp.userId });
        // An unconfirmed one is dropped too, but it was no factor: nothing to record.
        await tx.delete(userTotp).where(eq(userTotp.userId, user.id));
        if (removed.length === 0) throw new AppError('not_found');
        await clearEnrolmentWithoutFactors(tx, user.id);
        const [after] = await tx
          .select({ mfaEnrolledAt: users.mfaEnrolledAt })
          .from(users)
          .where(eq(users.id, user.id));
        if (!after?.mfaEnrolledAt) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await audit.recordForUser(tx, user, origin, {
          action: 'auth.mfa_removed',
          targets: [auditTarget.user(user)],
        });
      });
      await sessions.removeAllOfUser(user.id, { exceptIdHash: session.idHash });
    },

    /** New recovery codes (under step-up); the old ones stop working. 400 for a person without a second factor. */
    async regenerateRecoveryCodes(user: UserRow, origin: RequestOrigin): Promise<RecoveryCodesResponse> {
      const codes = await transaction(db, async (tx) => {
        await lockUser(tx, user.id);
        const [row] = await tx
          .select({ mfaEnrolledAt: users.mfaEnrolledAt })
          .from(users)
          .where(eq(users.id, user.id));
        if (!row?.mfaEnrolledAt) {
          throw AppError.nonField('validation_error', secondFactorTexts.noTotpToConfirm);
        }
        const made = await replaceRecoveryCodes(tx, user.id, clock.now());
        await audit.recordForUser(tx, user, origin, {
          action: 'auth.recovery_codes_regenerated',
          targets: [auditTarget.user(user)],
        });
        return made;
      });
      return { recoveryCodes: codes };
    },

    /**
     * The sign-in's first step was right for a person with a second factor: a pending sign-in (auth_challenges,
     * `mfa_login`, keyed by the SHA-256 of the token the browser's cookie holds) for MFA_LOGIN_TTL_MS. No session.
     */
    async beginLogin(
      user: UserRow,
    ): Promise<{ token: string; maxAgeSeconds: number; methods: SecondFactorMethod[] }> {
      const token = randomToken(32);
      const now = clock.now();
      // Pending sign-ins past their time are of no use: gone when a new one is stored (as the passkeys' challenges).
      await db
        .delete(authChallenges)
        .where(and(eq(authChallenges.kind, 'mfa_login'), lt(authChallenges.expiresAt, now)));
      await db.insert(authChallenges).values({
        idHash: sha256Hex(token),
        kind: 'mfa_login',
        userId: user.id,
        payload: {},
        expiresAt: new Date(now.getTime() + MFA_LOGIN_TTL_MS),
        createdAt: now,
      });
      return { token, maxAgeSeconds: MFA_LOGIN_TTL_MS / 1000, methods: await methodsOf(user.id) };
    },

    /**
     * The sign-in's second step: the pending sign-in is taken once (DELETE … RETURNING) in the transaction that uses
     * the proof up and records the sign-in, so only after a right proof; a wrong one leaves it (and counts a guess).
     * An unknown, expired or already finished one is 400 noPendingLogin. The route then starts the session.
     */
    async finishLogin(token: string | undefined, proof: Proof, origin: MfaOrigin): Promise<UserRow> {
      if (!token || token.length > 64) throw noPendingLogin();
      const idHash = sha256Hex(token);
      const live = and(
        eq(authChallenges.idHash, idHash),
        eq(authChallenges.kind, 'mfa_login'),
        gt(authChallenges.expiresAt, clock.now()),
      );
      const [pending] = await db
        .select({ user: users })
        .from(authChallenges)
        .innerJoin(users, eq(users.id, authChallenges.userId))
        .where(live)
        .limit(1);
      if (!pending) throw noPendingLogin();
      const { user } = pending;
      return prove(user, proof, origin, async (tx) => {
        const taken = await tx
          .delete(authChallenges)
          .where(live)
          .returning({ idHash: authChallenges.idHash });
        if (taken.length === 0) throw noPendingLogin();
        await guesses.recordSignIn(tx, user, origin);
        return user;
      });
    },

    /** Renews this session's proof (`POST /api/auth/step-up`): `auth.step_up` in each of the person's accounts. */
    async stepUp(user: UserRow, session: SessionRow, proof: Proof, origin: MfaOrigin): Promise<Date> {
      if (!user.mfaEnrolledAt) throw AppError.nonField('validation_error', secondFactorTexts.noTotpToConfirm);
      return prove(user, proof, origin, async (tx) => {
        const now = clock.now();
        await sessions.markProof(session.idHash, now, tx);
        await audit.recordForUser(tx, user, origin, {
          action: 'auth.step_up',
          targets: [auditTarget.user(user)],
        });
        return now;
      });
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;

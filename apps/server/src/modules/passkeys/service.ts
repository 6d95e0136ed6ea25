import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  MAX_PASSKEYS_PER_USER,
  type Passkey,
  secondFactorTexts,
  ssoTexts,
  tooManyRequestsText,
  type WebauthnOptions,
  type WebauthnResponse,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, asc, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { derivedKey, hmacSha256, randomToken, sha256Hex } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { SessionStore } from '../../lib/session-store.ts';
import type { RequestOrigin } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';
import { ssoRequiredFor } from '../sso/index.ts';
import type { UserRow } from '../users/index.ts';

const { passkeys, authChallenges, users, userTotp } = schema;

/** A WebAuthn ceremony's challenge is answered within this long (the browser's own timeout is the same). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/**
 * Authentication options are public (a sign-in without a password) and each stores a challenge row: one IP (IPv6 by
 * /64) may ask this many per window. A person signing in asks one per attempt.
 */
export const PASSKEY_OPTIONS_LIMITS = { perIp: 200, windowMs: 15 * 60 * 1000 };
const RP_NAME = 'Veriform';

type PasskeyRow = typeof passkeys.$inferSelect;
type ChallengeKind = 'passkey_registration' | 'passkey_authentication';
/** A request's origin with its address, which every request has: the guess limits count by it. */
export type PasskeyClientOrigin = RequestOrigin & { readonly ip: string };

function passkeyFailed(): AppError {
  return AppError.nonField('validation_error', secondFactorTexts.passkeyFailed);
}

export function toPasskeyDto(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The challenge a ceremony's answer signed, read from its clientDataJSON (the library checks it again against the
 * one we stored); undefined when the answer has none.
 */
function challengeOf(response: WebauthnResponse): string | undefined {
  try {
    const clientData: unknown = JSON.parse(
      Buffer.from(response.response.clientDataJSON, 'base64url').toString(),
    );
    if (!clientData || typeof clientData !== 'object' || !('challenge' in clientData)) return undefined;
    const { challenge } = clientData;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The person's factors decide `users.mfa_enrolled_at` (issue #38): when their last one goes (no confirmed TOTP, no
 * passkey), it becomes null. In the removal's transaction, after the user row is locked, so two removals at once
 * (a passkey and the authenticator app) cannot each see the other's factor still there.
 */
export async function clearEnrolmentWithoutFactors(tx: Db, userId: number): Promise<void> {
  await tx
    .update(users)
    .set({ mfaEnrolledAt: null })
    .where(
      and(
        eq(users.id, userId),
        sql`not exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
        sql`not exists (select 1 from ${userTotp} where ${userTotp.userId} = ${userId} and ${isNotNull(userTotp.confirmedAt)})`,
      ),
    );
}

/** Locks the person's row for the rest of the transaction: their factors change one at a time. */
async function lockUser(tx: Db, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/**
 * Passkeys (WebAuthn, issue #38) through @simplewebauthn/server (ADR 49): registration and removal for a signed-in
 * person, the sign-in without a password, and the check of an assertion for a known person (the sign-in's second
 * step and step-up, modules/mfa). Every challenge is a row of auth_challenges keyed by its SHA-256, taken once
 * (DELETE … RETURNING) before the answer is checked: a replayed answer, or twenty at once, finds it gone.
 */
export function createPasskeyService(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  rateLimit: RateLimiter;
  sessions: SessionStore;
  audit: AuditLog;
  /** The password guess limits (the auth module's one home): wrong or unknown assertions count there too. */
  guesses: Pick<AuthService, 'reserveGuess' | 'forgiveGuess'>;
}) {
  const { db, clock, config, rateLimit, sessions, audit, guesses } = deps;
  const expectedOrigin = new URL(config.publicUrl).origin;
  const rpID = new URL(config.publicUrl).hostname;
  const handleKey = derivedKey(config.secretKey, 'webauthn-user-handle');

  /** The WebAuthn user handle: opaque and stable for the person (never their address or row id in clear). */
  function userHandle(userId: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(hmacSha256(handleKey, String(userId)));
  }

  async function storeChallenge(
    challenge: string,
    kind: ChallengeKind,
    userId: number | null,
  ): Promise<void> {
    const now = clock.now();
    // Expired ones of the same kind go on the way (a cheap, indexed delete): the table stays small between prunes.
    await db
      .delete(authChallenges)
      .where(and(eq(authChallenges.kind, kind), lt(authChallenges.expiresAt, now)));
    await db.insert(authChallenges).values({
      idHash: sha256Hex(challenge),
      kind,
      userId,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
      createdAt: now,
    });
  }

  /** Takes the challenge the answer signed, once; undefined when it is unknown, expired, another kind or person's. */
  async function takeChallenge(
    response: WebauthnResponse,
    kind: ChallengeKind,
    userId: number | null,
  ): Promise<string | undefined> {
    const challenge = challengeOf(response);
    if (!challenge) return undefined;
    const taken = await db
      .delete(authChallenges)
      .where(
        and(
          eq(authChallenges.idHash, sha256Hex(challenge)),
          eq(authChallenges.kind, kind),
          gt(authChallenges.expiresAt, clock.now()),
          userId === null ? isNull(authChallenges.userId) : eq(authChallenges.userId, userId),
        ),
      )
      .returning({ idHash: authChallenges.idHash });
    return taken.length > 0 ? challenge : undefined;
  }

  async function findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
    return row;
  }

  async function listRows(userId: number): Promise<PasskeyRow[]> {
    return db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  }

  /**
   * Checks an assertion against `row` after its challenge was taken, and moves the signature counter on (a counter
   * that does not grow, from an authenticator that keeps one, is a cloned key: refused, by the library and again by
   * the conditional update when two assertions race). `requireUserVerification`: the authenticator must have
   * verified the person (PIN, biometrics), as a sign-in without a password needs. Throws the 400 on any failure.
   */
  async function checkAssertion(
    row: PasskeyRow,
    response: WebauthnResponse,
    challenge: string,
    requireUserVerification: boolean,
  ): Promise<Date> {
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        // The contract's schema checked the JSON's shape; the library checks its meaning.
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin,
        expectedRPID: rpID,
        credential: {
          id: row.credentialId,
          publicKey: new Uint8Array(row.publicKey),
          counter: row.signCount,
          transports: row.transports,
        },
        requireUserVerification,
      });
      if (!result.verified) throw passkeyFailed();
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      throw passkeyFailed();
    }
    const now = clock.now();
    const updated = await db
      .update(passkeys)
      .set({ signCount: newCounter, lastUsedAt: now })
      .where(
        and(
          eq(passkeys.id, row.id),
          newCounter === 0 ? sql`true` : or(lt(passkeys.signCount, newCounter), eq(passkeys.signCount, 0)),
        ),
      )
      .returning({ id: passkeys.id });
    if (updated.length === 0) throw passkeyFailed();
    return now;
  }

  return {
    /** The registration ceremony's options for the signed-in person; its challenge is theirs for 5 minutes. */
    async registrationOptions(user: UserRow): Promise<WebauthnOptions> {
      const own = await listRows(user.id);
      if (own.length >= MAX_PASSKEYS_PER_USER) {
        throw AppError.nonField('validation_error', secondFactorTexts.tooManyPasskeys);
      }
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userName: user.email,
        userDisplayName: user.name || user.email,
        userID: userHandle(user.id),
        challenge: randomToken(32),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        attestationType: 'none',
        excludeCredentials: own.map((row) => ({
          id: row.credentialId,
          transports: row.transports,
        })),
        // A discoverable credential (a passkey proper) can sign in without the address or a password.
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      await storeChallenge(options.challenge, 'passkey_registration', user.id);
      return { ...options };
    },

    /**
     * Checks the registration's answer and keeps the passkey: the person is enrolled (users.mfa_enrolled_at) and this
     * session has just proved a factor. At most MAX_PASSKEYS_PER_USER, counted under the person's row lock.
     */
    async add(
      user: UserRow,
      sessionIdHash: string,
      input: { response: WebauthnResponse; name: string },
      origin: RequestOrigin,
    ): Promise<Passkey> {
      const challenge = await takeChallenge(input.response, 'passkey_registration', user.id);
      if (!challenge) throw passkeyFailed();
      let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
      try {
        const result = await verifyRegistrationResponse({
          response: input.response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
        info = result.verified ? result.registrationInfo : undefined;
      } catch {
        info = undefined;
      }
      if (!info) throw passkeyFailed();
      const { credential, credentialDeviceType, credentialBackedUp } = info;
      try {
        return await transaction(db, async (tx) => {
          await lockUser(tx, user.id);
          const [held] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
          if ((held?.n ?? 0) >= MAX_PASSKEYS_PER_USER) {
            throw AppError.nonField('validation_error', secondFactorTexts.tooManyPasskeys);
          }
          const now = clock.now();
          const [row] = await tx
            .insert(passkeys)
            .values({
              userId: user.id,
              credentialId: credential.id,
              publicKey: Buffer.from(credential.publicKey),
              signCount: credential.counter,
              transports: (credential.transports ?? []).slice(0, 10),
              name: input.name,
              deviceType: credentialDeviceType,
              backedUp: credentialBackedUp,
              createdAt: now,
            })
            .returning();
          if (!row) throw new Error('Passkey insert returned no row');
          await tx.update(users).set({ mfaEnrolledAt: now }).where(eq(users.id, user.id));
          await sessions.markProof(sessionIdHash, now, tx);
          await audit.recordForUser(tx, user, origin, {
            action: 'auth.passkey_added',
            targets: [auditTarget.user(user), { type: 'passkey', id: String(row.id), name: row.name }],
          });
          return toPasskeyDto(row);
        });
      } catch (error) {
        // The same authenticator registered twice (excludeCredentials should have stopped it): the unique index says so.
        if (isUniqueViolation(error)) throw passkeyFailed();
        throw error;
      }
    },

    async list(user: UserRow): Promise<Passkey[]> {
      return (await listRows(user.id)).map(toPasskeyDto);
    },

    /**
     * Removes one of the person's passkeys (another person's, or an id that is none, is 404) and ends their OTHER
     * sessions: whoever held one of them with the passkey no longer can. Their last factor gone, they are no longer
     * enrolled.
     */
    async remove(user: UserRow, sessionIdHash: string, rawId: string, origin: RequestOrigin): Promise<void> {
      const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : undefined;
      if (id === undefined) throw new AppError('not_found');
      await transaction(db, async (tx) => {
        await lockUser(tx, user.id);
        const [row] = await tx
          .delete(passkeys)
          .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
          .returning();
        if (!row) throw new AppError('not_found');
        await clearEnrolmentWithoutFactors(tx, user.id);
        await audit.recordForUser(tx, user, origin, {
          action: 'auth.passkey_removed',
          targets: [auditTarget.user(user), { type: 'passkey', id: String(row.id), name: row.name }],
        });
      });
      await sessions.removeAllOfUser(user.id, { exceptIdHash: sessionIdHash });
    },

    /**
     * Options for an assertion: no credentials listed (the browser offers the discoverable passkeys it holds), a
     * challenge of no one for 5 minutes. Public; bounded per IP.
     */
    async authenticationOptions(ip: string): Promise<WebauthnOptions> {
      await rateLimit.consume(
        [
          {
            bucket: `passkey-options:ip:${ipKey(ip)}`,
            limit: PASSKEY_OPTIONS_LIMITS.perIp,
            windowMs: PASSKEY_OPTIONS_LIMITS.windowMs,
          },
        ],
        tooManyRequestsText,
      );
      const options = await generateAuthenticationOptions({
        rpID,
        allowCredentials: [],
        challenge: randomToken(32),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        userVerification: 'preferred',
      });
      await storeChallenge(options.challenge, 'passkey_authentication', null);
      return { ...options };
    },

    /**
     * A sign-in without a password. The guess is counted first (under the credential owner's address, or the unknown
     * credential's own name, and the IP), as a password's is; a right assertion takes it back. The route then starts
     * the session (signed in with `passkey`, a proof just made). Answers the person.
     */
    async login(response: WebauthnResponse, origin: PasskeyClientOrigin): Promise<UserRow> {
      const row = await findByCredentialId(response.id);
      const [owner] = row ? await db.select().from(users).where(eq(users.id, row.userId)).limit(1) : [];
      const address = owner ? owner.email : `passkey:${sha256Hex(response.id).slice(0, 32)}`;
      const guess = await guesses.reserveGuess(address, origin.ip);
      const challenge = await takeChallenge(response, 'passkey_authentication', null);
      if (!row || !owner) throw passkeyFailed();
      try {
        if (!challenge) throw passkeyFailed();
        // The passkey is the whole sign-in here: something held AND the person verified by it (two factors in one).
        await checkAssertion(row, response, challenge, true);
      } catch (error) {
        await transaction(db, (tx) =>
          audit.recordForUser(tx, owner, origin, {
            action: 'auth.login_failed',
            targets: [auditTarget.user(owner)],
          }),
        );
        throw error;
      }
      await guesses.forgiveGuess(guess, address, origin.ip);
      // Owners who require single sign-on for the person's domain want their identity provider asked at each sign-in
      // (a person it has let go must not get in with a passkey): refused as a password is (ADR 50).
      if (await ssoRequiredFor(db, owner.email))
        throw AppError.nonField('validation_error', ssoTexts.required);
      await transaction(db, async (tx) => {
        await tx.update(users).set({ lastLoginAt: clock.now() }).where(eq(users.id, owner.id));
        await audit.recordForUser(tx, owner, origin, {
          action: 'auth.login_succeeded',
          targets: [auditTarget.user(owner), { type: 'passkey', id: String(row.id), name: row.name }],
        });
      });
      return owner;
    },

    /**
     * For a person already known (the sign-in's second step, step-up: modules/mfa): checks their assertion against
     * one of THEIR passkeys, taking its challenge (from `authenticationOptions`) once. Throws the 400 on any failure;
     * the caller counts the guess (it holds the reservation) and records the proof.
     */
    async verifyAssertionForUser(userId: number, response: WebauthnResponse): Promise<{ passkeyId: number }> {
      const challenge = await takeChallenge(response, 'passkey_authentication', null);
      const row = await findByCredentialId(response.id);
      if (!challenge || !row || row.userId !== userId) throw passkeyFailed();
      // After a password (or within a session), possession is the second factor: user verification is welcome, not
      // required (a security key without a PIN still serves).
      await checkAssertion(row, response, challenge, false);
      return { passkeyId: row.id };
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;

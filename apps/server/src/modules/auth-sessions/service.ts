import type { AuthSession } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { transaction } from '@veriform/db';
import { sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { SessionRow, SessionStore } from '../../lib/session-store.ts';
import type { RequestOrigin } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';
import type { UserRow } from '../users/index.ts';
import { describeDevice } from './device.ts';
import { describePlace } from './place.ts';

/**
 * A session's id in the list: the first 24 hex digits (96 bits) of the SHA-256 of its stored hash. Never the cookie's
 * value nor the stored hash itself: the list (and anything that logs it) cannot be turned into a session.
 */
export function publicSessionId(idHash: string): string {
  return sha256Hex(idHash).slice(0, 24);
}

function toDto(row: SessionRow, currentIdHash: string): AuthSession {
  return {
    id: publicSessionId(row.idHash),
    current: row.idHash === currentIdHash,
    userAgent: row.userAgent,
    device: describeDevice(row.userAgent),
    ip: row.ip,
    place: describePlace(row.ip),
    signedInWith: row.signedInWith,
    lastSeenAt: row.lastSeenAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The signed-in person's own sessions (issue #38 item 5): the list, ending one, ending all the others. Their own
 * module rather than the auth module's: they read and end rows of the session store for a person already signed in,
 * and share nothing with signing in (ADR 49).
 */
export function createAuthSessions(deps: { db: Db; sessions: SessionStore; audit: AuditLog }) {
  const { db, sessions, audit } = deps;

  return {
    async list(user: UserRow, currentIdHash: string): Promise<AuthSession[]> {
      const rows = await sessions.listOfUser(user.id);
      return rows.map((row) => toDto(row, currentIdHash));
    },

    /**
     * Ends one of the person's sessions by its list id; another person's, or one already gone, is 404. Answers whether
     * it was the caller's own (the route then clears the cookie: a sign-out).
     */
    async end(
      user: UserRow,
      currentIdHash: string,
      id: string,
      origin: RequestOrigin,
    ): Promise<{ current: boolean }> {
      const row = (await sessions.listOfUser(user.id)).find((s) => publicSessionId(s.idHash) === id);
      if (!row) throw new AppError('not_found');
      await transaction(db, async (tx) => {
        if (!(await sessions.remove(row.idHash, tx))) throw new AppError('not_found');
        await audit.recordForUser(tx, user, origin, {
          action: 'auth.session_ended',
          targets: [auditTarget.user(user)],
          changes: {
            session: id,
            device: describeDevice(row.userAgent),
            current: row.idHash === currentIdHash,
          },
        });
      });
      return { current: row.idHash === currentIdHash };
    },

    /** Ends every session of the person but this one; one event says how many. */
    async endOthers(user: UserRow, currentIdHash: string, origin: RequestOrigin): Promise<void> {
      await transaction(db, async (tx) => {
        const ended = await sessions.removeAllOfUser(user.id, { exceptIdHash: currentIdHash, executor: tx });
        if (ended === 0) return;
        await audit.recordForUser(tx, user, origin, {
          action: 'auth.session_ended',
          targets: [auditTarget.user(user)],
          changes: { others: ended },
        });
      });
    },
  };
}

export type AuthSessions = ReturnType<typeof createAuthSessions>;

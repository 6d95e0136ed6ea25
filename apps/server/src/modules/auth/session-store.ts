import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import type { UserRow } from '../users/repository.ts';

const { sessions, users } = schema;

export type SessionRow = typeof sessions.$inferSelect;

/** 14 days after the last use; the expiry slides forward at most once an hour to keep writes rare. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Sessions live in PostgreSQL so any process can serve any user (DESIGN §4). The id the browser holds is 256 random
 * bits; only its SHA-256 is stored, so a leaked table does not hand out live sessions.
 */
export function createSessionStore(db: Db, clock: Clock) {
  async function create(
    userId: number,
    meta: { ip: string; userAgent: string | undefined; currentMembershipId?: number | null },
  ) {
    const id = randomToken(32);
    const now = clock.now();
    const [row] = await db
      .insert(sessions)
      .values({
        idHash: sha256Hex(id),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 512),
        currentMembershipId: meta.currentMembershipId ?? null,
      })
      .returning();
    if (!row) throw new Error('Session insert returned no row');
    return { id, session: row };
  }

  async function find(id: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const [row] = await db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.idHash, sha256Hex(id)), gt(sessions.expiresAt, clock.now())))
      .limit(1);
    return row;
  }

  /** Slides the expiry when the last touch is older than the interval; true when it did (the cookie is re-sent). */
  async function touchIfDue(session: SessionRow): Promise<boolean> {
    const now = clock.now();
    if (now.getTime() - session.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return false;
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
      .where(eq(sessions.idHash, session.idHash));
    return true;
  }

  async function remove(idHash: string): Promise<void> {
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
  }

  /** Ends every session of the user (password reset), or every one but `exceptIdHash` (password change). */
  async function removeAllOfUser(userId: number, options: { exceptIdHash?: string } = {}): Promise<void> {
    await db
      .delete(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          options.exceptIdHash ? ne(sessions.idHash, options.exceptIdHash) : undefined,
        ),
      );
  }

  /** Remembers the session's current membership (SPEC §4; POST /api/memberships/{id}/select, account creation…). */
  async function setCurrentMembership(idHash: string, membershipId: number | null): Promise<void> {
    await db.update(sessions).set({ currentMembershipId: membershipId }).where(eq(sessions.idHash, idHash));
  }

  async function pruneExpired(): Promise<void> {
    await db.delete(sessions).where(lt(sessions.expiresAt, clock.now()));
  }

  return { create, find, touchIfDue, remove, removeAllOfUser, setCurrentMembership, pruneExpired };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Clock } from './clock.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import type { AccountRow, MembershipRow, SessionRow, UserRow } from './rows.ts';

const { sessions, users, memberships, accounts, authChallenges } = schema;

export type { SessionRow };
export type FoundSession = {
  session: SessionRow;
  user: UserRow;
  memberships: MembershipRow[];
  /** The accounts of those memberships, by id: a page's initial data shows them (auth/viewer.ts). */
  accounts: ReadonlyMap<number, AccountRow>;
};

/** 14 days after the last use; the expiry slides forward at most once an hour to keep writes rare. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;
/**
 * However often it is used, a session ends this long after its login (issue #13 item 10e): a stolen cookie does not
 * live forever, and the password is asked again at least once a month.
 */
export const SESSION_MAX_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** The expiry a session gets when used at `now`: 14 days on, never past its absolute lifetime. */
export function sessionExpiry(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_TTL_MS, createdAt.getTime() + SESSION_MAX_LIFETIME_MS));
}

/**
 * Sessions live in PostgreSQL so any process can serve any user (DESIGN §4). The id the browser holds is 256 random
 * bits; only its SHA-256 is stored, so a leaked table does not hand out live sessions.
 */
export function createSessionStore(db: Db, clock: Clock) {
  async function create(
    userId: number,
    meta: {
      ip: string;
      userAgent: string | undefined;
      currentMembershipId?: number | null;
      /** How the session began (issue #38); `password` when not said. */
      signedInWith?: SessionRow['signedInWith'];
      /** When it proved a second factor (a sign-in with a passkey, or a second step); null when it did not. */
      lastProofAt?: Date | null;
    },
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
        expiresAt: sessionExpiry(now, now),
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 512),
        currentMembershipId: meta.currentMembershipId ?? null,
        signedInWith: meta.signedInWith ?? 'password',
        lastProofAt: meta.lastProofAt ?? null,
      })
      .returning();
    if (!row) throw new Error('Session insert returned no row');
    return { id, session: row };
  }

  /**
   * The session, its user and all of the user's memberships with their accounts, in one round trip: nearly every API
   * call is scoped to an account, and the tenancy hook then finds the caller's membership here instead of asking the
   * database again (a user belongs to a handful of accounts); every page shows the memberships with their accounts.
   * Prepared once: every request runs it.
   */
  const findQuery = db
    .select({ session: sessions, user: users, membership: memberships, account: accounts })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, eq(memberships.userId, sessions.userId))
    .leftJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder('idHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        // Also for rows whose expiry was set before the absolute lifetime existed.
        gt(sessions.createdAt, sql.placeholder('createdAfter')),
      ),
    )
    .prepare('session_find');

  async function find(id: string): Promise<FoundSession | undefined> {
    const now = clock.now();
    const rows = await findQuery.execute({
      idHash: sha256Hex(id),
      now: now.toISOString(),
      createdAfter: new Date(now.getTime() - SESSION_MAX_LIFETIME_MS).toISOString(),
    });
    const [first] = rows;
    if (!first) return undefined;
    const own: MembershipRow[] = [];
    const accountsById = new Map<number, AccountRow>();
    for (const row of rows) {
      if (row.membership) own.push(row.membership);
      if (row.account) accountsById.set(row.account.id, row.account);
    }
    return { session: first.session, user: first.user, memberships: own, accounts: accountsById };
  }

  /**
   * Slides the expiry (up to the absolute lifetime) when the last touch is older than the interval; answers the new
   * expiry when it did (the cookie is re-sent with it), null otherwise.
   */
  async function touchIfDue(session: SessionRow): Promise<Date | null> {
    const now = clock.now();
    if (now.getTime() - session.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return null;
    const expiresAt = sessionExpiry(session.createdAt, now);
    await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.idHash, session.idHash));
    return expiresAt;
  }

  /**
   * Ends one session; true when it was still there (of two sign-outs at once, one ends it). `executor`: the caller's
   * transaction, when the ending is recorded with it (auth.logout).
   */
  async function remove(idHash: string, executor: Db = db): Promise<boolean> {
    const removed = await executor
      .delete(sessions)
      .where(eq(sessions.idHash, idHash))
      .returning({ idHash: sessions.idHash });
    return removed.length > 0;
  }

  /**
   * Ends every session of the user (password reset), or every one but `exceptIdHash` (password change, "end all
   * others"); answers how many ended. `executor`: the caller's transaction, when the ending is recorded with it.
   */
  async function removeAllOfUser(
    userId: number,
    options: { exceptIdHash?: string; executor?: Db } = {},
  ): Promise<number> {
    const removed = await (options.executor ?? db)
      .delete(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          options.exceptIdHash ? ne(sessions.idHash, options.exceptIdHash) : undefined,
        ),
      )
      .returning({ idHash: sessions.idHash });
    return removed.length;
  }

  /** The user's live sessions (not expired, within their absolute lifetime), the most recently seen first. */
  async function listOfUser(userId: number): Promise<SessionRow[]> {
    const now = clock.now();
    return db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          gt(sessions.expiresAt, now),
          gt(sessions.createdAt, new Date(now.getTime() - SESSION_MAX_LIFETIME_MS)),
        ),
      )
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  }

  /**
   * The session proved a second factor at `at` (issue #38: an enrolment, a step-up). `executor`: the caller's
   * transaction, when the proof is recorded with it.
   */
  async function markProof(idHash: string, at: Date, executor: Db = db): Promise<void> {
    await executor.update(sessions).set({ lastProofAt: at }).where(eq(sessions.idHash, idHash));
  }

  /** Remembers the session's current membership (SPEC §4; POST /api/memberships/{id}/select, account creation…). */
  async function setCurrentMembership(idHash: string, membershipId: number | null): Promise<void> {
    await db.update(sessions).set({ currentMembershipId: membershipId }).where(eq(sessions.idHash, idHash));
  }

  /**
   * Sessions past their expiry, and sign-in ceremonies' state past its own (auth_challenges, issue #38: WebAuthn
   * challenges, pending second steps, SSO states; each already useless, as its taking checks the expiry).
   */
  async function pruneExpired(): Promise<void> {
    const now = clock.now();
    await db.delete(sessions).where(lt(sessions.expiresAt, now));
    await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  }

  return {
    create,
    find,
    touchIfDue,
    remove,
    removeAllOfUser,
    listOfUser,
    markProof,
    setCurrentMembership,
    pruneExpired,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

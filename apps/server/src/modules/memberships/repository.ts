import type { Account, Membership, TeamMembership } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AccountRow, MembershipRow } from '../../lib/rows.ts';

const { accounts, memberships, users, userTotp, passkeys } = schema;

export type { AccountRow, MembershipRow };

export function toAccountDto(account: AccountRow): Account {
  return {
    id: account.id,
    displayName: account.displayName,
    uploadedProfileImage: account.uploadedProfileImage,
  };
}

export function toMembershipDto(membership: MembershipRow, account: AccountRow): Membership {
  return {
    id: membership.id,
    role: membership.role,
    canSearchData: membership.canSearchData,
    canViewReports: membership.canViewReports,
    account: toAccountDto(account),
  };
}

/**
 * The user's memberships with their accounts, newest first: the client puts a newly added membership first (SPEC §4),
 * so the server's order matches what the user saw before reloading.
 */
export async function listMembershipsOfUser(db: Db, userId: number): Promise<Membership[]> {
  const rows = await db
    .select({ membership: memberships, account: accounts })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(desc(memberships.createdAt), desc(memberships.id));
  return rows.map(({ membership, account }) => toMembershipDto(membership, account));
}

/** One membership of the user (with its account), or undefined. */
export async function findMembershipOfUser(
  db: Db,
  userId: number,
  membershipId: number,
): Promise<Membership | undefined> {
  const [row] = await db
    .select({ membership: memberships, account: accounts })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.id, membershipId), eq(memberships.userId, userId)))
    .limit(1);
  return row && toMembershipDto(row.membership, row.account);
}

/** The session's remembered membership while the user still has it, else the first one (SPEC §4). */
export function pickCurrentMembership(list: Membership[], preferredId: number | null): Membership | null {
  return list.find((m) => m.id === preferredId) ?? list[0] ?? null;
}

/**
 * Memberships with their person and account (the team screen's shape), filtered by `where`, in `order`.
 * Callers pass a filter that names the account (tenant-scoped) or the user (the caller's own).
 */
export async function selectTeamMemberships(
  db: Db,
  where: SQL,
  order: 'oldest' | 'newest',
): Promise<TeamMembership[]> {
  const rows = await db
    .select({
      membership: memberships,
      account: accounts,
      user: users,
      // Which second factors each person has (issue #38), in the same statement: no query per member.
      totp: sql<boolean>`exists (select 1 from ${userTotp} where ${userTotp.userId} = ${users.id} and ${userTotp.confirmedAt} is not null)`,
      passkeys: sql<number>`(select count(*) from ${passkeys} where ${passkeys.userId} = ${users.id})::int`,
    })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where)
    .orderBy(
      ...(order === 'oldest'
        ? [asc(memberships.createdAt), asc(memberships.id)]
        : [desc(memberships.createdAt), desc(memberships.id)]),
    );
  return rows.map(({ membership, account, user, totp, passkeys: passkeyCount }) => ({
    ...toMembershipDto(membership, account),
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      uploadedProfileImage: user.uploadedProfileImage,
    },
    created: membership.createdAt.toISOString(),
    mfa: { totp: Boolean(totp), passkeys: Number(passkeyCount) },
  }));
}

import type { Membership } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { desc, eq } from 'drizzle-orm';

const { accounts, memberships } = schema;

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
  return rows.map(({ membership, account }) => ({
    id: membership.id,
    role: membership.role,
    canSearchData: membership.canSearchData,
    canViewReports: membership.canViewReports,
    account: {
      id: account.id,
      displayName: account.displayName,
      uploadedProfileImage: account.uploadedProfileImage,
    },
  }));
}

/** The session's remembered membership while the user still has it, else the first one (SPEC §4). */
export function pickCurrentMembership(list: Membership[], preferredId: number | null): Membership | null {
  return list.find((m) => m.id === preferredId) ?? list[0] ?? null;
}

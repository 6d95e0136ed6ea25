import { type CheckDeleteResponse, serverTexts } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { UserRow } from './repository.ts';

const { accounts, memberships, users } = schema;

/** The user's own profile (SPEC §7 /api/users/{id}); routes make sure the id is the caller's own. */
export function createUserService(db: Db) {
  async function update(user: UserRow, values: Partial<Pick<UserRow, 'name' | 'uploadedProfileImage'>>) {
    const [updated] = await db.update(users).set(values).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error(`User ${user.id} vanished during an update`);
    return updated;
  }

  const updateName = (user: UserRow, name: string) => update(user, { name });

  const setProfileImage = (user: UserRow, url: string) => update(user, { uploadedProfileImage: url });

  /** The image bytes stay in `media` (content-addressed, maybe shared); only the user's reference goes. */
  const deleteProfileImage = (user: UserRow) => update(user, { uploadedProfileImage: null });

  /**
   * Whether the user could close their login (SPEC §1: done by contacting support; this only says whether support
   * could). The rule: a user who is the ONLY owner of an account cannot, whether or not that account has other
   * members — the account (its forms and verification evidence) would be left with nobody able to manage it.
   * One reason per such account: make someone else an owner, or close that account, first.
   */
  async function checkDelete(user: UserRow): Promise<CheckDeleteResponse> {
    const owned = db
      .select({ accountId: memberships.accountId })
      .from(memberships)
      .where(and(eq(memberships.userId, user.id), eq(memberships.role, 'owner')));
    const rows = await db
      .select({ displayName: accounts.displayName, owners: count() })
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.accountId))
      .where(and(eq(memberships.role, 'owner'), inArray(memberships.accountId, owned)))
      .groupBy(accounts.id, accounts.displayName)
      .orderBy(asc(accounts.displayName), asc(accounts.id));
    const reasons = rows
      .filter((row) => row.owners === 1)
      .map((row) => serverTexts.onlyOwner(row.displayName));
    return { canDelete: reasons.length === 0, reasons };
  }

  return { updateName, setProfileImage, deleteProfileImage, checkDelete };
}

export type UserService = ReturnType<typeof createUserService>;

import type { User } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import type { UserRow } from '../../lib/rows.ts';

const { users } = schema;

export type { UserRow };

/** The user as every API answer and the initial page data show it (SPEC §3). */
export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    uploadedProfileImage: row.uploadedProfileImage,
    isAuthenticated: true,
    emailIsVerified: row.emailIsVerified,
    emailVerifiedAsOf: row.emailVerifiedAsOf?.toISOString() ?? null,
  };
}

/** Addresses are stored lower-cased; the lookup is case-insensitive (and uses the unique lower(email) index). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

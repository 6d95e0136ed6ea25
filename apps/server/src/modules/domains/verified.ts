import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, asc, eq, isNotNull } from 'drizzle-orm';

const { accountDomains } = schema;

/**
 * The account's verified domains, oldest proof first: what a certificate signs at issue (certificates/content.ts) and
 * what the public pages show beside the company's name.
 */
export async function verifiedDomainsOf(db: Db, accountId: number): Promise<string[]> {
  const rows = await db
    .select({ domain: accountDomains.domain })
    .from(accountDomains)
    .where(and(eq(accountDomains.accountId, accountId), isNotNull(accountDomains.verifiedAt)))
    .orderBy(asc(accountDomains.verifiedAt), asc(accountDomains.id));
  return rows.map((row) => row.domain);
}

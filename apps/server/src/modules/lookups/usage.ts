import type { LookupKind } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';

const { lookupUsage } = schema;

/** The UTC month of an instant, as `lookup_usage.month` names it (its first day). */
export function monthOf(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

/** The lookups asked of the provider in the UTC month of `at`, per kind: what the monthly ceiling counts. */
export async function usageIn(reader: Db, accountId: number, at: Date): Promise<Record<LookupKind, number>> {
  const rows = await reader
    .select({ kind: lookupUsage.kind, asked: lookupUsage.asked })
    .from(lookupUsage)
    .where(and(eq(lookupUsage.accountId, accountId), eq(lookupUsage.month, monthOf(at))));
  const counts: Record<LookupKind, number> = { lineType: 0, simSwap: 0, reassigned: 0 };
  for (const row of rows) counts[row.kind] = row.asked;
  return counts;
}

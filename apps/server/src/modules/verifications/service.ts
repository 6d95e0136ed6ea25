import type { Verification, VerificationList, verificationListQuerySchema } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tenant } from '../../plugins/tenancy.ts';

const { verifications } = schema;

export type VerificationRow = typeof verifications.$inferSelect;
export type VerificationListParams = z.output<typeof verificationListQuerySchema>;

export const toVerificationDto = (row: VerificationRow): Verification => ({
  id: row.id,
  cellPhone: row.cellPhone,
  externalRefId: row.externalRefId,
  verifyFormId: row.verifyFormId,
  verifyFormName: row.verifyFormName,
  verifyFormCategory: row.verifyFormCategory,
  verificationMethod: row.verificationMethod,
  isTest: row.isTest,
  created: row.createdAt.toISOString(),
});

/**
 * Verifications of one account (SPEC §2 /activity-log/). For now the form page's "recent verifications": filter by
 * form, newest first, paged. Issue #6 adds the rest of SPEC §2's filters and sorts to `listWhere` and `orderOf`.
 */
export function createVerificationService(deps: { db: Db }) {
  const { db } = deps;

  /** Always the tenant's account first: another account's form id in `verifyFormId__in` then simply matches nothing. */
  function listWhere(tenant: Tenant, query: VerificationListParams): SQL | undefined {
    const conditions: SQL[] = [eq(verifications.accountId, tenant.accountId)];
    if (query.verifyFormId__in && query.verifyFormId__in.length > 0)
      conditions.push(inArray(verifications.verifyFormId, query.verifyFormId__in));
    return and(...conditions);
  }

  async function list(tenant: Tenant, query: VerificationListParams): Promise<VerificationList> {
    const where = listWhere(tenant, query);
    const [total] = await db.select({ n: count() }).from(verifications).where(where);
    const rows = await db
      .select()
      .from(verifications)
      .where(where)
      // The id breaks ties between rows of the same instant, so pages never overlap (index account, created, id).
      .orderBy(desc(verifications.createdAt), desc(verifications.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    return {
      count: total?.n ?? 0,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      results: rows.map(toVerificationDto),
    };
  }

  return { list };
}

export type VerificationService = ReturnType<typeof createVerificationService>;

import type { VerificationAttemptList, verificationAttemptListQuerySchema } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { createAttemptExport } from './export.ts';
import {
  attemptFilter,
  attemptOrderBy,
  attemptRows,
  countAttempts,
  deliveryHistories,
  toAttemptDto,
} from './query.ts';

const { verificationAttempts } = schema;

export type VerificationAttemptListParams = z.output<typeof verificationAttemptListQuerySchema>;

/**
 * The activity log's attempts view (issue #18 item 6): every code sent, verified or not, with what happened to its
 * message. Same right and scoping as the log (canSearchData; every query by `ctx.accountId`); the list and the CSV
 * read the same SQL (query.ts).
 */
export function createVerificationAttemptService(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock } = deps;

  async function list(
    ctx: AccountContext,
    query: VerificationAttemptListParams,
  ): Promise<VerificationAttemptList> {
    const now = clock.now();
    const filtered = await attemptFilter(db, ctx.accountId, query, now);
    const { where } = filtered;
    // The page's ids from the (account, created desc, id desc) index, then whole rows for those only.
    const page = db
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(where)
      .orderBy(...attemptOrderBy)
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    // Independent reads: on PostgreSQL two pooled connections at once; PGlite runs them one by one.
    const [total, rows] = await Promise.all([
      countAttempts(db, ctx.accountId, query, now, filtered),
      attemptRows(db, now, page),
    ]);
    // The page's delivery histories in one query.
    const histories = await deliveryHistories(
      db,
      rows.map((row) => row.id),
    );
    return {
      count: total,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      results: rows.map((row) => toAttemptDto(row, now, histories.get(row.id) ?? [])),
    };
  }

  return { list, ...createAttemptExport(deps) };
}

export type VerificationAttemptService = ReturnType<typeof createVerificationAttemptService>;

import type { ApiReassignmentCheck, ApiReassignmentCheckList } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { ReassignmentChecks } from '../lookups/index.ts';

const { verificationAttempts } = schema;

/** A verification kept without the code that approved it (made before codes were kept) has nothing to check. */
export const noApprovedCodeText =
  'This verification has no record of the code that approved it: there is no consent date to check the number against.';

/**
 * The app's reassigned-number checks of a verification (issue #36 item 2, the "Check for reassignment" button): the
 * lookups module's checks (`createReassignmentChecks`, API v1's too) of the code that approved it, which is what API v1
 * names the verification by. The member's context is the session's; the tenancy hook has found the verification in
 * the member's account.
 */
export function createNumberChecks(deps: { db: Db; reassignmentChecks: ReassignmentChecks }) {
  const { db, reassignmentChecks } = deps;

  /** The approved attempt's id (API v1's verification id), or null when none was kept. */
  async function approvedAttemptOf(ctx: AccountContext, verificationId: number): Promise<string | null> {
    const [row] = await db
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(
        and(
          eq(verificationAttempts.verificationId, verificationId),
          eq(verificationAttempts.accountId, ctx.accountId),
        ),
      )
      .limit(1);
    return row?.id ?? null;
  }

  async function check(ctx: AccountContext, verificationId: number): Promise<ApiReassignmentCheck> {
    const attemptId = await approvedAttemptOf(ctx, verificationId);
    if (attemptId === null)
      throw new AppError('validation_error', {
        nonFieldErrors: [noApprovedCodeText],
        problem: 'reassignment_check_not_possible',
      });
    return reassignmentChecks.check(ctx, attemptId);
  }

  async function list(ctx: AccountContext, verificationId: number): Promise<ApiReassignmentCheckList> {
    const attemptId = await approvedAttemptOf(ctx, verificationId);
    return attemptId === null ? { data: [] } : reassignmentChecks.list(ctx, attemptId);
  }

  return { check, list };
}

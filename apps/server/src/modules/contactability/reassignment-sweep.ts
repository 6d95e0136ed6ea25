import type { Db } from '@veriform/db';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { eachAtMost } from '../../lib/concurrency.ts';
import { rowsOf } from '../../lib/rows.ts';
import {
  accountsCheckingReassigned,
  checkIsDue,
  latestReassignmentOf,
  notCheckable,
  type ReassignmentChecks,
} from '../lookups/index.ts';
import { firstRevocationOfVerification } from '../revocations/index.ts';
import { checkUntilCeiling, REASSIGNMENT_CHECK_CONCURRENCY } from './reassignment.ts';
import { accountRulesOf, consentRefusals, newestConsentOf } from './service.ts';

/** Verifications read per statement (keyset by id); their due checks are then made 8 at once. */
export const SWEEP_PAGE = 200;

const instant = z.union([z.date(), z.string()]).transform((value) => new Date(value));
const pageSchema = z.array(
  z
    .object({
      id: z.coerce.number(),
      attempt_id: z.string(),
      cell_phone: z.string(),
      method: z.enum(['sms', 'email']),
      verified_at: instant,
      revoked_at: instant.nullable(),
      reassignment_checked_at: instant.nullable(),
    })
    .transform((row) => ({
      id: row.id,
      attemptId: row.attempt_id,
      cellPhone: row.cell_phone,
      method: row.method,
      verifiedAt: row.verified_at,
      revokedAt: row.revoked_at,
      checkedAt: row.reassignment_checked_at,
    })),
);

/**
 * Starts at most `perSecond` checks a second (real time; undefined: as fast as the concurrency goes). The sweep shares
 * the app's processes and database with live traffic, and its 100k numbers have all day: unpaced, 8 at once against
 * a provider answering in 250 ms, it took the load mix's p95 to 1.18×; at 5 a second, 1.06–1.10× (docs/benchmarks.md,
 * session 30).
 */
function pacer(perSecond: number | undefined): () => Promise<void> {
  if (perSecond === undefined || perSecond <= 0) return async () => {};
  const gapMs = 1000 / perSecond;
  let nextAt = performance.now();
  return async () => {
    const now = performance.now();
    const at = Math.max(now, nextAt);
    nextAt = at + gapMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
}

export type SweepReport = {
  accounts: number;
  checked: number;
  failed: number;
  /** Accounts whose monthly ceiling stopped their checks before the end. */
  stoppedAtCeiling: number;
};

/**
 * The scheduled reassigned-number checks (issue #36 item 2, ADR 43): for every account with `reassignedChecks` on,
 * every number with live consent — the newest approved verification of each live number (the verdict's
 * `newestConsentOf`, asked about now), not redacted, not revoked, younger than the account's consent age — whose check
 * may be made (`notCheckable`: by text, US) and is due (`checkIsDue`) is checked, 8 at once, in pages by verification
 * id. An account's monthly ceiling stops its checks (logged, without a number); a provider failure is counted and left
 * for the next run. Two runs at once share each question (lookUp makes one request of it) and each check (one row per
 * verification and record); a run cut off resumes by running again: what it checked is no longer due.
 */
export async function checkReassignedNumbers(deps: {
  db: Db;
  clock: Clock;
  reassignmentChecks: ReassignmentChecks;
  log: Pick<FastifyBaseLogger, 'info'>;
  /** The sweep's pace: checks started per second at most (config `reassignmentSweepChecksPerSecond`). */
  checksPerSecond?: number | undefined;
}): Promise<SweepReport> {
  const { db, clock, log } = deps;
  const pace = pacer(deps.checksPerSecond);
  const report: SweepReport = { accounts: 0, checked: 0, failed: 0, stoppedAtCeiling: 0 };

  async function pageOf(accountId: number, after: number, now: Date) {
    const nowAt = sql`${now.toISOString()}::timestamptz`;
    const answer = await db.execute(sql`
      select v.id, a.id as attempt_id, v.cell_phone, v.verification_method as method, v.verified_at,
             r.received_at as revoked_at, rc.checked_at as reassignment_checked_at
      from verifications v
      join lateral (
        select a.id from verification_attempts a where a.verification_id = v.id limit 1
      ) a on true
      left join lateral ${firstRevocationOfVerification()} r on true
      left join lateral ${latestReassignmentOf(sql`a.id`)} rc on true
      where v.account_id = ${accountId} and v.is_test = false and v.id > ${after}
        and v.id = (
          select n.id from ${newestConsentOf({ accountId, isTest: false, phone: sql`v.cell_phone`, at: nowAt })} n
        )
      order by v.id
      limit ${SWEEP_PAGE}`);
    return pageSchema.parse(rowsOf(answer));
  }

  for (const { accountId, maxAgeDays } of await accountsCheckingReassigned(db)) {
    report.accounts += 1;
    const months = (await accountRulesOf(db, accountId)).consentMaxAgeMonths;
    // Past the ceiling, the rest of the account asks nothing.
    const check = checkUntilCeiling(deps.reassignmentChecks, { accountId, livemode: true });
    let after = 0;
    let atCeiling = false;
    let checked = 0;
    while (!atCeiling) {
      const now = clock.now();
      const page = await pageOf(accountId, after, now);
      const last = page.at(-1);
      if (!last) break;
      after = last.id;
      const due = page
        .filter(
          (row) =>
            consentRefusals(now, row, months).length === 0 &&
            notCheckable({ ...row, redactedAt: null }) === null &&
            checkIsDue(row.checkedAt, maxAgeDays, now),
        )
        .map((row) => row.attemptId);
      const outcomes = await eachAtMost(due, REASSIGNMENT_CHECK_CONCURRENCY, async (attemptId) => {
        await pace();
        return check(attemptId);
      });
      for (const outcome of outcomes.values()) {
        if (outcome.note === 'made') checked += 1;
        else if (outcome.note === 'failed') report.failed += 1;
        else if (outcome.note === 'ceiling_reached') atCeiling = true;
      }
      if (page.length < SWEEP_PAGE) break;
    }
    report.checked += checked;
    if (atCeiling) {
      report.stoppedAtCeiling += 1;
      log.info(
        { accountId, checked },
        'check-reassigned-numbers: the account reached its monthly ceiling of reassigned-number checks; the rest waits for next month or a higher ceiling',
      );
    }
  }
  return report;
}

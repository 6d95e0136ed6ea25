import type { ContactabilityVerdict, ReassignmentCheckNote } from '@veriform/contracts';
import { eachAtMost } from '../../lib/concurrency.ts';
import { AppError } from '../../lib/errors.ts';
import { type AccountMode, checkIsDue, notCheckable, type ReassignmentChecks } from '../lookups/index.ts';

/**
 * The verdict's reassigned-number checks (issue #36 item 2, ADR 43): before judging, the due check of each standing
 * consent is made, 8 at once, for at most the configured wait; what could not be made in time, or at all, leaves the
 * verdict judged on what was known, and says so.
 */

/** Checks made at once, by a verdict and by the schedule: a provider's rate and the pool's connections both bound it. */
export const REASSIGNMENT_CHECK_CONCURRENCY = 8;

export type ReassignmentUsed = Pick<ContactabilityVerdict, 'reassignment' | 'reassignmentCheck'>;

/** What a check asked by the verdict or the schedule ended with. */
export type CheckOutcome =
  | { note: 'made'; checkedAt: string; answer: 'yes' | 'no' | 'no_data' }
  | { note: 'failed' | 'ceiling_reached' | 'not_possible' };

/**
 * One check, its expected refusals as outcomes: the provider's silence (`lookup_failed`), the monthly ceiling, and a
 * verification that could not be checked after all (redacted meanwhile). Anything else is an error.
 */
export async function checkOne(
  checks: ReassignmentChecks,
  asker: AccountMode,
  attemptId: string,
): Promise<CheckOutcome> {
  try {
    const made = await checks.checkFor(asker, attemptId);
    return { note: 'made', checkedAt: made.checkedAt, answer: made.answer };
  } catch (error) {
    if (error instanceof AppError) {
      if (error.code === 'lookup_failed') return { note: 'failed' };
      if (error.code === 'lookup_ceiling_reached') return { note: 'ceiling_reached' };
      if (error.code === 'validation_error' || error.code === 'not_found') return { note: 'not_possible' };
    }
    throw error;
  }
}

/** `checkOne`, but once the account's ceiling refused one, the rest ask nothing: each would be refused the same. */
export function checkUntilCeiling(
  checks: ReassignmentChecks,
  asker: AccountMode,
): (attemptId: string) => Promise<CheckOutcome> {
  let atCeiling = false;
  return async (attemptId) => {
    if (atCeiling) return { note: 'ceiling_reached' };
    const outcome = await checkOne(checks, asker, attemptId);
    if (outcome.note === 'ceiling_reached') atCeiling = true;
    return outcome;
  };
}

/** What the verdict knows of one question's consent before its check. */
export type ConsentToCheck = {
  verificationId: string | null;
  phone: string;
  verifiedAt: Date | null;
  method: 'sms' | 'email' | null;
  /** Whether the consent stands at the instant asked about (consentRefusals is empty). */
  stands: boolean;
  reassigned: 'yes' | 'no' | 'no_data' | null;
  reassignmentCheckedAt: Date | null;
};

/**
 * The check each question's verdict judges with, in the order asked: due checks made first (each verification once,
 * however many questions name it), at most `waitMs` waited for.
 */
export async function checksBeforeJudging(
  deps: { checks: ReassignmentChecks; waitMs: number },
  asker: AccountMode,
  settings: { on: boolean; maxAgeDays: number },
  now: Date,
  consents: ConsentToCheck[],
): Promise<{ reassigned: ConsentToCheck['reassigned']; used: ReassignmentUsed }[]> {
  const latest = (consent: ConsentToCheck): ReassignmentUsed['reassignment'] =>
    consent.reassigned && consent.reassignmentCheckedAt
      ? { checkedAt: consent.reassignmentCheckedAt.toISOString(), answer: consent.reassigned }
      : null;
  const planned = consents.map((consent): ReassignmentCheckNote | { due: string } => {
    if (!settings.on) return 'off';
    if (!consent.stands) return 'not_due';
    if (!consent.verificationId || !consent.method) return 'not_possible';
    const why = notCheckable({
      method: consent.method,
      cellPhone: consent.phone,
      verifiedAt: consent.verifiedAt,
      redactedAt: null,
    });
    if (why) return 'not_possible';
    if (!checkIsDue(consent.reassignmentCheckedAt, settings.maxAgeDays, now)) return 'reused';
    return { due: consent.verificationId };
  });
  const due = [...new Set(planned.flatMap((plan) => (typeof plan === 'string' ? [] : [plan.due])))];
  const outcomes =
    due.length === 0
      ? new Map<string, CheckOutcome>()
      : await eachAtMost(due, REASSIGNMENT_CHECK_CONCURRENCY, checkUntilCeiling(deps.checks, asker), {
          waitMs: deps.waitMs,
        });
  return consents.map((consent, i) => {
    const plan = planned[i] ?? 'off';
    if (typeof plan === 'string')
      return {
        reassigned: consent.reassigned,
        used: { reassignment: latest(consent), reassignmentCheck: plan },
      };
    const outcome = outcomes.get(plan.due);
    if (!outcome)
      return {
        reassigned: consent.reassigned,
        used: { reassignment: latest(consent), reassignmentCheck: 'timed_out' },
      };
    if (outcome.note !== 'made')
      return {
        reassigned: consent.reassigned,
        used: { reassignment: latest(consent), reassignmentCheck: outcome.note },
      };
    return {
      reassigned: outcome.answer,
      used: {
        reassignment: { checkedAt: outcome.checkedAt, answer: outcome.answer },
        reassignmentCheck: 'made',
      },
    };
  });
}

import { type PublicLanguage, publicRevokeTexts } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.ts';
import { SmsSendError, type SmsSender } from '../../messaging/sms.ts';
import { oneLine } from '../../messaging/templates/layout.ts';

const { revocations, accounts } = schema;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * The one confirmation text of a revocation (issue #35). FCC 24-24 (47 CFR 64.1200(a)(12)): a one-time text that
 * confirms a revocation request is allowed, sent within five minutes of receiving it and saying nothing else. A reply
 * that is a per-se revocation gets it as the webhook's TwiML answer (inbound-routes.ts); a revocation from the public
 * page gets it when the consumer asks, through a job written in the revocation's transaction
 * (jobs/definitions/send-revocation-confirmation.ts), which sends it here.
 */
export const CONFIRMATION_WINDOW_MS = 5 * MINUTE_MS;

/**
 * How many confirmation texts may go out (limits as data, counted in `rate_limit_events` as every limit). One per
 * revocation: the claim is taken before the text is sent, so a retried or repeated job never sends a second one. One a
 * day per number: the page asks no proof that the number is the consumer's, so nobody can make it text a stranger
 * more than once a day. Per account a day: a runaway or abused form stops before the bill grows.
 */
export const CONFIRMATION_LIMITS = {
  perRevocation: { limit: 1, windowMs: 60 * MINUTE_MS },
  perPhone: { limit: 1, windowMs: DAY_MS },
  perAccount: { limit: 1000, windowMs: DAY_MS },
} as const;

/** The text itself, in the form's (or the reply's) language, naming the company on one line. */
export function composeConfirmationSms(language: PublicLanguage, company: string): string {
  return publicRevokeTexts[language].confirmationSms(oneLine(company));
}

function confirmationRules(row: { id: string; accountId: number; phone: string }): RateLimitRule[] {
  return [
    { bucket: `revocation-confirmation:revocation:${row.id}`, ...CONFIRMATION_LIMITS.perRevocation },
    { bucket: `revocation-confirmation:phone:${row.phone}`, ...CONFIRMATION_LIMITS.perPhone },
    { bucket: `revocation-confirmation:account:${row.accountId}`, ...CONFIRMATION_LIMITS.perAccount },
  ];
}

/**
 * sent: Twilio took it. skipped: no such revocation, or none by number. late: past the five minutes. limited: already
 * sent for this revocation, or a limit above refused. rejected: Twilio refused the number for good. unknown: the send
 * failed in a way that may still have reached Twilio (a timeout): never tried again, since it may have gone.
 */
export type ConfirmationOutcome = 'sent' | 'skipped' | 'late' | 'limited' | 'rejected' | 'unknown';

export async function deliverRevocationConfirmation(
  deps: { db: Db; clock: Clock; sms: SmsSender; rateLimit: RateLimiter; log: FastifyBaseLogger },
  job: { revocationId: string; language: PublicLanguage },
): Promise<ConfirmationOutcome> {
  const { db, clock, sms, rateLimit, log } = deps;
  const [row] = await db
    .select({
      id: revocations.id,
      accountId: revocations.accountId,
      phone: revocations.phone,
      receivedAt: revocations.receivedAt,
      company: accounts.displayName,
    })
    .from(revocations)
    .innerJoin(accounts, eq(accounts.id, revocations.accountId))
    .where(eq(revocations.id, job.revocationId))
    .limit(1);
  if (!row?.phone) return 'skipped';
  if (clock.now().getTime() - row.receivedAt.getTime() > CONFIRMATION_WINDOW_MS) return 'late';
  const rules = confirmationRules({ id: row.id, accountId: row.accountId, phone: row.phone });
  const claim = await rateLimit.locked(
    rules.map((rule) => rule.bucket),
    async (scope) => {
      if (!(await scope.checkAll(rules)).allowed) return null;
      return scope.record(rules.map((rule) => rule.bucket));
    },
  );
  if (!claim) return 'limited';
  try {
    await sms.send({ to: row.phone, text: composeConfirmationSms(job.language, row.company) });
  } catch (error) {
    // Twilio answered with an error (429, 5xx): nothing was sent, so the claim is given back and the job tries again
    // (within the five minutes). Anything else may have reached Twilio, and a second text would break the rule.
    if (error instanceof SmsSendError && !error.permanent && error.status !== undefined) {
      await rateLimit.release(claim);
      throw error;
    }
    log.warn({ revocationId: row.id, err: error }, 'revocation confirmation not sent; not retried');
    return error instanceof SmsSendError && error.permanent ? 'rejected' : 'unknown';
  }
  return 'sent';
}

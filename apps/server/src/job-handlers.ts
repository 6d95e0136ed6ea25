import type { ExecuteSql } from '@veriform/db';
import { handleJob, type JobHandler, openSealed } from './jobs/define.ts';
import { carryOutPrivacyRequest } from './jobs/definitions/carry-out-privacy-request.ts';
import { checkReassignedNumbers } from './jobs/definitions/check-reassigned-numbers.ts';
import { deliverWebhook } from './jobs/definitions/deliver-webhook.ts';
import { emitExpiredVerifications } from './jobs/definitions/emit-expired-verifications.ts';
import { notifyOverdueRevocations } from './jobs/definitions/notify-overdue-revocations.ts';
import { pruneAuditEvents } from './jobs/definitions/prune-audit-events.ts';
import { pruneIdempotencyKeys } from './jobs/definitions/prune-idempotency-keys.ts';
import { OUTBOX_MAX_AGE_MS, pruneOutbox } from './jobs/definitions/prune-outbox.ts';
import { prunePrivacyRequests } from './jobs/definitions/prune-privacy-requests.ts';
import { pruneRateLimitEvents } from './jobs/definitions/prune-rate-limit-events.ts';
import { pruneSessions } from './jobs/definitions/prune-sessions.ts';
import { pruneWebhookEvents } from './jobs/definitions/prune-webhook-events.ts';
import { purgeExpiredEvidence } from './jobs/definitions/purge-expired-evidence.ts';
import { reopenStalledPrivacyRequests } from './jobs/definitions/reopen-stalled-privacy-requests.ts';
import { sendEmailChangeLink } from './jobs/definitions/send-email-change-link.ts';
import { sendEmailChangeRequestedNotice } from './jobs/definitions/send-email-change-requested-notice.ts';
import {
  changedAddresses,
  emailChangedAddressesSeal,
  sendEmailChangedNotice,
} from './jobs/definitions/send-email-changed-notice.ts';
import { invitationKeyContext, sendInvitationEmail } from './jobs/definitions/send-invitation-email.ts';
import {
  resetPasswordAddressSeal,
  sendResetPasswordEmail,
} from './jobs/definitions/send-reset-password-email.ts';
import { sendRevocationConfirmation } from './jobs/definitions/send-revocation-confirmation.ts';
import { sendRevocationOverdueEmail } from './jobs/definitions/send-revocation-overdue-email.ts';
import { sendVerificationCode } from './jobs/definitions/send-verification-code.ts';
import { sendVerifyEmail, verifyEmailAddressSeal } from './jobs/definitions/send-verify-email.ts';
import { sendWebhookFailingEmailJob } from './jobs/definitions/send-webhook-failing-email.ts';
import type { JobWork } from './jobs/queue.ts';
import { SealedValueError } from './lib/sealed.ts';
import { pruneOutbox as pruneOutboxRows } from './messaging/outbox.ts';
import {
  pruneWebhookEvents as pruneEvents,
  pruneIdempotencyKeys as pruneKeys,
} from './modules/api-v1/index.ts';
import { createCodeSendStore, sendVerificationCode as sendCode } from './modules/attempts/index.ts';
import { pruneAuditEvents as pruneAudit } from './modules/audit/index.ts';
import { checkReassignedNumbers as sweepReassigned } from './modules/contactability/index.ts';
import { purgeExpiredEvidence as purgeEvidence } from './modules/retention/index.ts';
import {
  deliverRevocationConfirmation,
  sendOverdueEmail,
  notifyOverdueRevocations as sweepOverdue,
} from './modules/revocations/index.ts';
import { emitExpiredVerifications as sweepExpired } from './modules/verifications/index.ts';
import { createWebhookDeliveryStore, sendWebhookFailingEmail } from './modules/webhooks/index.ts';
import type { Services } from './services.ts';

/**
 * The work of every job (ADR 33): jobs/definitions/ declares them (name, payload, policy, schedule) and knows no
 * module; here each gets its handler, with the services it needs picked out of the app's, and each row job its rows.
 * The app hands this to `jobs.start` when it is ready.
 */
export function createJobWork(services: Services, executeSql: ExecuteSql): JobWork {
  const { config, db, clock, mailer, sms, sealer, webhookEvents } = services;
  return {
    // The row jobs' own statements go through the driver, as pg-boss's do.
    rowStores: [createCodeSendStore(executeSql), createWebhookDeliveryStore(executeSql)],
    handlers: [
      handleJob(sendVerificationCode, async ({ attemptId, sealedCode }, { log }) => {
        let code: string;
        try {
          code = sealer.open(sealedCode, attemptId);
        } catch (error) {
          // SECRET_KEY changed since the code was queued: no retry can open it; the consumer can ask for a new code.
          if (!(error instanceof SealedValueError)) throw error;
          log.error({ attemptId }, 'send-verification-code: cannot open the sealed code; dropped');
          return { outcome: 'unreadable' };
        }
        const deps = { config, db, clock, mailer, sms, webhookEvents, log };
        return { outcome: await sendCode(deps, { attemptId, code }) };
      }),
      handleJob(deliverWebhook, async (payload, { log }) => ({
        outcome: await services.webhookSender.attempt(payload, log),
      })),
      handleJob(sendInvitationEmail, async ({ invitationId, sealedKey }, { log }) => {
        let key: string;
        try {
          key = sealer.open(sealedKey, invitationKeyContext(invitationId));
        } catch (error) {
          // SECRET_KEY changed since the job was queued: no retry can open it; the owner can resend the invitation.
          if (!(error instanceof SealedValueError)) throw error;
          log.error({ invitationId }, 'send-invitation-email: cannot open the sealed key; dropped');
          return { outcome: 'unreadable' };
        }
        return { outcome: await services.invitations.deliverEmail(invitationId, key) };
      }),
      handleJob(sendVerifyEmail, async ({ sealedEmail }, context) => {
        const email = openSealed(sealer, context, sealedEmail, verifyEmailAddressSeal);
        if (email === undefined) return { outcome: 'unreadable' };
        return { outcome: await services.emailVerification.deliver(email) };
      }),
      handleJob(sendResetPasswordEmail, async ({ sealedEmail }, context) => {
        const email = openSealed(sealer, context, sealedEmail, resetPasswordAddressSeal);
        if (email === undefined) return { outcome: 'unreadable' };
        return { outcome: await services.passwordReset.deliver(email) };
      }),
      handleJob(sendEmailChangeLink, async ({ userId, requestedAt }) => ({
        outcome: await services.emailChange.deliverLink(userId, requestedAt),
      })),
      handleJob(sendEmailChangeRequestedNotice, async ({ userId, requestedAt }) => ({
        outcome: await services.emailChange.deliverRequestedNotice(userId, requestedAt),
      })),
      handleJob(sendEmailChangedNotice, async ({ userId, sealedAddresses }, context) => {
        const opened = openSealed(sealer, context, sealedAddresses, emailChangedAddressesSeal(userId));
        if (opened === undefined) return { outcome: 'unreadable' };
        const addresses = changedAddresses.parse(JSON.parse(opened));
        return { outcome: await services.emailChange.deliverChangedNotice(userId, addresses) };
      }),
      handleJob(sendWebhookFailingEmailJob, async (payload) => ({
        outcome: await sendWebhookFailingEmail({ db, mailer, config }, payload),
      })),
      handleJob(notifyOverdueRevocations, async () => ({
        outcome: 'notified',
        revocations: await sweepOverdue({
          db,
          clock,
          jobs: services.jobs,
          webhookEvents,
          describe: services.revocations.describe,
        }),
      })),
      handleJob(sendRevocationConfirmation, async (payload, { log }) => ({
        outcome: await deliverRevocationConfirmation(
          { db, clock, sms, rateLimit: services.rateLimit, log },
          payload,
        ),
      })),
      handleJob(sendRevocationOverdueEmail, async (payload) => ({
        outcome: await sendOverdueEmail({ db, mailer, config }, payload),
      })),
      handleJob(checkReassignedNumbers, async (_payload, { log }) => ({
        outcome: 'checked',
        ...(await sweepReassigned({
          db,
          clock,
          reassignmentChecks: services.reassignmentChecks,
          log,
          checksPerSecond: config.reassignmentSweepChecksPerSecond,
        })),
      })),
      handleJob(emitExpiredVerifications, async () => ({
        outcome: 'emitted',
        events: await sweepExpired({ db, clock, webhookEvents }),
      })),
      handleJob(pruneAuditEvents, async () => ({
        outcome: 'pruned',
        deleted: await pruneAudit({ db, clock, audit: services.audit }),
      })),
      handleJob(pruneIdempotencyKeys, async () => ({
        outcome: 'pruned',
        deleted: await pruneKeys(db, clock),
      })),
      handleJob(pruneOutbox, async () => ({
        outcome: 'pruned',
        deleted: await pruneOutboxRows(db, OUTBOX_MAX_AGE_MS),
      })),
      handleJob(pruneRateLimitEvents, async () => {
        await services.rateLimit.prune();
        return { outcome: 'pruned' };
      }),
      handleJob(pruneSessions, async () => {
        await services.sessions.pruneExpired();
        return { outcome: 'pruned' };
      }),
      handleJob(pruneWebhookEvents, async () => ({
        outcome: 'pruned',
        deleted: await pruneEvents(db, clock),
      })),
      handleJob(carryOutPrivacyRequest, async ({ privacyRequestId }, { job }) => {
        try {
          return { outcome: await services.privacyRequests.carryOutNow(privacyRequestId) };
        } catch (error) {
          // The last try: the request must not stay `running` for ever (it goes back to `open`, audited).
          if (job.retryCount >= job.retryLimit)
            await services.privacyRequests.carryOutFailed(privacyRequestId, { reason: 'failed' });
          throw error;
        }
      }),
      handleJob(prunePrivacyRequests, async () => ({
        outcome: 'pruned',
        deleted: await services.privacyRequests.prune(),
      })),
      handleJob(reopenStalledPrivacyRequests, async () => ({
        outcome: 'reopened',
        requests: await services.privacyRequests.reopenStalled(),
      })),
      handleJob(purgeExpiredEvidence, async () => {
        const purged = await purgeEvidence({ db, clock, audit: services.audit, pace: services.pace });
        return {
          outcome: 'purged',
          accounts: purged.accounts.length,
          verifications: purged.accounts.reduce((sum, account) => sum + account.removed.verifications, 0),
          orphanDeliveryEvents: purged.orphanDeliveryEvents,
        };
      }),
    ],
  };
}

/** One job's registered handler (tests run a handler directly). */
export function handlerOf(work: JobWork, name: string): JobHandler {
  const handler = work.handlers.find((candidate) => candidate.name === name);
  if (!handler) throw new Error(`no handler of job '${name}'`);
  return handler;
}

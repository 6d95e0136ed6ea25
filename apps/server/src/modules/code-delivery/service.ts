import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { emitDeliveryOutcome } from '../../messaging/delivery-outcome.ts';
import {
  type CodeDeliveryStatus,
  isFinalDeliveryStatus,
  lockProviderMessage,
  recordDeliveryEvent,
  recordOrphanEvent,
} from '../../messaging/delivery-status.ts';
import type { WebhookEvents } from '../webhooks/index.ts';

const { verificationAttempts } = schema;

/** One status report of a provider's message, as Twilio's callback names it (twilio-status-routes.ts). */
export type ProviderStatusReport = {
  messageSid: string;
  status: CodeDeliveryStatus;
  errorCode: string | null;
};

/**
 * Twilio's delivery reports (issue #18), recorded on the attempt whose message they name; the route checks the
 * signature and reads the form, this writes (ADR 0036: route files never reach the database).
 */
export function createTwilioStatus(deps: { db: Db; clock: Clock; webhookEvents: WebhookEvents }) {
  const { db, clock, webhookEvents } = deps;

  /** Records the report; false when no attempt has the message yet (kept aside for the send job to adopt). */
  async function record({ messageSid, status, errorCode }: ProviderStatusReport): Promise<boolean> {
    const at = clock.now();
    return transaction(db, async (tx) => {
      // The send job saves the SID under the same lock: either it has committed (the attempt is found) or it will
      // adopt what is stored here.
      await lockProviderMessage(tx, messageSid);
      const [attempt] = await tx
        .select({ id: verificationAttempts.id })
        .from(verificationAttempts)
        .where(eq(verificationAttempts.providerMessageId, messageSid))
        .limit(1);
      if (!attempt) {
        await recordOrphanEvent(tx, { status, at, errorCode, providerMessageId: messageSid });
        return false;
      }
      const moved = await recordDeliveryEvent(tx, {
        attemptId: attempt.id,
        status,
        at,
        errorCode,
        providerMessageId: messageSid,
      });
      if (moved && isFinalDeliveryStatus(status))
        await emitDeliveryOutcome(tx, webhookEvents, attempt.id, at);
      return true;
    });
  }

  return { record };
}

export type TwilioStatus = ReturnType<typeof createTwilioStatus>;

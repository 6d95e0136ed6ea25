import type { Db } from '@veriform/db';
import type { Clock } from '../../lib/clock.ts';
import { type CodeDeliveryStatus, recordProviderStatus } from '../attempts/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';

/** One status report of a provider's message, as Twilio's callback names it (twilio-status-routes.ts). */
export type ProviderStatusReport = {
  messageSid: string;
  status: CodeDeliveryStatus;
  errorCode: string | null;
};

/**
 * Twilio's delivery reports (issue #18), recorded on the attempt whose message they name; the route checks the
 * signature and reads the form, the attempt's store writes (ADR 35; ADR 36: route files never reach the database).
 */
export function createTwilioStatus(deps: { db: Db; clock: Clock; webhookEvents: WebhookEvents }) {
  const { db, clock, webhookEvents } = deps;

  /** Records the report; false when no attempt has the message yet (kept aside for the send job to adopt). */
  async function record({ messageSid, status, errorCode }: ProviderStatusReport): Promise<boolean> {
    return recordProviderStatus(db, webhookEvents, {
      providerMessageId: messageSid,
      status,
      errorCode,
      at: clock.now(),
    });
  }

  return { record };
}

export type TwilioStatus = ReturnType<typeof createTwilioStatus>;

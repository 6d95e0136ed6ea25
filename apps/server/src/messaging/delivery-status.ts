import type { schema } from '@veriform/db';

type CodeDeliveryStatus = (typeof schema.codeDeliveryStatuses)[number];

/**
 * Twilio's delivery statuses as the attempt's (the attempt's state, the forward-only order and what is shown are
 * modules/attempts' state.ts; the writes its store.ts).
 */

/**
 * Twilio's MessageStatus values as ours. `sending` is Twilio handing it to the carrier, as good as `sent` for us;
 * `read` (WhatsApp, RCS) implies delivered; `canceled` (a scheduled message) never left. Anything else (inbound
 * statuses) is not a delivery status of a code.
 */
export function fromTwilioStatus(status: string): CodeDeliveryStatus | null {
  switch (status) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
      return 'queued';
    case 'sending':
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

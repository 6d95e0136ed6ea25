import { WEBHOOK_EVENT_RETENTION_DAYS } from '@veriform/contracts';
import type { EmailMessage } from '../email.ts';
import { oneLine, ownerNoticeMessage } from './layout.ts';

export type WebhookFailingKind = 'warning' | 'disabled';

/**
 * An endpoint as an e-mail may name it: host and path. The query is left out (it often carries the receiver's token),
 * and so are user info and the fragment.
 */
export function endpointLabel(url: string): string {
  if (!URL.canParse(url)) return oneLine(url).slice(0, 200);
  const { host, pathname } = new URL(url);
  return oneLine(`${host}${pathname}`);
}

/**
 * To each owner of the account: its endpoint has failed every delivery for a day (`warning`, so they can act before
 * we stop), or for WEBHOOK_DISABLE_AFTER_DAYS and was disabled (`disabled`: how to turn it back on and get the missed
 * events).
 */
export function webhookFailingMessage(options: {
  to: string;
  kind: WebhookFailingKind;
  accountName: string;
  endpointUrl: string;
  failingSince: Date;
  disableAfterDays: number;
  link: string;
}): EmailMessage {
  const accountName = oneLine(options.accountName);
  const endpoint = endpointLabel(options.endpointUrl);
  const since = options.failingSince.toUTCString();
  const subject =
    options.kind === 'warning'
      ? `Webhook deliveries to ${endpoint} are failing`
      : `We disabled the webhook endpoint ${endpoint}`;
  const paragraphs =
    options.kind === 'warning'
      ? [
          `Every delivery of ${accountName}'s events to the webhook endpoint ${endpoint} has failed since ${since}.`,
          `We keep retrying. If deliveries still fail ${options.disableAfterDays} days after the first failure, we will disable the endpoint. Check that your server answers with a 2xx status, then look at the recent deliveries and their answers in Settings → Webhooks.`,
        ]
      : [
          `Every delivery of ${accountName}'s events to the webhook endpoint ${endpoint} failed for ${options.disableAfterDays} days (since ${since}), so we disabled the endpoint: no more events are sent to it.`,
          `Once your server is fixed, enable the endpoint again in Settings → Webhooks, then use "Replay failed events" there: the events it missed are kept for ${WEBHOOK_EVENT_RETENTION_DAYS} days and are sent with their original ids.`,
        ];
  return ownerNoticeMessage({
    to: options.to,
    subject,
    paragraphs,
    link: options.link,
    actionLabel: 'Open Settings → Webhooks',
  });
}

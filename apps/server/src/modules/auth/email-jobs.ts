import type { JobContext, QueuePolicy } from '../../jobs/define.ts';
import { SealedValueError } from '../../lib/sealed.ts';

/**
 * What the auth e-mails' jobs (jobs/definitions/send-verify-email.ts, send-reset-password-email.ts,
 * send-email-change-*.ts) share. Their payloads hold ids, or addresses only sealed (lib/sealed.ts), and never a link:
 * the handler mints the link when it sends (the tokens are stateless HMACs over the user's state as it is then, so a
 * link minted at send time is as good as one minted at the request).
 */

/**
 * An SMTP hiccup is retried after 10–20, 20–40 … s (exponential backoff with jitter), `retryLimit` times; a job not
 * started within `retentionMinutes` is dropped (the person can ask again).
 */
export function authEmailQueue(limits: { retryLimit: number; retentionMinutes: number }): QueuePolicy {
  return { policy: 'standard', retryDelay: 10, retryBackoff: true, expireInSeconds: 60, ...limits };
}

/**
 * A sealed payload value, or undefined when it cannot be opened: SECRET_KEY changed since the job was queued, so no
 * retry can open it either (logged; the person can ask again).
 */
export function openSealed(context: JobContext, sealed: string, sealedTo: string): string | undefined {
  try {
    return context.services.sealer.open(sealed, sealedTo);
  } catch (error) {
    if (!(error instanceof SealedValueError)) throw error;
    context.log.error(`${context.job.name}: cannot open the sealed payload; dropped`);
    return undefined;
  }
}

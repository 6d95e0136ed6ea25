import { type PublicDeliveryStatus, type PublicVerifyTexts, publicVerifyTexts } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { ATTEMPT_ID_PATTERN, isOpen, shownDeliveryStatus } from '../attempts/index.ts';

const { verificationAttempts, verifyForms } = schema;

/**
 * `GET /api/public/attempts/{attemptId}/delivery` (issue #18 item 5): what the public page tells the consumer while
 * they wait for the code. Polled every few seconds by every waiting page, so it is one query on two primary keys;
 * the attempt's id (128 random bits) is the only key, as for checking the code.
 */

/** The consumer's words for a provider error code (Twilio's; SMTP replies are all "the address was refused"). */
const smsFailureText: Readonly<Record<string, (texts: PublicVerifyTexts) => string>> = {
  '30003': (texts) => texts.deliveryUnreachable,
  '30004': (texts) => texts.deliveryCarrierFilter,
  '30005': (texts) => texts.deliveryUnknownNumber,
  '30006': (texts) => texts.deliveryLandline,
  '30007': (texts) => texts.deliveryCarrierFilter,
  '21211': (texts) => texts.deliveryUnknownNumber,
  '21610': (texts) => texts.deliveryOptedOut,
  '21614': (texts) => texts.deliveryLandline,
  '21635': (texts) => texts.deliveryLandline,
};

export function consumerDeliveryMessage(
  texts: PublicVerifyTexts,
  channel: 'sms' | 'email',
  errorCode: string | null,
): string {
  if (channel === 'email') return texts.deliveryFailedEmail;
  const family = errorCode === null ? undefined : smsFailureText[errorCode];
  return family ? family(texts) : texts.deliveryFailedSms;
}

/**
 * The delivery status of a code the page is waiting on. Like checking a code, anything but a pending, unexpired
 * attempt of a live form is 404: the page stops asking then.
 */
export async function publicDeliveryStatus(
  deps: { db: Db; clock: Clock },
  attemptId: string,
): Promise<PublicDeliveryStatus> {
  if (!ATTEMPT_ID_PATTERN.test(attemptId)) throw new AppError('not_found');
  const [row] = await deps.db
    .select({
      status: verificationAttempts.status,
      expiresAt: verificationAttempts.expiresAt,
      method: verificationAttempts.method,
      deliveryStatus: verificationAttempts.deliveryStatus,
      deliveryErrorCode: verificationAttempts.deliveryErrorCode,
      sentAt: verificationAttempts.sentAt,
      language: verifyForms.language,
      formIsLive: verifyForms.isLive,
    })
    .from(verificationAttempts)
    .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
    .where(eq(verificationAttempts.id, attemptId))
    .limit(1);
  const now = deps.clock.now();
  if (!row?.formIsLive || !isOpen(row, now)) {
    throw new AppError('not_found');
  }
  const status = shownDeliveryStatus(row, now);
  const failed = status === 'undelivered' || status === 'failed';
  return {
    status,
    message: failed
      ? consumerDeliveryMessage(publicVerifyTexts[row.language], row.method, row.deliveryErrorCode)
      : null,
    // Every form offers both channels (the page's choice), so e-mail is a way out for any code sent by text.
    suggestEmail: row.method === 'sms',
  };
}

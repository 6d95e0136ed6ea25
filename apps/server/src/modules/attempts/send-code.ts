import { publicVerifyTexts, revokeLinkTexts, revokePagePath } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { statusAt } from '../../domain/attempt-state.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EmailMessage, Mailer } from '../../messaging/email.ts';
import { SmsSendError, type SmsSender } from '../../messaging/sms.ts';
import { oneLine, renderHtml } from '../../messaging/templates/layout.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import type { CodeMessage } from './code-delivery.ts';
import { recordSendError, recordSendRefused, recordSent } from './store.ts';

const { verificationAttempts, verifyForms, accounts } = schema;

/**
 * Sends one verification code: what the sending job does for each queued message. Safe to run more than once for the
 * same attempt (a job is delivered at least once): an attempt that already has `sent_at` is not sent again.
 */

export type CodeSenderDeps = {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
  log: FastifyBaseLogger;
  /** `verification.delivery_failed` on a refusal for good; `verification.delivered` when an early callback said so. */
  webhookEvents: WebhookEvents;
};

/**
 * sent: the provider accepted it. skipped: nothing to send any more (attempt gone, no longer pending, expired, a test
 * number, already sent). rejected: the provider refused for good (invalid number, unsubscribed); recorded, not retried.
 * A transient failure throws (after recording `send_error`), so the queue retries it.
 */
export type CodeSendOutcome = 'sent' | 'skipped' | 'rejected';

/**
 * The WebOTP / origin-bound one-time code line (`@host #code`), which must be the message's last line. It names the
 * host only: the format has no place for a scheme or port, and browsers match it against the page's host.
 */
export function webOtpLine(publicUrl: string, code: string): string {
  return `@${new URL(publicUrl).hostname} #${code}`;
}

export function composeCodeSms(options: {
  language: 'en' | 'es';
  company: string;
  code: string;
  publicUrl: string;
}): string {
  const texts = publicVerifyTexts[options.language];
  // On one line: a company name must not add lines (nor a second WebOTP line) to our message.
  return `${texts.smsText(oneLine(options.company), options.code)}\n\n${webOtpLine(options.publicUrl, options.code)}`;
}

/**
 * The code by e-mail. Like every e-mail a consumer gets from us, it links to the form's revocation page
 * (`/f/{publicId}/revoke`, issue #35): "Changed your mind? Revoke consent".
 */
export function composeCodeEmail(options: {
  to: string;
  language: 'en' | 'es';
  company: string;
  code: string;
  publicUrl: string;
  publicId: string;
}): EmailMessage {
  const texts = publicVerifyTexts[options.language];
  const company = oneLine(options.company);
  const subject = texts.emailSubject(company);
  const text = texts.emailText(company, options.code);
  const revoke = {
    label: revokeLinkTexts[options.language],
    url: `${options.publicUrl}${revokePagePath(options.publicId)}`,
  };
  return {
    to: options.to,
    subject,
    text: `${text}\n\n${revoke.label}: ${revoke.url}\n`,
    html: renderHtml({
      title: subject,
      lang: texts.htmlLang,
      paragraphs: text.split(/\n{2,}/),
      link: revoke,
    }),
  };
}

/** SMTP answers 5xx when the mailbox or domain is refused for good; 4xx and network errors may pass on a retry. */
function isPermanentEmailError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('responseCode' in error)) return false;
  const code = error.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

export async function sendVerificationCode(
  deps: CodeSenderDeps,
  message: CodeMessage,
): Promise<CodeSendOutcome> {
  const { db, clock, log } = deps;
  const [row] = await db
    .select({
      id: verificationAttempts.id,
      status: verificationAttempts.status,
      method: verificationAttempts.method,
      cellPhone: verificationAttempts.cellPhone,
      email: verificationAttempts.email,
      isTest: verificationAttempts.isTest,
      expiresAt: verificationAttempts.expiresAt,
      sentAt: verificationAttempts.sentAt,
      language: verifyForms.language,
      publicId: verifyForms.publicId,
      company: accounts.displayName,
    })
    .from(verificationAttempts)
    .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
    .innerJoin(accounts, eq(accounts.id, verificationAttempts.accountId))
    .where(eq(verificationAttempts.id, message.attemptId))
    .limit(1);

  const skip = (reason: string): CodeSendOutcome => {
    log.info({ attemptId: message.attemptId, reason }, 'verification code not sent');
    return 'skipped';
  };
  if (!row) return skip('attempt not found');
  if (row.sentAt) return skip('already sent');
  if (row.isTest) return skip('test number');
  const status = statusAt(row, clock.now());
  if (status !== 'pending') return skip(`attempt ${status}`);

  let providerMessageId: string;
  try {
    if (row.method === 'sms') {
      const text = composeCodeSms({
        language: row.language,
        company: row.company,
        code: message.code,
        publicUrl: deps.config.publicUrl,
      });
      ({ providerMessageId } = await deps.sms.send({ to: row.cellPhone, text }));
    } else {
      if (!row.email) {
        await recordSendError(db, row.id, 'e-mail attempt without an address');
        return 'rejected';
      }
      const email = composeCodeEmail({
        to: row.email,
        language: row.language,
        company: row.company,
        code: message.code,
        publicUrl: deps.config.publicUrl,
        publicId: row.publicId,
      });
      ({ providerMessageId } = await deps.mailer.sendWithId(email));
    }
  } catch (error) {
    const permanent = error instanceof SmsSendError ? error.permanent : isPermanentEmailError(error);
    if (permanent) {
      // A refusal for good is the message's final delivery status, with the provider's code as its reason.
      await recordSendRefused(db, deps.webhookEvents, {
        attemptId: row.id,
        sendError: errorText(error),
        errorCode: providerErrorCode(error),
        at: clock.now(),
      });
      log.warn({ attemptId: row.id, err: error }, 'verification code refused by the provider; not retried');
      return 'rejected';
    }
    await recordSendError(db, row.id, errorText(error));
    throw error;
  }

  // The attempt's store records it (Twilio may report first: its callbacks are adopted there).
  await recordSent(db, deps.webhookEvents, {
    attemptId: row.id,
    method: row.method,
    providerMessageId,
    at: clock.now(),
  });
  return 'sent';
}

/** Twilio's numeric error code, or the SMTP reply code (550…), as text: what the member's reason is looked up by. */
function providerErrorCode(error: unknown): string | null {
  if (error instanceof SmsSendError) return error.code === undefined ? null : String(error.code);
  if (typeof error === 'object' && error !== null && 'responseCode' in error) {
    const code = error.responseCode;
    if (typeof code === 'number') return String(code);
  }
  return null;
}

import type { Db } from '@veriform/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { recordOutboxMessage } from './outbox.ts';

export type EmailMessage = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  /** smtp: SMTP_URL; outbox: development without SMTP; disabled: production without SMTP (sends fail loudly). */
  readonly transport: 'smtp' | 'outbox' | 'disabled';
  send(message: EmailMessage): Promise<void>;
  /** The same send, answering the message's id (the SMTP Message-ID, or `outbox:<id>`) for evidence. */
  sendWithId(message: EmailMessage): Promise<{ providerMessageId: string }>;
  close(): Promise<void>;
};

export class MailerNotConfiguredError extends Error {
  constructor() {
    super('E-mail cannot be sent: SMTP_URL is not set (the development outbox is never used in production).');
  }
}

/** `send` is `sendWithId` without the answer (the e-mails of links do not keep it). */
function mailer(
  transport: Mailer['transport'],
  sendWithId: Mailer['sendWithId'],
  close: () => Promise<void> = async () => {},
): Mailer {
  return {
    transport,
    sendWithId,
    async send(message) {
      await sendWithId(message);
    },
    close,
  };
}

/** nodemailer loads with the first e-mail, not at start (~0.1 s a process). */
function smtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const connected = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(smtpUrl),
    ));
  return mailer(
    'smtp',
    async (message) => {
      const info = await (await connected()).sendMail({ from, ...message });
      return { providerMessageId: info.messageId };
    },
    async () => {
      if (transport) (await transport).close();
    },
  );
}

function outboxMailer(db: Db, clock: Clock): Mailer {
  return mailer('outbox', async (message) => {
    const id = await recordOutboxMessage(db, clock, {
      channel: 'email',
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    return { providerMessageId: `outbox:${id}` };
  });
}

/**
 * Production without SMTP_URL: the server still starts (so a misconfigured mailer does not take the whole product
 * down), warns loudly at startup, and every send fails with an error in the log. Messages are never diverted to the
 * outbox there, because the outbox is readable through /api/dev/outbox in development.
 */
function disabledMailer(): Mailer {
  return mailer('disabled', async () => {
    throw new MailerNotConfiguredError();
  });
}

export function createMailer(config: Config, db: Db, clock: Clock, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.emailFrom);
  if (config.isProduction) {
    log.warn(
      '*** SMTP_URL is not set: e-mail (sign-up verification, password reset, invitations) will NOT be sent. ***',
    );
    return disabledMailer();
  }
  return outboxMailer(db, clock);
}

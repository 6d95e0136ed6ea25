import type { Db } from '@veriform/db';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { recordOutboxMessage } from './outbox.ts';

export type EmailMessage = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  /** smtp: SMTP_URL; outbox: development without SMTP; disabled: production without SMTP (sends fail loudly). */
  readonly transport: 'smtp' | 'outbox' | 'disabled';
  send(message: EmailMessage): Promise<void>;
  close(): Promise<void>;
};

export class MailerNotConfiguredError extends Error {
  constructor() {
    super('E-mail cannot be sent: SMTP_URL is not set (the development outbox is never used in production).');
  }
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    transport: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    async close() {
      transport.close();
    },
  };
}

function outboxMailer(db: Db, clock: Clock): Mailer {
  return {
    transport: 'outbox',
    send: (message) =>
      recordOutboxMessage(db, clock, {
        channel: 'email',
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      }),
    async close() {},
  };
}

/**
 * Production without SMTP_URL: the server still starts (so a misconfigured mailer does not take the whole product
 * down), warns loudly at startup, and every send fails with an error in the log. Messages are never diverted to the
 * outbox there, because the outbox is readable through /api/dev/outbox in development.
 */
function disabledMailer(): Mailer {
  return {
    transport: 'disabled',
    async send() {
      throw new MailerNotConfiguredError();
    },
    async close() {},
  };
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

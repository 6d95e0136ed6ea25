import type { Db } from '@veriform/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { recordOutboxMessage } from './outbox.ts';
import { type TwilioClient, twilioClient } from './twilio-client.ts';

export type SmsMessage = { to: string; text: string };

export type SmsSender = {
  /** twilio: TWILIO_* set; outbox: development without Twilio; disabled: production without Twilio (sends throw). */
  readonly transport: 'twilio' | 'outbox' | 'disabled';
  /** Resolves once the provider accepted the message, with its id (Twilio's message SID, or `outbox:<id>`). */
  send(message: SmsMessage): Promise<{ providerMessageId: string }>;
};

export class SmsNotConfiguredError extends Error {
  constructor() {
    super('SMS cannot be sent: TWILIO_* is not set (the development outbox is never used in production).');
  }
}

/**
 * Twilio's error codes that no retry can fix: the number itself is the problem. Retrying them would only cost money
 * and delay the consumer's "try another number"; the job records them and stops.
 * https://www.twilio.com/docs/api/errors
 */
const PERMANENT_TWILIO_CODES = new Set([
  21211, // invalid 'To' phone number
  21214, // 'To' phone number cannot be reached
  21217, // phone number does not appear to be valid
  21408, // permission to send an SMS has not been enabled for the region
  21610, // the recipient has replied STOP (unsubscribed)
  21612, // the 'To' phone number is not currently reachable via SMS
  21614, // 'To' number is not a valid mobile number
  21635, // 'To' number cannot be a landline
]);

/** A provider's refusal, with what the sending job needs to decide whether a retry can help. */
export class SmsSendError extends Error {
  readonly permanent: boolean;
  readonly status: number | undefined;
  readonly code: number | undefined;
  constructor(
    message: string,
    options: { permanent: boolean; status?: number; code?: number; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'SmsSendError';
    this.permanent = options.permanent;
    this.status = options.status;
    this.code = options.code;
  }
}

/**
 * Twilio's API errors (the SDK's RestException, or TwilioServiceException for RFC 9457 answers, which the SDK does not
 * export) carry the HTTP `status` and Twilio's numeric `code`. Anything else (network, timeout) is transient.
 */
function toSmsSendError(error: unknown): SmsSendError {
  if (error instanceof Error && 'status' in error && typeof error.status === 'number') {
    const code = 'code' in error && typeof error.code === 'number' ? error.code : undefined;
    const permanent = code !== undefined && PERMANENT_TWILIO_CODES.has(code);
    const label =
      code !== undefined ? `Twilio error ${code} (HTTP ${error.status})` : `Twilio HTTP ${error.status}`;
    return new SmsSendError(`${label}: ${error.message}`, {
      permanent,
      status: error.status,
      ...(code !== undefined ? { code } : {}),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SmsSendError(`SMS send failed: ${message}`, { permanent: false, cause: error });
}

/** A hung request must fail (and be retried by the job) rather than hold a worker forever. */
const TWILIO_TIMEOUT_MS = 15_000;

/** Where Twilio reports each message's status (issue #18); the route checks the signature against this URL. */
export const TWILIO_STATUS_CALLBACK_PATH = '/api/webhooks/twilio/status';

function twilioSender(settings: NonNullable<Config['twilio']>, publicUrl: string): SmsSender {
  let client: Promise<TwilioClient> | undefined;
  return {
    transport: 'twilio',
    async send(message) {
      try {
        client ??= twilioClient(settings, TWILIO_TIMEOUT_MS);
        const sent = await (await client).messages.create({
          to: message.to,
          from: settings.from,
          body: message.text,
          statusCallback: `${publicUrl}${TWILIO_STATUS_CALLBACK_PATH}`,
        });
        return { providerMessageId: sent.sid };
      } catch (error) {
        throw toSmsSendError(error);
      }
    },
  };
}

function outboxSender(db: Db, clock: Clock): SmsSender {
  return {
    transport: 'outbox',
    async send(message) {
      const id = await recordOutboxMessage(db, clock, {
        channel: 'sms',
        to: message.to,
        subject: null,
        text: message.text,
        html: null,
      });
      return { providerMessageId: `outbox:${id}` };
    },
  };
}

/** Production without Twilio: the server starts, warns loudly, and every send fails (never diverted to the outbox). */
function disabledSender(): SmsSender {
  return {
    transport: 'disabled',
    async send() {
      throw new SmsNotConfiguredError();
    },
  };
}

export function createSmsSender(config: Config, db: Db, clock: Clock, log: FastifyBaseLogger): SmsSender {
  if (config.twilio) return twilioSender(config.twilio, config.publicUrl);
  if (config.isProduction) {
    log.warn(
      '*** TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN / TWILIO_FROM are not set: SMS codes will NOT be sent. ***',
    );
    return disabledSender();
  }
  return outboxSender(db, clock);
}

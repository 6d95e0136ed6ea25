import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { fromTwilioStatus } from '../../messaging/delivery-status.ts';
import { TWILIO_STATUS_CALLBACK_PATH } from '../../messaging/sms.ts';
import { recordProviderStatus } from '../attempts/index.ts';

/** The fields of Twilio's status callback that we read; Twilio sends more (To, From, AccountSid…), all signed. */
export const twilioStatusCallbackSchema = z.object({
  MessageSid: z.string(),
  MessageStatus: z.string(),
  ErrorCode: z.string().optional(),
});

/** A callback is a few hundred bytes; anything far larger is not Twilio's. */
const CALLBACK_BODY_LIMIT = 16 * 1024;

type ValidateRequest = (
  authToken: string,
  signature: string,
  url: string,
  params: Record<string, string>,
) => boolean;
let validator: Promise<ValidateRequest> | undefined;
/** The SDK (~0.3 s to import) loads with the first callback, as it does with the first SMS. */
function twilioValidator(): Promise<ValidateRequest> {
  validator ??= import('twilio').then(({ default: twilio }) => twilio.validateRequest);
  return validator;
}

function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null) return {};
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

/**
 * Twilio's delivery reports for our code messages (issue #18): `POST /api/webhooks/twilio/status`, form-encoded, no
 * session and no CSRF token (Twilio is no browser; plugins/csrf exempts the path). What proves the sender is the
 * `X-Twilio-Signature` (HMAC-SHA1 with the auth token over the URL and the sorted fields), checked against the URL
 * built from PUBLIC_URL — the one the message was created with — so a proxy in front that changes the host, scheme or
 * port does not break it. Unsigned and wrongly signed callbacks are refused (403) and logged without their fields
 * (they carry phone numbers).
 */
export async function twilioStatusRoutes(app: FastifyInstance): Promise<void> {
  const { config, db, clock, webhookEvents } = app.services;

  // Only this plugin's routes read forms: everything else in the app takes JSON.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body.toString())));
    },
  );

  async function checkSignature(request: FastifyRequest, fields: Record<string, string>): Promise<void> {
    const signature = request.headers['x-twilio-signature'];
    const refuse = (reason: string) => {
      request.log.warn({ reason }, 'Twilio status callback refused');
      return new AppError('permission_denied', { detail: 'The request is not signed by Twilio.' });
    };
    if (!config.twilio) throw refuse('Twilio is not configured');
    if (typeof signature !== 'string' || signature === '') throw refuse('no signature');
    const validate = await twilioValidator();
    if (!validate(config.twilio.authToken, signature, `${config.publicUrl}${request.url}`, fields)) {
      throw refuse('wrong signature');
    }
  }

  app.post(TWILIO_STATUS_CALLBACK_PATH, async (request, reply) => {
    const fields = formFields(request.body);
    await checkSignature(request, fields);
    const callback = twilioStatusCallbackSchema.safeParse(fields);
    // Signed by Twilio yet not a message status (another webhook pointed here): nothing to record, nothing to retry.
    if (!callback.success) return reply.code(204).send();
    const status = fromTwilioStatus(callback.data.MessageStatus);
    if (!status) return reply.code(204).send();
    const messageSid = callback.data.MessageSid;
    const errorCode = callback.data.ErrorCode?.trim() || null;
    const at = clock.now();
    const adopted = await recordProviderStatus(db, webhookEvents, {
      providerMessageId: messageSid,
      status,
      errorCode,
      at,
    });
    if (!adopted)
      request.log.info({ messageSid }, 'Twilio status ahead of its message (or not ours): kept aside');
    return reply.code(204).send();
  });
}

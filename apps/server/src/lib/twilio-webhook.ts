import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

/**
 * What Twilio's webhooks to us share (issue #18's status callback, issue #35's inbound replies): a form-encoded body of
 * a few hundred bytes, no session and no CSRF token (Twilio is no browser; plugins/csrf exempts the paths), and the
 * `X-Twilio-Signature` (HMAC-SHA1 with the auth token over the URL and the sorted fields) as the proof of the sender,
 * checked against the URL built from PUBLIC_URL — the one Twilio was given — so a proxy in front that changes the host,
 * scheme or port does not break it. Unsigned and wrongly signed requests are refused (403) and logged without their
 * fields (they carry phone numbers).
 */

/** A webhook is a few hundred bytes; anything far larger is not Twilio's. */
const TWILIO_BODY_LIMIT = 16 * 1024;

type ValidateRequest = (
  authToken: string,
  signature: string,
  url: string,
  params: Record<string, string>,
) => boolean;
let validator: Promise<ValidateRequest> | undefined;
/** The SDK (~0.3 s to import) loads with the first webhook, as it does with the first SMS. */
function twilioValidator(): Promise<ValidateRequest> {
  validator ??= import('twilio').then(({ default: twilio }) => twilio.validateRequest);
  return validator;
}

/** Reads form bodies in this plugin's routes only: everything else in the app takes JSON. */
export function acceptTwilioForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: TWILIO_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body.toString())));
    },
  );
}

function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null) return {};
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

/** The request's form fields, once its signature proves Twilio sent them; else a 403 (`what` names it in the log). */
export async function signedTwilioFields(
  request: FastifyRequest,
  config: Pick<Config, 'twilio' | 'publicUrl'>,
  what: string,
): Promise<Record<string, string>> {
  const fields = formFields(request.body);
  const signature = request.headers['x-twilio-signature'];
  const refuse = (reason: string) => {
    request.log.warn({ reason }, `${what} refused`);
    return new AppError('permission_denied', { detail: 'The request is not signed by Twilio.' });
  };
  if (!config.twilio) throw refuse('Twilio is not configured');
  if (typeof signature !== 'string' || signature === '') throw refuse('no signature');
  const validate = await twilioValidator();
  if (!validate(config.twilio.authToken, signature, `${config.publicUrl}${request.url}`, fields))
    throw refuse('wrong signature');
  return fields;
}

/** Where Twilio posts the replies to our numbers (issue #35): the inbound message webhook of the sending number. */
export const TWILIO_INBOUND_PATH = '/api/webhooks/twilio/inbound';

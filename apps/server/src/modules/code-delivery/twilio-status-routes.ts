import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { acceptTwilioForms, signedTwilioFields } from '../../lib/twilio-webhook.ts';
import { fromTwilioStatus } from '../../messaging/delivery-status.ts';
import { TWILIO_STATUS_CALLBACK_PATH } from '../../messaging/sms.ts';

/** The fields of Twilio's status callback that we read; Twilio sends more (To, From, AccountSid…), all signed. */
export const twilioStatusCallbackSchema = z.object({
  MessageSid: z.string(),
  MessageStatus: z.string(),
  ErrorCode: z.string().optional(),
});

/**
 * Twilio's delivery reports for our code messages (issue #18): `POST /api/webhooks/twilio/status`, form-encoded and
 * signed (lib/twilio-webhook.ts: no session, no CSRF token, the signature checked against PUBLIC_URL).
 */
export async function twilioStatusRoutes(app: FastifyInstance): Promise<void> {
  const { config, twilioStatus } = app.services;
  acceptTwilioForms(app);

  app.post(TWILIO_STATUS_CALLBACK_PATH, async (request, reply) => {
    const fields = await signedTwilioFields(request, config, 'Twilio status callback');
    const callback = twilioStatusCallbackSchema.safeParse(fields);
    // Signed by Twilio yet not a message status (another webhook pointed here): nothing to record, nothing to retry.
    if (!callback.success) return reply.code(204).send();
    const status = fromTwilioStatus(callback.data.MessageStatus);
    if (!status) return reply.code(204).send();
    const messageSid = callback.data.MessageSid;
    const errorCode = callback.data.ErrorCode?.trim() || null;
    const adopted = await twilioStatus.record({ messageSid, status, errorCode });
    if (!adopted)
      request.log.info({ messageSid }, 'Twilio status ahead of its message (or not ours): kept aside');
    return reply.code(204).send();
  });
}

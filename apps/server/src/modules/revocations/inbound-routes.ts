import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { acceptTwilioForms, signedTwilioFields, TWILIO_INBOUND_PATH } from '../../lib/twilio-webhook.ts';

/** The fields of Twilio's inbound message that we read; Twilio sends more (To, AccountSid, NumMedia…), all signed. */
export const twilioInboundMessageSchema = z.object({
  MessageSid: z.string().min(1),
  From: z.string().min(1),
  Body: z.string().default(''),
});

/** TwiML that sends nothing back. */
const NO_REPLY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** TwiML that answers the reply with one text message (Twilio sends it to the number the reply came from). */
const replyWith = (text: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${escapeXml(text)}</Message></Response>`;

/**
 * Replies to our code texts (issue #35): `POST /api/webhooks/twilio/inbound`, form-encoded and signed like the status
 * callback (lib/twilio-webhook.ts). Each becomes a revocation or a possible one of the account whose code text to the
 * number was the latest; a reply to no code of ours is answered the same and kept nowhere. The answer is TwiML: a
 * per-se revocation is answered with its one confirmation text (FCC 24-24 allows one, at once; in the reply's
 * language), only on the first delivery of its MessageSid; anything else, a repeated delivery included, with none.
 */
export async function twilioInboundRoutes(app: FastifyInstance): Promise<void> {
  const { config, revocations } = app.services;
  acceptTwilioForms(app);

  app.post(TWILIO_INBOUND_PATH, async (request, reply) => {
    const fields = await signedTwilioFields(request, config, 'Twilio inbound message');
    const message = twilioInboundMessageSchema.safeParse(fields);
    let answer = NO_REPLY;
    if (message.success) {
      const { MessageSid: messageSid, From: from, Body: body } = message.data;
      const recorded = await revocations.recordReply({ messageSid, from, body });
      // The number and the words stay out of the log (personal data); the outcome and the message's id do not.
      request.log.info({ messageSid, recorded: recorded.recorded }, 'SMS reply');
      if (recorded.recorded === 'revocation') answer = replyWith(recorded.confirmation);
    }
    return reply.code(200).type('text/xml').send(answer);
  });
}

import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/** What an invitation's key is sealed to inside its e-mail's job: that invitation, and nothing else. */
export const invitationKeyContext = (invitationId: number) => `invitation:${invitationId}`;

/**
 * The invitation e-mail (modules/invitations: create and resend enqueue it in the invitation's own transaction).
 * Retries: an SMTP hiccup is retried after 10–20, 20–40 … s (exponential backoff with jitter), ten times, about three
 * to six hours in all; a job not started within a day is dropped (the owner can resend).
 */
export const sendInvitationEmail = defineJob({
  name: 'send-invitation-email',
  /** The key only sealed (SECRET_KEY, bound to the invitation id): the database keeps just its hash otherwise. */
  payload: z.object({
    invitationId: z.number().int().positive(),
    sealedKey: z.string().min(1),
  }),
  queue: emailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
});

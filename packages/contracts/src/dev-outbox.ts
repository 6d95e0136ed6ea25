import { z } from 'zod';
import { endpoint, ok } from './endpoints.ts';

export const outboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string().nullable(),
  text: z.string(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
export const outboxListSchema = z.object({ results: z.array(outboxMessageSchema) });

/** `GET /api/dev/outbox?to=` — only the messages sent to that address (compared case-insensitively). */
export const outboxQuerySchema = z.object({ to: z.string().trim().max(254).optional() });
export type OutboxQuery = z.infer<typeof outboxQuerySchema>;
export type OutboxList = z.infer<typeof outboxListSchema>;

/** The development outbox's route: registered only outside production, while a channel has no real provider. */
export const devOutboxEndpoints = {
  /** Messages that would have been sent, newest first. */
  list: endpoint('GET /api/dev/outbox', {
    query: outboxQuerySchema,
    response: ok(outboxListSchema),
    access: 'public',
  }),
};

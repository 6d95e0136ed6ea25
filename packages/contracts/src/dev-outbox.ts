import { z } from 'zod';

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

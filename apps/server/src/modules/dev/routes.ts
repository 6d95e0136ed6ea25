import { outboxListSchema, outboxQuerySchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listOutboxMessages } from '../../messaging/outbox.ts';

/** Development only (app.ts registers these only outside production while the outbox is in use). */
export async function devRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dev/outbox',
    { schema: { querystring: outboxQuerySchema, response: { 200: outboxListSchema } } },
    async (request) => ({ results: await listOutboxMessages(app.services.db, { to: request.query.to }) }),
  );
}

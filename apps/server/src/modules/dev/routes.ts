import { devOutboxEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listOutboxMessages } from '../../messaging/outbox.ts';
import { declared } from '../../plugins/endpoints.ts';

/** Development only (app.ts registers these only outside production while the outbox is in use). */
export async function devRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...declared(devOutboxEndpoints.list),
    handler: async (request) => ({
      results: await listOutboxMessages(app.services.db, { to: request.query.to }),
    }),
  });
}

import {
  apiEventIdParamsSchema,
  apiEventListQuerySchema,
  apiEventListSchema,
  WEBHOOK_EVENT_RETENTION_DAYS,
  webhookEventSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { readEntry } from '../audit/index.ts';
import { problem, problemResponses } from './responses.ts';

export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { apiEvents: events, audit, db } = app.services;

  r.get(
    '/api/v1/events',
    {
      config: { account: { from: 'apiKey', can: 'readEvents' } },
      schema: {
        operationId: 'listEvents',
        summary: 'List events',
        description: `The account's events of the last ${WEBHOOK_EVENT_RETENTION_DAYS} days, newest first, in cursor pages: each as
its webhook deliveries send it (see Webhooks), so a receiver that was down can catch up. Filter by \`type\`, by
\`deliveryFailed\` and by the creation time. Needs \`events:read\`.`,
        tags: ['Events'],
        querystring: apiEventListQuerySchema,
        response: { 200: apiEventListSchema, ...problemResponses },
      },
    },
    async (request) => {
      const ctx = accountContext(request);
      const page = await events.list(ctx, request.query);
      // Events carry full numbers and evidence (issue #33 item 8): one event per page, with its count.
      await audit.record(db, ctx, readEntry('event.list_read', page.data.length, request.query));
      return page;
    },
  );

  r.get(
    '/api/v1/events/:id',
    {
      config: { account: { from: 'apiKey', can: 'readEvents' } },
      schema: {
        operationId: 'getEvent',
        summary: 'Get an event',
        description: `One event by its id (the \`webhook-id\` of its deliveries), for ${WEBHOOK_EVENT_RETENTION_DAYS} days. Needs
\`events:read\`.`,
        tags: ['Events'],
        params: apiEventIdParamsSchema,
        response: {
          200: webhookEventSchema,
          ...problemResponses,
          404: problem(
            `No such event in this key’s account, or older than ${WEBHOOK_EVENT_RETENTION_DAYS} days: \`not_found\`.`,
          ),
        },
      },
    },
    async (request) => events.get(accountContext(request), request.params.id),
  );
}

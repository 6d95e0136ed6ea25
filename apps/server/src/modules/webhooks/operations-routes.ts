import {
  replayFailedWebhooksRequestSchema,
  replayWebhookEventRequestSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookReplayQueuedSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not an endpoint (or event) of the caller's accounts. */
const params = z.object({ id: z.string() });

const ownEndpoint = { account: { from: { pathObject: 'webhookEndpoints' }, can: 'manageCompany' } } as const;
const ownEvent = { account: { from: { pathObject: 'webhookEvents' }, can: 'manageCompany' } } as const;

/**
 * Operating webhook endpoints (issue #17 item 5), owners only like the endpoints themselves: the deliveries list,
 * "Send test event" and replays. Sending ones answer 202: the attempt is a job, its outcome shows in the list.
 */
export async function webhookOperationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { webhookOperations } = app.services;

  r.get(
    '/api/webhook-endpoints/:id/deliveries',
    {
      config: ownEndpoint,
      schema: {
        params,
        querystring: webhookDeliveryListQuerySchema,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    (request) =>
      webhookOperations.deliveries(accountContext(request), parsePathId(request.params.id), request.query),
  );

  r.post(
    '/api/webhook-endpoints/:id/send-test',
    { config: ownEndpoint, schema: { params, response: { 202: webhookDeliverySchema } } },
    async (request, reply) =>
      reply
        .code(202)
        .send(await webhookOperations.sendTest(accountContext(request), parsePathId(request.params.id))),
  );

  r.post(
    '/api/webhook-endpoints/:id/replay-failed',
    {
      config: ownEndpoint,
      schema: {
        params,
        body: replayFailedWebhooksRequestSchema,
        response: { 202: webhookReplayQueuedSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await webhookOperations.replayFailed(
            accountContext(request),
            parsePathId(request.params.id),
            request.body,
          ),
        ),
  );

  r.post(
    '/api/webhook-events/:id/replay',
    {
      config: ownEvent,
      schema: { params, body: replayWebhookEventRequestSchema, response: { 202: webhookReplayQueuedSchema } },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await webhookOperations.replayEvent(
            accountContext(request),
            request.params.id,
            request.body.endpointId,
          ),
        ),
  );
}

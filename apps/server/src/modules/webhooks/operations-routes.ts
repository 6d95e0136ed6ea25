import { webhookEndpoints as endpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Operating webhook endpoints (issue #17 item 5), owners only like the endpoints themselves: the deliveries list,
 * "Send test event" and replays. Sending ones answer 202: the attempt is a job, its outcome shows in the list. The
 * routes' paths, schemas and capability are their contract's (`webhookEndpoints`).
 */
export async function webhookOperationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { webhookOperations } = app.services;

  r.route({
    ...declared(endpoints.deliveries),
    handler: (request) =>
      webhookOperations.deliveries(accountContext(request), parsePathId(request.params.id), request.query),
  });

  r.route({
    ...declared(endpoints.sendTest),
    handler: async (request, reply) =>
      reply
        .code(202)
        .send(await webhookOperations.sendTest(accountContext(request), parsePathId(request.params.id))),
  });

  r.route({
    ...declared(endpoints.replayFailed),
    handler: async (request, reply) =>
      reply
        .code(202)
        .send(
          await webhookOperations.replayFailed(
            accountContext(request),
            parsePathId(request.params.id),
            request.body,
          ),
        ),
  });

  r.route({
    ...declared(endpoints.replayEvent),
    handler: async (request, reply) =>
      reply
        .code(202)
        .send(
          await webhookOperations.replayEvent(
            accountContext(request),
            request.params.id,
            request.body.endpointId,
          ),
        ),
  });
}

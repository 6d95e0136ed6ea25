import { webhookEndpoints as endpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { webhookOperationRoutes } from './operations-routes.ts';

/**
 * Webhook endpoints (Settings → Webhooks, issue #17): owners only (`manageCompany`; a member gets 403, and no API
 * key's scopes grant it). Another account's endpoint or account answers 404 like an unknown one. The routes' paths,
 * schemas and capability are their contract's (`webhookEndpoints`).
 */
export async function webhookEndpointRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { webhookEndpoints } = app.services;

  r.route({
    ...declared(endpoints.list),
    handler: (request) => webhookEndpoints.list(accountContext(request)),
  });

  r.route({
    ...declared(endpoints.create),
    handler: async (request, reply) =>
      reply.code(201).send(await webhookEndpoints.create(accountContext(request), request.body)),
  });

  r.route({
    ...declared(endpoints.get),
    handler: (request) => webhookEndpoints.get(accountContext(request), parsePathId(request.params.id)),
  });

  r.route({
    ...declared(endpoints.update),
    handler: (request) =>
      webhookEndpoints.update(accountContext(request), parsePathId(request.params.id), request.body),
  });

  r.route({
    ...declared(endpoints.remove),
    handler: async (request, reply) => {
      await webhookEndpoints.remove(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  });

  r.route({
    ...declared(endpoints.secret),
    handler: (request) => webhookEndpoints.secret(accountContext(request), parsePathId(request.params.id)),
  });

  r.route({
    ...declared(endpoints.rotateSecret),
    handler: (request) =>
      webhookEndpoints.rotateSecret(accountContext(request), parsePathId(request.params.id), request.body),
  });

  // The endpoints' deliveries, test events and replays: registered here, so app.ts registers one plugin per module.
  await app.register(webhookOperationRoutes);
}

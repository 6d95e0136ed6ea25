import {
  createWebhookEndpointRequestSchema,
  rotateWebhookSecretRequestSchema,
  updateWebhookEndpointRequestSchema,
  webhookEndpointListQuerySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookSecretSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { webhookOperationRoutes } from './operations-routes.ts';

/** Any string: the tenancy hook answers 404 for anything that is not an endpoint of the caller's accounts. */
const params = z.object({ id: z.string() });

const ownEndpoint = { account: { from: { pathObject: 'webhookEndpoints' }, can: 'manageCompany' } } as const;

/**
 * Webhook endpoints (Settings → Webhooks, issue #17): owners only (`manageCompany`; a member gets 403, and no API
 * key's scopes grant it). Another account's endpoint or account answers 404 like an unknown one.
 */
export async function webhookEndpointRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { webhookEndpoints } = app.services;

  r.get(
    '/api/webhook-endpoints',
    {
      config: { account: { from: 'query.account', can: 'manageCompany' } },
      schema: { querystring: webhookEndpointListQuerySchema, response: { 200: webhookEndpointListSchema } },
    },
    (request) => webhookEndpoints.list(accountContext(request)),
  );

  r.post(
    '/api/webhook-endpoints',
    {
      config: { account: { from: 'body.account', can: 'manageCompany' } },
      schema: { body: createWebhookEndpointRequestSchema, response: { 201: webhookEndpointSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await webhookEndpoints.create(accountContext(request), request.body)),
  );

  r.get(
    '/api/webhook-endpoints/:id',
    { config: ownEndpoint, schema: { params, response: { 200: webhookEndpointSchema } } },
    (request) => webhookEndpoints.get(accountContext(request), parsePathId(request.params.id)),
  );

  r.patch(
    '/api/webhook-endpoints/:id',
    {
      config: ownEndpoint,
      schema: { params, body: updateWebhookEndpointRequestSchema, response: { 200: webhookEndpointSchema } },
    },
    (request) =>
      webhookEndpoints.update(accountContext(request), parsePathId(request.params.id), request.body),
  );

  r.delete(
    '/api/webhook-endpoints/:id',
    { config: ownEndpoint, schema: { params } },
    async (request, reply) => {
      await webhookEndpoints.remove(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/webhook-endpoints/:id/secret',
    { config: ownEndpoint, schema: { params, response: { 200: webhookSecretSchema } } },
    (request) => webhookEndpoints.secret(accountContext(request), parsePathId(request.params.id)),
  );

  r.post(
    '/api/webhook-endpoints/:id/rotate-secret',
    {
      config: ownEndpoint,
      schema: { params, body: rotateWebhookSecretRequestSchema, response: { 200: webhookEndpointSchema } },
    },
    (request) =>
      webhookEndpoints.rotateSecret(accountContext(request), parsePathId(request.params.id), request.body),
  );

  // The endpoints' deliveries, test events and replays: registered here, so app.ts registers one plugin per module.
  await app.register(webhookOperationRoutes);
}

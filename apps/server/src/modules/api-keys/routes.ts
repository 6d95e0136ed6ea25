import { apiKeyEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * API keys (Settings → API keys): owners only (`manageCompany`; a member gets 403, and no key's scopes grant it, so
 * a key cannot make or revoke keys). Another account's key or account answers 404 like an unknown one. The routes'
 * paths, schemas and capability are their contract's (`apiKeyEndpoints`).
 */
export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { apiKeys } = app.services;

  r.route({
    ...declared(apiKeyEndpoints.list),
    handler: (request) => apiKeys.list(accountContext(request)),
  });

  r.route({
    ...declared(apiKeyEndpoints.create),
    handler: async (request, reply) =>
      reply.code(201).send(await apiKeys.create(accountContext(request), request.body)),
  });

  r.route({
    ...declared(apiKeyEndpoints.revoke),
    handler: async (request, reply) => {
      await apiKeys.revoke(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  });
}

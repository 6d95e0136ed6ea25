import {
  apiKeyListQuerySchema,
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not a key of the caller's accounts. */
const params = z.object({ id: z.string() });

/**
 * API keys (Settings → API keys): owners only (`manageCompany`; a member gets 403, and no key's scopes grant it, so
 * a key cannot make or revoke keys). Another account's key or account answers 404 like an unknown one.
 */
export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { apiKeys } = app.services;

  r.get(
    '/api/api-keys',
    {
      config: { account: { from: 'query.account', can: 'manageCompany' } },
      schema: { querystring: apiKeyListQuerySchema, response: { 200: apiKeyListSchema } },
    },
    (request) => apiKeys.list(accountContext(request)),
  );

  r.post(
    '/api/api-keys',
    {
      config: { account: { from: 'body.account', can: 'manageCompany' } },
      schema: { body: createApiKeyRequestSchema, response: { 201: createdApiKeySchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await apiKeys.create(accountContext(request), request.body)),
  );

  r.delete(
    '/api/api-keys/:id',
    {
      config: { account: { from: { pathObject: 'apiKeys' }, can: 'manageCompany' } },
      schema: { params },
    },
    async (request, reply) => {
      await apiKeys.revoke(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  );
}

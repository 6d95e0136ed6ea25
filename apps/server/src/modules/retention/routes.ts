import { retentionEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * The account's evidence retention policy (issue #37): every member reads it with the next purge and the last one;
 * owners change it. Paths, schemas and capability are the contract's (`retentionEndpoints`); another account's id
 * answers 404.
 */
export async function retentionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { retentionPolicy } = app.services;

  r.route({
    ...declared(retentionEndpoints.get),
    handler: (request) => retentionPolicy.get(accountContext(request)),
  });

  r.route({
    ...declared(retentionEndpoints.update),
    handler: (request) => retentionPolicy.update(accountContext(request), request.body),
  });
}

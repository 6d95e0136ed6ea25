import { lookupEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * The account's carrier lookup settings (issue #36): owners read them with this month's counts and change any of them.
 * Paths, schemas and capability are the contract's (`lookupEndpoints`); another account's id answers 404.
 */
export async function lookupRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { lookupSettings } = app.services;

  r.route({
    ...declared(lookupEndpoints.get),
    handler: (request) => lookupSettings.get(accountContext(request)),
  });

  r.route({
    ...declared(lookupEndpoints.update),
    handler: (request) => lookupSettings.update(accountContext(request), request.body),
  });
}

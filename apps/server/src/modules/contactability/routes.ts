import { contactabilityEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * "May I contact this number now?" in the app (issue #35, Activity Log › Contactability): owners and members with
 * canSearchData (`checkContactability`) ask, and list the verdicts kept (theirs and the API keys'). Paths, schemas
 * and capability are the contract's (`contactabilityEndpoints`); another account's id answers 404.
 */
export async function contactabilitySessionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { contactability } = app.services;

  r.route({
    ...declared(contactabilityEndpoints.list),
    handler: (request) => contactability.list(accountContext(request), request.query),
  });

  r.route({
    ...declared(contactabilityEndpoints.check),
    handler: (request) => contactability.ask(accountContext(request), request.body),
  });
}

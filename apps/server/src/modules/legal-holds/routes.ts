import { legalHoldEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Legal holds in the app (issue #37 item 2): members who may search the account's data list and read them; owners
 * place and release them. Paths, schemas and capabilities are the contract's (`legalHoldEndpoints`); another account's
 * hold answers 404 like an unknown one.
 */
export async function legalHoldRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { legalHolds } = app.services;

  r.route({
    ...declared(legalHoldEndpoints.list),
    handler: (request) => legalHolds.list(accountContext(request), request.query),
  });

  r.route({
    ...declared(legalHoldEndpoints.get),
    handler: (request) => legalHolds.get(accountContext(request), request.params.id),
  });

  r.route({
    ...declared(legalHoldEndpoints.place),
    handler: async (request, reply) =>
      reply.code(201).send(await legalHolds.place(accountContext(request), request.body)),
  });

  r.route({
    ...declared(legalHoldEndpoints.release),
    handler: (request) => legalHolds.release(accountContext(request), request.params.id, request.body),
  });
}

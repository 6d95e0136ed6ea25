import { revocationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Revocations in the app (issue #35): owners and members with canSearchData list them, record one received
 * elsewhere, decide a possible one and acknowledge an open one. Paths, schemas and capability are the contract's
 * (`revocationEndpoints`); another account's revocation answers 404 like an unknown one.
 */
export async function revocationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { revocations } = app.services;

  r.route({
    ...declared(revocationEndpoints.list),
    handler: (request) => revocations.list(accountContext(request), request.query),
  });

  r.route({
    ...declared(revocationEndpoints.counts),
    handler: (request) => revocations.counts(accountContext(request)),
  });

  r.route({
    ...declared(revocationEndpoints.record),
    handler: async (request, reply) =>
      reply.code(201).send(await revocations.record(accountContext(request), request.body)),
  });

  r.route({
    ...declared(revocationEndpoints.decide),
    handler: (request) =>
      revocations.decide(accountContext(request), request.params.id, request.body.isRevocation),
  });

  r.route({
    ...declared(revocationEndpoints.acknowledge),
    handler: (request) => revocations.acknowledge(accountContext(request), request.params.id),
  });
}

import { domainEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Company domains (issue #33 item 10, ADR 31): any member lists them (Company Info shows the verified ones); owners add,
 * check and remove them. The routes' paths, schemas and capabilities are their contract's (`domainEndpoints`).
 */
export async function domainRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { domains } = app.services;

  r.route({
    ...declared(domainEndpoints.list),
    handler: (request) => domains.list(accountContext(request)),
  });

  r.route({
    ...declared(domainEndpoints.create),
    handler: async (request, reply) =>
      reply.code(201).send(await domains.create(accountContext(request), request.body)),
  });

  r.route({
    ...declared(domainEndpoints.check),
    handler: (request) => domains.check(accountContext(request), parsePathId(request.params.domainId)),
  });

  r.route({
    ...declared(domainEndpoints.remove),
    handler: async (request, reply) => {
      await domains.remove(accountContext(request), parsePathId(request.params.domainId));
      return reply.code(204).send();
    },
  });
}

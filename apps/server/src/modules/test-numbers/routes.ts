import { testPhoneNumberEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Test numbers (test mode; ours): any member lists them, owners add and delete them (docs/roles.md: manageCompany).
 * An account the caller is not a member of answers 404 like an unknown one. The routes' paths, schemas and
 * capabilities are their contract's (`testPhoneNumberEndpoints`).
 */
export async function testNumberRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { testNumbers } = app.services;

  r.route({
    ...declared(testPhoneNumberEndpoints.list),
    handler: (request) => testNumbers.list(accountContext(request)),
  });

  r.route({
    ...declared(testPhoneNumberEndpoints.create),
    handler: async (request, reply) =>
      reply.code(201).send(await testNumbers.create(accountContext(request), request.body)),
  });

  r.route({
    ...declared(testPhoneNumberEndpoints.remove),
    handler: async (request, reply) => {
      await testNumbers.remove(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  });
}

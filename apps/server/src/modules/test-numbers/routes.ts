import {
  createTestPhoneNumberRequestSchema,
  testPhoneNumberListQuerySchema,
  testPhoneNumberListSchema,
  testPhoneNumberSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not a test number of the caller's accounts. */
const params = z.object({ id: z.string() });

/**
 * Test numbers (test mode; ours): any member lists them, owners add and delete them (docs/roles.md: manageCompany).
 * An account the caller is not a member of answers 404 like an unknown one.
 */
export async function testNumberRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { testNumbers } = app.services;

  r.get(
    '/api/test-phone-numbers',
    {
      config: { account: { from: 'query.account' } },
      schema: { querystring: testPhoneNumberListQuerySchema, response: { 200: testPhoneNumberListSchema } },
    },
    (request) => testNumbers.list(accountContext(request)),
  );

  r.post(
    '/api/test-phone-numbers',
    {
      config: { account: { from: 'body.account', can: 'manageCompany' } },
      schema: { body: createTestPhoneNumberRequestSchema, response: { 201: testPhoneNumberSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await testNumbers.create(accountContext(request), request.body)),
  );

  r.delete(
    '/api/test-phone-numbers/:id',
    {
      config: { account: { from: { pathObject: 'testPhoneNumbers' }, can: 'manageCompany' } },
      schema: { params },
    },
    async (request, reply) => {
      await testNumbers.remove(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  );
}

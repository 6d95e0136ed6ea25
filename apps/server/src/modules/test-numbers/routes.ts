import {
  createTestPhoneNumberRequestSchema,
  testPhoneNumberListQuerySchema,
  testPhoneNumberListSchema,
  testPhoneNumberSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticated } from '../../plugins/auth-guard.ts';
import { parsePathId, requireMembership, scopedByPathId, tenantOf } from '../../plugins/tenancy.ts';

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
      preValidation: authenticated,
      schema: { querystring: testPhoneNumberListQuerySchema, response: { 200: testPhoneNumberListSchema } },
    },
    async (request) => testNumbers.list(await requireMembership(request, request.query.account)),
  );

  r.post(
    '/api/test-phone-numbers',
    {
      preValidation: authenticated,
      schema: { body: createTestPhoneNumberRequestSchema, response: { 201: testPhoneNumberSchema } },
    },
    async (request, reply) => {
      const tenant = await requireMembership(request, request.body.account, 'manageCompany');
      return reply.code(201).send(await testNumbers.create(tenant, request.body));
    },
  );

  r.delete(
    '/api/test-phone-numbers/:id',
    { preValidation: scopedByPathId('testPhoneNumbers', 'manageCompany'), schema: { params } },
    async (request, reply) => {
      await testNumbers.remove(tenantOf(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  );
}

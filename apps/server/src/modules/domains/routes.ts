import {
  accountDomainListSchema,
  accountDomainSchema,
  createAccountDomainRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { type AccountDeclaration, accountContext } from '../../plugins/tenancy.ts';

/** Any strings: the tenancy hook answers 404 for an account not the caller's, the service for a domain not the account's. */
const params = z.object({ id: z.string() });
const domainParams = z.object({ id: z.string(), domainId: z.string() });
const anyMember: AccountDeclaration = { from: 'path.account' };
const owners: AccountDeclaration = { from: 'path.account', can: 'manageCompany' };

/**
 * Company domains (issue #33 item 10, ADR 31): any member lists them (Company Info shows the verified ones); owners add,
 * check and remove them.
 */
export async function domainRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { domains } = app.services;

  r.get(
    '/api/accounts/:id/domains',
    { config: { account: anyMember }, schema: { params, response: { 200: accountDomainListSchema } } },
    (request) => domains.list(accountContext(request)),
  );

  r.post(
    '/api/accounts/:id/domains',
    {
      config: { account: owners },
      schema: { params, body: createAccountDomainRequestSchema, response: { 201: accountDomainSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await domains.create(accountContext(request), request.body)),
  );

  r.post(
    '/api/accounts/:id/domains/:domainId/check',
    { config: { account: owners }, schema: { params: domainParams, response: { 200: accountDomainSchema } } },
    (request) => domains.check(accountContext(request), parsePathId(request.params.domainId)),
  );

  r.delete(
    '/api/accounts/:id/domains/:domainId',
    { config: { account: owners }, schema: { params: domainParams } },
    async (request, reply) => {
      await domains.remove(accountContext(request), parsePathId(request.params.domainId));
      return reply.code(204).send();
    },
  );
}

import {
  acceptInvitationRequestSchema,
  acceptInvitationResponseSchema,
  createInvitationRequestSchema,
  invitationListQuerySchema,
  invitationListSchema,
  invitationSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { authenticated, requireSession, verified } from '../../plugins/auth-guard.ts';
import { type AccountDeclaration, accountContext, originOf } from '../../plugins/tenancy.ts';

const params = z.object({ id: z.string() });
const invitation: AccountDeclaration = { from: { pathObject: 'invitations' }, can: 'manageTeam' };

/** Invitations (DESIGN §5 "Team"): owners manage them; the invited person accepts with the e-mailed key. */
export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { invitations } = app.services;

  r.get(
    '/api/invitations',
    {
      config: { account: { from: 'query.accountId', can: 'manageTeam' } },
      // An unverified address is refused before the query is validated (as before the account context).
      preValidation: verified,
      schema: { querystring: invitationListQuerySchema, response: { 200: invitationListSchema } },
    },
    (request) => invitations.list(accountContext(request)),
  );

  r.post(
    '/api/invitations',
    {
      config: { account: { from: 'body.accountId', can: 'manageTeam' } },
      preValidation: verified,
      schema: { body: createInvitationRequestSchema, response: { 201: invitationSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await invitations.create(accountContext(request), request.body)),
  );

  r.post(
    '/api/invitations/accept',
    {
      preValidation: authenticated,
      schema: { body: acceptInvitationRequestSchema, response: { 200: acceptInvitationResponseSchema } },
    },
    async (request) => {
      const { user, session } = requireSession(request);
      // The per-IP limit needs the address as a string; the audit event takes the rest of the origin.
      const membership = await invitations.accept(user, session, request.body.key, {
        ...originOf(request),
        ip: request.ip,
      });
      session.currentMembershipId = membership.id;
      return { membership };
    },
  );

  r.post(
    '/api/invitations/:id/resend',
    { config: { account: invitation }, schema: { params, response: { 200: invitationSchema } } },
    (request) => invitations.resend(accountContext(request), parsePathId(request.params.id)),
  );

  r.delete(
    '/api/invitations/:id',
    { config: { account: invitation }, schema: { params } },
    async (request, reply) => {
      await invitations.revoke(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  );
}

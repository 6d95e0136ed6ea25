import { invitationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { authenticated, requireSession, verified } from '../../plugins/auth-guard.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext, originOf } from '../../plugins/tenancy.ts';

/**
 * Invitations (DESIGN §5 "Team"): owners manage them; the invited person accepts with the e-mailed key. The routes'
 * paths, schemas and capabilities are their contract's (`invitationEndpoints`).
 */
export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { invitations } = app.services;

  r.route({
    ...declared(invitationEndpoints.list),
    // An unverified address is refused before the query is validated (as before the account context).
    preValidation: verified,
    handler: (request) => invitations.list(accountContext(request)),
  });

  r.route({
    ...declared(invitationEndpoints.create),
    preValidation: verified,
    handler: async (request, reply) =>
      reply.code(201).send(await invitations.create(accountContext(request), request.body)),
  });

  r.route({
    ...declared(invitationEndpoints.accept),
    preValidation: authenticated,
    handler: async (request) => {
      const { user, session } = requireSession(request);
      // The per-IP limit needs the address as a string; the audit event takes the rest of the origin.
      const membership = await invitations.accept(user, session, request.body.key, {
        ...originOf(request),
        ip: request.ip,
      });
      session.currentMembershipId = membership.id;
      return { membership };
    },
  });

  r.route({
    ...declared(invitationEndpoints.resend),
    handler: (request) => invitations.resend(accountContext(request), parsePathId(request.params.id)),
  });

  r.route({
    ...declared(invitationEndpoints.revoke),
    handler: async (request, reply) => {
      await invitations.revoke(accountContext(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  });
}

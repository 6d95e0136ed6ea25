import { authSessionEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticated, requireSession } from '../../plugins/auth-guard.ts';
import { declared } from '../../plugins/endpoints.ts';
import { endSession } from '../../plugins/session.ts';
import { originOf } from '../../plugins/tenancy.ts';

/** The person's sessions (issue #38 item 5). Thin. */
export async function authSessionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { authSessions } = app.services;

  r.route({
    ...declared(authSessionEndpoints.list),
    preValidation: authenticated,
    handler: async (request) => {
      const { user, session } = requireSession(request);
      return authSessions.list(user, session.idHash);
    },
  });

  r.route({
    ...declared(authSessionEndpoints.end),
    preValidation: authenticated,
    handler: async (request, reply) => {
      const { user, session } = requireSession(request);
      const ended = await authSessions.end(user, session.idHash, request.params.id, originOf(request));
      // Ending the current session is signing out: the cookie goes too.
      if (ended.current) await endSession(request, reply);
      return reply.code(204).send();
    },
  });

  r.route({
    ...declared(authSessionEndpoints.endOthers),
    preValidation: authenticated,
    handler: async (request, reply) => {
      const { user, session } = requireSession(request);
      await authSessions.endOthers(user, session.idHash, originOf(request));
      return reply.code(204).send();
    },
  });
}

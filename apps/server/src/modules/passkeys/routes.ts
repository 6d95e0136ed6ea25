import { passkeyEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticated, requireSession, requireUser } from '../../plugins/auth-guard.ts';
import { declared } from '../../plugins/endpoints.ts';
import { startSession } from '../../plugins/session.ts';
import { originOf } from '../../plugins/tenancy.ts';
import { viewerState } from '../auth/index.ts';

/** Passkeys (issue #38): the person's own (signed in), and the sign-in without a password (public). Thin. */
export async function passkeyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { passkeys, clock } = app.services;

  r.route({
    ...declared(passkeyEndpoints.registrationOptions),
    preValidation: authenticated,
    handler: async (request) => passkeys.registrationOptions(requireUser(request)),
  });

  r.route({
    ...declared(passkeyEndpoints.add),
    preValidation: authenticated,
    handler: async (request, reply) => {
      const { user, session } = requireSession(request);
      const added = await passkeys.add(user, session.idHash, request.body, originOf(request));
      return reply.code(201).send(added);
    },
  });

  r.route({
    ...declared(passkeyEndpoints.list),
    preValidation: authenticated,
    handler: async (request) => passkeys.list(requireUser(request)),
  });

  r.route({
    ...declared(passkeyEndpoints.remove),
    preValidation: authenticated,
    handler: async (request, reply) => {
      const { user, session } = requireSession(request);
      await passkeys.remove(user, session.idHash, request.params.id, originOf(request));
      return reply.code(204).send();
    },
  });

  r.route({
    ...declared(passkeyEndpoints.authenticationOptions),
    handler: async (request) => passkeys.authenticationOptions(request.ip),
  });

  r.route({
    ...declared(passkeyEndpoints.login),
    handler: async (request, reply) => {
      const user = await passkeys.login(request.body.response, { ...originOf(request), ip: request.ip });
      await startSession(request, reply, user, { signedInWith: 'passkey', lastProofAt: clock.now() });
      return viewerState(request, reply, { rotateCsrf: true });
    },
  });
}

import { secondFactorEndpoints } from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticated, requireSession } from '../../plugins/auth-guard.ts';
import { baseCookieOptions, cookieNames } from '../../plugins/cookies.ts';
import { declared } from '../../plugins/endpoints.ts';
import { startSession } from '../../plugins/session.ts';
import { originOf } from '../../plugins/tenancy.ts';
import { viewerState } from '../auth/index.ts';
import type { MfaOrigin } from './service.ts';

const mfaOrigin = (request: FastifyRequest): MfaOrigin => ({ ...originOf(request), ip: request.ip });

/**
 * Second factors (issue #38, contracts second-factors.ts): the person's own TOTP and recovery codes (signed in; the
 * removals under step-up, plugins/step-up.ts), the sign-in's second step and step-up. Thin: parse, call, answer.
 */
export async function mfaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { mfa, config, clock } = app.services;
  const endpoints = secondFactorEndpoints;
  const pendingCookie = cookieNames(config).mfaLogin;

  r.route({
    ...declared(endpoints.status),
    preValidation: authenticated,
    handler: async (request) => {
      const { user, session } = requireSession(request);
      return mfa.status(user, session);
    },
  });

  r.route({
    ...declared(endpoints.startTotp),
    preValidation: authenticated,
    handler: async (request) => mfa.startTotp(requireSession(request).user),
  });

  r.route({
    ...declared(endpoints.confirmTotp),
    preValidation: authenticated,
    handler: async (request) => {
      const { user, session } = requireSession(request);
      return mfa.confirmTotp(user, session, request.body.code, mfaOrigin(request));
    },
  });

  r.route({
    ...declared(endpoints.removeTotp),
    preValidation: authenticated,
    handler: async (request, reply) => {
      const { user, session } = requireSession(request);
      await mfa.removeTotp(user, session, originOf(request));
      return reply.code(204).send();
    },
  });

  r.route({
    ...declared(endpoints.regenerateRecoveryCodes),
    preValidation: authenticated,
    handler: async (request) => mfa.regenerateRecoveryCodes(requireSession(request).user, originOf(request)),
  });

  r.route({
    ...declared(endpoints.loginMfa),
    handler: async (request, reply) => {
      const user = await mfa.finishLogin(request.cookies[pendingCookie], request.body, mfaOrigin(request));
      reply.clearCookie(pendingCookie, baseCookieOptions(config));
      await startSession(request, reply, user, { lastProofAt: clock.now() });
      return viewerState(request, reply, { rotateCsrf: true });
    },
  });

  r.route({
    ...declared(endpoints.stepUp),
    preValidation: authenticated,
    handler: async (request) => {
      const { user, session } = requireSession(request);
      const at = await mfa.stepUp(user, session, request.body, mfaOrigin(request));
      return { lastProofAt: at.toISOString() };
    },
  });
}

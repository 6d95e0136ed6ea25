import { accountSelfServiceEndpoints, authEndpoints, serverTexts } from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticated, requireSession, requireUser } from '../../plugins/auth-guard.ts';
import { baseCookieOptions, cookieNames } from '../../plugins/cookies.ts';
import { ensureCsrfToken } from '../../plugins/csrf.ts';
import { declared } from '../../plugins/endpoints.ts';
import { endSession, rotateSession, startSession } from '../../plugins/session.ts';
import { originOf } from '../../plugins/tenancy.ts';
import { refusePasswordUnderSso } from '../sso/index.ts';
import type { ClientOrigin } from './service.ts';
import { viewerState } from './viewer.ts';

const clientOrigin = (request: FastifyRequest): ClientOrigin => ({ ...originOf(request), ip: request.ip });

/**
 * SPEC §7 auth calls and DESIGN §5's verify-email confirmation. Thin: parse, call the service, answer. The routes'
 * paths, schemas and who may call them are their contracts' (`authEndpoints`, `accountSelfServiceEndpoints`).
 */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, emailVerification, passwordReset, emailChange } = app.services;
  const selfService = accountSelfServiceEndpoints;

  r.route({
    ...declared(authEndpoints.csrf),
    handler: async (request, reply) => ({ csrfToken: ensureCsrfToken(request, reply) }),
  });

  r.route({
    ...declared(authEndpoints.refreshMe),
    handler: (request, reply) => viewerState(request, reply),
  });

  r.route({
    ...declared(authEndpoints.login),
    handler: async (request, reply) => {
      await refusePasswordUnderSso(app.services.db, request.body.email);
      const user = await auth.login(request.body, clientOrigin(request));
      if (user.mfaEnrolledAt) {
        // Issue #38: no session until the second factor (POST /api/auth/login/mfa); the pending sign-in is a cookie
        // the page's script cannot read, with the session cookie's options.
        const pending = await app.services.mfa.beginLogin(user);
        reply.setCookie(cookieNames(app.services.config).mfaLogin, pending.token, {
          ...baseCookieOptions(app.services.config),
          maxAge: pending.maxAgeSeconds,
        });
        return { mfaRequired: true as const, methods: pending.methods };
      }
      await startSession(request, reply, user);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  });

  r.route({
    ...declared(authEndpoints.logout),
    handler: async (request, reply) => {
      const { user, session } = request;
      // Recorded here, not in endSession: a session ended by a password reset is no sign-out.
      if (user && session) await auth.logout(user, session.idHash, originOf(request));
      await endSession(request, reply);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  });

  r.route({
    ...declared(authEndpoints.signup),
    handler: async (request, reply) => {
      const user = await auth.signup(request.body, request.ip);
      await startSession(request, reply, user);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  });

  r.route({
    ...declared(authEndpoints.resendVerificationEmail),
    handler: async (request) => ({ detail: await emailVerification.resend(request.body.email, request.ip) }),
  });

  r.route({
    ...declared(authEndpoints.confirmVerifyEmail),
    handler: async (request, reply) => {
      const verified = await emailVerification.confirm(request.body.uidb64, request.body.token);
      // Nobody is logged in by a link; but when the caller is that user, their answer shows the new status.
      if (request.user?.id === verified.id) request.user = verified;
      return viewerState(request, reply);
    },
  });

  r.route({
    ...declared(selfService.resetPassword),
    handler: async (request) => ({ detail: await passwordReset.request(request.body.email, request.ip) }),
  });

  r.route({
    ...declared(selfService.confirmPasswordReset),
    handler: async (request, reply) => {
      const user = await passwordReset.confirm(request.body, originOf(request));
      // Every session of that user has ended; when the caller was one of them, they are now logged out.
      if (request.user?.id === user.id) {
        await endSession(request, reply);
        return viewerState(request, reply, { rotateCsrf: true });
      }
      return viewerState(request, reply);
    },
  });

  r.route({
    ...declared(selfService.changePassword),
    preValidation: authenticated,
    handler: async (request, reply) => {
      const { user, session } = requireSession(request);
      request.user = await auth.changePassword(user, session.idHash, request.body, clientOrigin(request));
      await rotateSession(request, reply);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  });

  r.route({
    ...declared(selfService.retrieveEmailChange),
    preValidation: authenticated,
    handler: async (request) => emailChange.retrieve(requireUser(request)),
  });

  r.route({
    ...declared(selfService.requestEmailChange),
    preValidation: authenticated,
    handler: async (request) => emailChange.request(requireUser(request), request.body, request.ip),
  });

  r.route({
    ...declared(selfService.resendEmailChange),
    preValidation: authenticated,
    handler: async (request) => emailChange.resend(requireUser(request), request.ip),
  });

  // The two links' confirmations need no session: a link may be opened on another device (or logged out).
  r.route({
    ...declared(selfService.cancelEmailChange),
    handler: async (request) => {
      await emailChange.cancel(request.body.uidb64, request.body.token);
      return { detail: serverTexts.emailChangeCancelled };
    },
  });

  r.route({
    ...declared(selfService.confirmEmailChange),
    handler: async (request, reply) => {
      const changed = await emailChange.confirm(request.body.uidb64, request.body.token, originOf(request));
      if (request.user?.id === changed.id) request.user = changed;
      return viewerState(request, reply);
    },
  });
}

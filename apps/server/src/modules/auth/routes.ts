import {
  authResponseSchema,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  csrfResponseSchema,
  detailResponseSchema,
  emailChangeRequestSchema,
  loginRequestSchema,
  resendVerificationEmailRequestSchema,
  resetPasswordConfirmRequestSchema,
  resetPasswordRequestSchema,
  serverTexts,
  signupRequestSchema,
  tokenConfirmRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticated, requireSession, requireUser } from '../../plugins/auth-guard.ts';
import { ensureCsrfToken } from '../../plugins/csrf.ts';
import { endSession, rotateSession, startSession } from '../../plugins/session.ts';
import { originOf } from '../../plugins/tenancy.ts';
import type { ClientOrigin } from './service.ts';
import { viewerState } from './viewer.ts';

const clientOrigin = (request: FastifyRequest): ClientOrigin => ({ ...originOf(request), ip: request.ip });

/** SPEC §7 auth calls and DESIGN §5's verify-email confirmation. Thin: parse, call the service, answer. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, emailVerification, passwordReset, emailChange } = app.services;

  r.post('/api/auth/csrf', { schema: { response: { 200: csrfResponseSchema } } }, async (request, reply) => ({
    csrfToken: ensureCsrfToken(request, reply),
  }));

  r.post('/api/auth/refresh-me', { schema: { response: { 200: authResponseSchema } } }, (request, reply) =>
    viewerState(request, reply),
  );

  r.post(
    '/api/auth/login',
    { schema: { body: loginRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const user = await auth.login(request.body, clientOrigin(request));
      await startSession(request, reply, user);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  );

  r.post(
    '/api/auth/logout',
    { schema: { response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const { user, session } = request;
      // Recorded here, not in endSession: a session ended by a password reset is no sign-out.
      if (user && session) await auth.logout(user, session.idHash, originOf(request));
      await endSession(request, reply);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  );

  r.post(
    '/api/auth/signup',
    { schema: { body: signupRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const user = await auth.signup(request.body, request.ip);
      await startSession(request, reply, user);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  );

  r.post(
    '/api/auth/signup/resend-verification-email',
    { schema: { body: resendVerificationEmailRequestSchema, response: { 200: detailResponseSchema } } },
    async (request) => ({ detail: await emailVerification.resend(request.body.email, request.ip) }),
  );

  r.post(
    '/api/auth/verify-email/confirm',
    { schema: { body: tokenConfirmRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const verified = await emailVerification.confirm(request.body.uidb64, request.body.token);
      // Nobody is logged in by a link; but when the caller is that user, their answer shows the new status.
      if (request.user?.id === verified.id) request.user = verified;
      return viewerState(request, reply);
    },
  );

  r.post(
    '/api/auth/reset-password',
    { schema: { body: resetPasswordRequestSchema, response: { 200: detailResponseSchema } } },
    async (request) => ({ detail: await passwordReset.request(request.body.email, request.ip) }),
  );

  r.post(
    '/api/auth/reset-password/confirm',
    { schema: { body: resetPasswordConfirmRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const user = await passwordReset.confirm(request.body, originOf(request));
      // Every session of that user has ended; when the caller was one of them, they are now logged out.
      if (request.user?.id === user.id) {
        await endSession(request, reply);
        return viewerState(request, reply, { rotateCsrf: true });
      }
      return viewerState(request, reply);
    },
  );

  r.post(
    '/api/auth/change-password',
    {
      preValidation: authenticated,
      schema: { body: changePasswordRequestSchema, response: { 200: authResponseSchema } },
    },
    async (request, reply) => {
      const { user, session } = requireSession(request);
      request.user = await auth.changePassword(user, session.idHash, request.body, clientOrigin(request));
      await rotateSession(request, reply);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  );

  r.get(
    '/api/auth/change-email/retrieve',
    { preValidation: authenticated, schema: { response: { 200: emailChangeRequestSchema } } },
    async (request) => emailChange.retrieve(requireUser(request)),
  );

  r.post(
    '/api/auth/change-email/request',
    {
      preValidation: authenticated,
      schema: { body: changeEmailRequestSchema, response: { 200: emailChangeRequestSchema } },
    },
    async (request) => emailChange.request(requireUser(request), request.body, request.ip),
  );

  r.post(
    '/api/auth/change-email/resend',
    { preValidation: authenticated, schema: { response: { 200: emailChangeRequestSchema } } },
    async (request) => emailChange.resend(requireUser(request), request.ip),
  );

  /** The link sent to the OLD address: calls the pending change off. No session needed, as for confirm. */
  r.post(
    '/api/auth/change-email/cancel',
    { schema: { body: tokenConfirmRequestSchema, response: { 200: detailResponseSchema } } },
    async (request) => {
      await emailChange.cancel(request.body.uidb64, request.body.token);
      return { detail: serverTexts.emailChangeCancelled };
    },
  );

  /** No session needed: the link may be opened on another device (or logged out). */
  r.post(
    '/api/auth/change-email/confirm',
    { schema: { body: tokenConfirmRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const changed = await emailChange.confirm(request.body.uidb64, request.body.token, originOf(request));
      if (request.user?.id === changed.id) request.user = changed;
      return viewerState(request, reply);
    },
  );
}

import {
  authResponseSchema,
  csrfResponseSchema,
  detailResponseSchema,
  loginRequestSchema,
  resendVerificationEmailRequestSchema,
  signupRequestSchema,
  tokenConfirmRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ensureCsrfToken } from '../../plugins/csrf.ts';
import { endSession, startSession } from '../../plugins/session.ts';
import { viewerState } from './viewer.ts';

/** SPEC §7 auth calls and DESIGN §5's verify-email confirmation. Thin: parse, call the service, answer. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, emailVerification } = app.services;

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
      const user = await auth.login(request.body, request.ip);
      await startSession(request, reply, user);
      return viewerState(request, reply, { rotateCsrf: true });
    },
  );

  r.post(
    '/api/auth/logout',
    { schema: { response: { 200: authResponseSchema } } },
    async (request, reply) => {
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
}

import { SSO_CALLBACK_PATH, SSO_START_PATH, ssoEndpoints, ssoStartQuerySchema } from '@veriform/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { declared } from '../../plugins/endpoints.ts';
import { startSession } from '../../plugins/session.ts';
import { accountContext, originOf } from '../../plugins/tenancy.ts';
import { SsoFailure } from './service.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where a failed sign-in lands: the login page, which shows the code's text (contracts `ssoErrorText`). */
const loginWithError = (code: string) => `/auth/login?sso_error=${encodeURIComponent(code)}`;

/**
 * A refused start (no connection for the domain, no address) for a browser that navigated here: a small page with the
 * text and a way back, status 400; any other caller gets the app's JSON 400.
 */
function answerRefusal(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const wantsHtml = (request.headers.accept ?? '').includes('text/html');
  if (!wantsHtml) throw error;
  const text = [...Object.values(error.fields).flat(), ...error.nonFieldErrors][0] ?? error.detail;
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Single sign-on</title></head>` +
        `<body><main><h1>Single sign-on</h1><p role="alert">${escapeHtml(text)}</p>` +
        `<p><a href="/auth/login">Back to sign-in</a></p></main></body></html>`,
    );
}

/**
 * Single sign-on (issue #38 item 4): the owners' settings (`ssoEndpoints`, manageCompany; saving asks a step-up) and
 * the two page routes the browser goes through: start (→ the provider) and callback (→ the app, or the login page
 * with `?sso_error=`).
 */
export async function ssoRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sso } = app.services;

  r.route({
    ...declared(ssoEndpoints.get),
    handler: (request) => sso.settings(accountContext(request)),
  });

  r.route({
    ...declared(ssoEndpoints.put),
    handler: (request) => sso.save(accountContext(request), request.body),
  });

  r.get(SSO_START_PATH, { schema: { querystring: ssoStartQuerySchema } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      const url = await sso.start(request.query.email);
      return reply.redirect(url.href, 303);
    } catch (error) {
      if (error instanceof SsoFailure) return reply.redirect(loginWithError(error.code), 303);
      if (error instanceof AppError && error.statusCode === 400) return answerRefusal(request, reply, error);
      throw error;
    }
  });

  r.get(SSO_CALLBACK_PATH, async (request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    try {
      const { user, membershipId } = await sso.finish(query, originOf(request));
      // A sign-in through the company's provider is the session's proof (ADR 50): no step-up for the next minutes.
      await startSession(request, reply, user, {
        signedInWith: 'sso',
        lastProofAt: app.services.clock.now(),
      });
      if (request.session) await sso.enterAccount(request.session.idHash, membershipId);
      return reply.redirect('/', 303);
    } catch (error) {
      if (error instanceof SsoFailure) return reply.redirect(loginWithError(error.code), 303);
      throw error;
    }
  });
}

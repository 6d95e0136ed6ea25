import { API_V1_PREFIX } from '@veriform/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { derivedKey, hmacSha256, randomToken, safeEqual } from '../lib/crypto.ts';
import { AppError } from '../lib/errors.ts';
import { TWILIO_INBOUND_PATH } from '../lib/twilio-webhook.ts';
import { TWILIO_STATUS_CALLBACK_PATH } from '../messaging/sms.ts';
import { baseCookieOptions, cookieNames } from './cookies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The CSRF secret in effect for this request (from the cookie, or set on this reply). */
    csrfSecret: string | null;
  }
}

/**
 * Signed double-submit CSRF protection. An HttpOnly cookie holds a random secret; the client gets
 * base64url(HMAC(SECRET_KEY, secret)) (from the initial page data or POST /api/auth/csrf) and sends it back in
 * X-CSRFToken on every unsafe request. Another site can neither read the token nor, without SECRET_KEY, forge one
 * for a cookie it managed to plant. Needs nothing but SECRET_KEY, so it holds across processes.
 */

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The one unsafe call that needs no token: it is how the client gets one. */
/**
 * `/api/auth/csrf` is how a client gets a token. Twilio's webhooks (status callbacks, inbound replies) come from
 * Twilio, not a browser, and carry no cookie to ride on: their signature (X-Twilio-Signature) is their proof instead.
 */
const EXEMPT_PATHS = new Set(['/api/auth/csrf', TWILIO_STATUS_CALLBACK_PATH, TWILIO_INBOUND_PATH]);
const CSRF_HEADER = 'x-csrftoken';
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Long-lived like Django's: the secret is rotated on login, sign-up and logout, not by time. */
const CSRF_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

function tokenFor(config: Config, secret: string): string {
  return hmacSha256(derivedKey(config.secretKey, 'csrf'), secret).toString('base64url');
}

function setSecret(request: FastifyRequest, reply: FastifyReply, secret: string): string {
  const { config } = request.server.services;
  reply.setCookie(cookieNames(config).csrf, secret, {
    ...baseCookieOptions(config),
    maxAge: CSRF_COOKIE_MAX_AGE_SECONDS,
  });
  request.csrfSecret = secret;
  return tokenFor(config, secret);
}

/** The token for the request's secret, setting a new secret cookie when there is none. */
export function ensureCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const { config } = request.server.services;
  if (request.csrfSecret) return tokenFor(config, request.csrfSecret);
  return setSecret(request, reply, randomToken(32));
}

/** A new secret (login, sign-up, logout): tokens handed out before stop working. */
export function rotateCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  return setSecret(request, reply, randomToken(32));
}

export function registerCsrf(app: FastifyInstance): void {
  const { config } = app.services;
  const name = cookieNames(config).csrf;
  app.decorateRequest('csrfSecret', null);

  app.addHook('onRequest', async (request) => {
    const cookie = request.cookies[name];
    request.csrfSecret = cookie && SECRET_PATTERN.test(cookie) ? cookie : null;
    if (!UNSAFE_METHODS.has(request.method)) return;
    const path = request.url.split('?', 1)[0] ?? '';
    if (EXEMPT_PATHS.has(path)) return;
    // API v1 takes no cookie (its caller is the bearer key alone, and the session plugin skips it): a cross-site
    // request cannot send an Authorization header, so it can only ever be anonymous there.
    if (path.startsWith(API_V1_PREFIX)) return;
    const header = request.headers[CSRF_HEADER];
    if (
      !request.csrfSecret ||
      typeof header !== 'string' ||
      !safeEqual(header, tokenFor(config, request.csrfSecret))
    ) {
      throw new AppError('csrf_failed');
    }
  });
}

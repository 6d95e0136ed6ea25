import { API_V1_PREFIX, MEDIA_PATH_PREFIX } from '@veriform/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountRow, MembershipRow, SessionRow, UserRow } from '../lib/rows.ts';
import { SESSION_TTL_MS } from '../lib/session-store.ts';
import { baseCookieOptions, cookieNames } from './cookies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, or null for an anonymous request. */
    user: UserRow | null;
    session: SessionRow | null;
    /**
     * The user's memberships, loaded with the session at the start of the request (plugins/tenancy.ts reads them);
     * null when not loaded (anonymous, or logged in during this request).
     */
    memberships: readonly MembershipRow[] | null;
    /** The accounts of `memberships`, by id, loaded with them; null when they are null. */
    membershipAccounts: ReadonlyMap<number, AccountRow> | null;
  }
}

/** Requests that never need the session (built assets, public media, Vite's module requests in development). */
function skipsSession(url: string): boolean {
  return (
    // API v1's caller is its bearer key only; a browser's cookie riding along is ignored.
    url.startsWith(API_V1_PREFIX) ||
    url.startsWith('/assets/') ||
    url.startsWith(MEDIA_PATH_PREFIX) ||
    url.startsWith('/@') ||
    url.startsWith('/node_modules/')
  );
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Loads the session named by the cookie (DESIGN §4) into `request.session` / `request.user`, and slides its expiry.
 * An unknown or expired id clears the cookie.
 */
export function registerSessions(app: FastifyInstance): void {
  const { config, sessions } = app.services;
  const name = cookieNames(config).session;

  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  app.decorateRequest('memberships', null);
  app.decorateRequest('membershipAccounts', null);

  app.addHook('onRequest', async (request, reply) => {
    if (skipsSession(request.url)) return;
    const id = request.cookies[name];
    if (!id) return;
    const found = SESSION_ID_PATTERN.test(id) ? await sessions.find(id) : undefined;
    if (!found) {
      reply.clearCookie(name, baseCookieOptions(config));
      return;
    }
    const expiresAt = await sessions.touchIfDue(found.session);
    if (expiresAt) {
      // The browser forgets the cookie when the server does: at most 14 days on, never past the absolute lifetime.
      const maxAge = Math.max(
        0,
        Math.floor((expiresAt.getTime() - app.services.clock.now().getTime()) / 1000),
      );
      reply.setCookie(name, id, { ...baseCookieOptions(config), maxAge });
    }
    request.session = found.session;
    request.user = found.user;
    request.memberships = found.memberships;
    request.membershipAccounts = found.accounts;
  });
}

/** How a session began (issue #38), when not with a password alone. */
export type StartSessionOptions = {
  signedInWith?: SessionRow['signedInWith'];
  /** The sign-in proved a second factor (a passkey, a second step): step-up is not asked for the next minutes. */
  lastProofAt?: Date | null;
};

/**
 * Logs `user` in on a brand-new session id (never the one the request came with: session fixation), ending the
 * request's previous session if it had one.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  options: StartSessionOptions = {},
): Promise<void> {
  const { config, sessions } = request.server.services;
  if (request.session) await sessions.remove(request.session.idHash);
  const created = await sessions.create(user.id, {
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    ...options,
  });
  reply.setCookie(cookieNames(config).session, created.id, {
    ...baseCookieOptions(config),
    maxAge: SESSION_TTL_MS / 1000,
  });
  request.session = created.session;
  request.user = user;
  request.memberships = null;
  request.membershipAccounts = null;
}

/**
 * Moves the request's session to a brand-new id (password change): the old id stops working, the user and the
 * remembered current membership stay. Needs a logged-in request.
 */
export async function rotateSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { config, sessions } = request.server.services;
  const { session, user } = request;
  if (!session || !user) throw new Error('rotateSession() needs a logged-in request');
  const created = await sessions.create(user.id, {
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    currentMembershipId: session.currentMembershipId,
  });
  await sessions.remove(session.idHash);
  reply.setCookie(cookieNames(config).session, created.id, {
    ...baseCookieOptions(config),
    maxAge: SESSION_TTL_MS / 1000,
  });
  request.session = created.session;
}

export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { config, sessions } = request.server.services;
  if (request.session) await sessions.remove(request.session.idHash);
  reply.clearCookie(cookieNames(config).session, baseCookieOptions(config));
  request.session = null;
  request.user = null;
  request.memberships = null;
  request.membershipAccounts = null;
}

import type { RouterHistory } from '@tanstack/react-router';
import type { InitialData } from '@veriform/contracts';
import { ApiClient, type FetchLike } from './lib/api-client';
import { createQueryClient } from './lib/query-client';
import type { RouterContext } from './lib/router-context';
import { SessionStore } from './lib/session';
import { createAppRouter } from './router';

const AUTH_PREFIX = '/auth/';

/**
 * Wires the app's objects together: API client (CSRF token from the page data), query cache, session (seeded from
 * the page data) and router. A "not authenticated" answer clears the session and goes to the login page, back to
 * where the user was after logging in.
 */
export function bootstrap(
  initialData: InitialData,
  options: { fetch?: FetchLike; history?: RouterHistory } = {},
) {
  const queryClient = createQueryClient();
  const api = new ApiClient({ fetch: options.fetch, csrfToken: initialData.csrfToken });
  const session = new SessionStore(queryClient);
  session.seed(initialData);
  // SPEC §3, §4: a page served right after creating an account names it; it goes first and becomes current.
  const justCreated = initialData.extra.justCreatedAccount?.membershipCreated;
  if (justCreated && initialData.user.isAuthenticated) session.addMembership(justCreated);
  const context: RouterContext = { api, session, queryClient, initialData };
  const router = createAppRouter(context, options.history);

  api.setNotAuthenticatedHandler(() => {
    session.clear();
    const { pathname, href } = router.state.location;
    if (pathname.startsWith(AUTH_PREFIX)) return;
    void router.navigate({ to: '/auth/login', search: { next: href } });
  });

  return { services: { api, session, queryClient }, router, context };
}

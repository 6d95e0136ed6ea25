import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { PlainNotFound } from './components/errors/NotFoundScreen';
import { RouteErrorScreen } from './components/errors/RouteErrorScreen';
import type { RouterContext } from './lib/router-context';
import { routeTree } from './routeTree.gen';

export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    history,
    // `/auth/login/` and `/auth/login` are both valid addresses (the spec writes both).
    trailingSlash: 'preserve',
    // Unmatched paths show the root's large 404 page, outside the app shell and its guards.
    notFoundMode: 'root',
    defaultNotFoundComponent: PlainNotFound,
    defaultErrorComponent: RouteErrorScreen,
    defaultPreload: 'intent',
    // Route data lives in TanStack Query, which decides freshness.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

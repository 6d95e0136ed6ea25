import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { InitialData } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { App, AppProviders } from '../app';
import { bootstrap } from '../bootstrap';
import type { createFakeServer } from './fake-server';
import { makeInitialData } from './fake-server';

type FakeServer = ReturnType<typeof createFakeServer>;

/** The whole app (real route tree and guards) at `path`, talking to a fake server. */
export function renderApp(path: string, options: { initialData?: InitialData; server?: FakeServer } = {}) {
  const history = createMemoryHistory({ initialEntries: [path] });
  const app = bootstrap(options.initialData ?? makeInitialData(), { fetch: options.server?.fetch, history });
  const view = render(<App services={app.services} router={app.router} env="test" />);
  return { ...view, ...app };
}

/** One component inside the app providers and a throwaway router (so links render). */
export function renderWithRouter(
  ui: ReactNode,
  options: { initialData?: InitialData; server?: FakeServer } = {},
) {
  const app = bootstrap(options.initialData ?? makeInitialData(), { fetch: options.server?.fetch });
  const rootRoute = createRootRoute();
  const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => ui });
  const router = createRouter({
    routeTree: rootRoute.addChildren([indexRoute]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  const view = render(
    <AppProviders services={app.services} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, ...app, router };
}

import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFoundScreen } from '../components/errors/NotFoundScreen';
import { RouteErrorScreen } from '../components/errors/RouteErrorScreen';
import type { RouterContext } from '../lib/router-context';

/**
 * An unmatched path is answered here, at the root (`notFoundMode: 'root'`), outside every layout: the screen is the
 * page's main landmark itself, else its content would stand outside any (axe's region and landmark-one-main).
 */
function RootNotFound() {
  return (
    <main>
      <NotFoundScreen />
    </main>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: RootNotFound,
  errorComponent: RouteErrorScreen,
});

import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFoundScreen } from '../components/errors/NotFoundScreen';
import { RouteErrorScreen } from '../components/errors/RouteErrorScreen';
import type { RouterContext } from '../lib/router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundScreen,
  errorComponent: RouteErrorScreen,
});

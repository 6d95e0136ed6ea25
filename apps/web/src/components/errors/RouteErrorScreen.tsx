import { useQueryClient, useQueryErrorResetBoundary } from '@tanstack/react-query';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ApiError, NotFoundError, PermissionDeniedError, ServerError } from '../../lib/api-client';
import { reportError } from '../../lib/error-reporting';
import { sessionQueryKey } from '../../lib/session';
import { DefaultErrorScreen } from './DefaultErrorScreen';
import { ForbiddenScreen } from './ForbiddenScreen';
import { NotFoundScreen } from './NotFoundScreen';
import { ServerErrorScreen } from './ServerErrorScreen';

/** Picks the screen for an error thrown while loading or rendering a route. */
export function RouteErrorScreen({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const queryReset = useQueryErrorResetBoundary();
  // Answers of the API are the server's to report (a 5xx already was, with its request id); anything else thrown
  // while loading or rendering a page is a fault of the page itself.
  useEffect(() => {
    if (!(error instanceof ApiError)) reportError(error);
  }, [error]);

  if (error instanceof ServerError) {
    const retry = () => {
      queryReset.reset();
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      reset();
      void router.invalidate();
    };
    return <ServerErrorScreen onRetry={retry} />;
  }
  if (error instanceof PermissionDeniedError) return <ForbiddenScreen />;
  if (error instanceof NotFoundError) return <NotFoundScreen />;
  return <DefaultErrorScreen error={error} />;
}

import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import { type Session, useSession } from '../../lib/session';
import { sessionQueryOptions } from './api';

export const SESSION_POLL_MS = 5000;

/**
 * Re-checks the session (POST refresh-me) when the page opens, when the window regains focus and every 5 s while it
 * is visible: the e-mail may get verified in another tab or on another device.
 */
export function useSessionPolling(enabled = true): Session {
  const services = useServices();
  const current = useSession();
  const { data } = useQuery({
    ...sessionQueryOptions(services),
    enabled,
    refetchInterval: enabled ? SESSION_POLL_MS : false,
    refetchOnWindowFocus: 'always',
    refetchOnMount: 'always',
  });
  return data ?? current;
}

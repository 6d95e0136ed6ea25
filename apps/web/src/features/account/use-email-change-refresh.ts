import { useCallback, useState } from 'react';
import { useBroadcastListener } from '../../lib/broadcast';
import { errorDisplayText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { useServices } from '../../lib/services';
import { emailChangeRequestQueryKey, refreshMe, retrieveEmailChangeRequest } from '../auth/api';
import { sameEmail } from './email-change';

/**
 * SPEC §4: after an e-mail change request, re-read the request and the session (refresh-me). If the user's address
 * now equals the target: "Successfully changed"; otherwise the warning "Not Yet Changed". Runs on the Refresh Status
 * button and whenever another tab broadcasts `user.emailChanged`.
 *
 * `fallbackTarget` is the address asked for as this page knows it, used when the server no longer reports one.
 */
export function useEmailChangeRefresh(fallbackTarget: string | undefined) {
  const { api, session, queryClient } = useServices();
  const [refreshing, setRefreshing] = useState(false);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      const [request, auth] = await Promise.all([retrieveEmailChangeRequest(api), refreshMe(api)]);
      queryClient.setQueryData(emailChangeRequestQueryKey, request);
      const { user } = session.applyAuthResponse(auth, 'keep');
      const target = request.toEmail || fallbackTarget;
      if (!target || !user.isAuthenticated) return;
      if (sameEmail(user.email, target)) {
        notify.success('Successfully changed', `Your email has been successfully changed to ${target}.`);
      } else {
        notify.warning('Not Yet Changed', `Your email has not yet been changed to ${target}.`);
      }
    } catch (error) {
      notify.error('Failed to Refresh Email Change Status', errorDisplayText(error));
    } finally {
      setRefreshing(false);
    }
  }, [api, session, queryClient, fallbackTarget]);

  useBroadcastListener((message) => {
    if (message.type === 'user.emailChanged') void refresh();
  });

  return { refresh, refreshing };
}

import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense } from 'react';

const NotificationsHost = lazy(() => import('./notifications-host'));

/**
 * Mantine's toast container with its transitions, drag handling and portal is ~9 KB (gzip) that no page needs to show
 * itself: it is fetched when the first toast is shown. Toasts live in Mantine's store, not in the container, so that
 * toast appears as soon as the container has mounted (a fetch later; cached from then on). Fetching it when the browser
 * was idle after the page showed came too early: idle arrives between the page's own route chunks.
 */
export function DeferredNotifications() {
  const { notifications, queue } = useNotifications();
  if (notifications.length === 0 && queue.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}

import { useNotifications } from '@mantine/notifications';
import { type ComponentType, lazy, Suspense, useRef } from 'react';

let loadedHost: ComponentType | undefined;

const loadHost = async () => {
  const module = await import('./notifications-host');
  loadedHost = module.default;
  return module;
};

const LazyHost = lazy(loadHost);

/** Fetches the container ahead of the first toast (component tests, where a toast is looked for at once). */
export async function preloadNotificationsHost(): Promise<void> {
  await loadHost();
}

/**
 * Mantine's toast container with its transitions, drag handling and portal is ~9 KB (gzip) that no page needs to show
 * itself: it is fetched when the first toast is shown, and stays from then on (so toasts still fade out). Toasts live
 * in Mantine's store, not in the container, so that toast appears as soon as the container has mounted (a fetch later;
 * cached from then on). Fetching it when the browser was idle after the page showed came too early: idle arrives
 * between the page's own route chunks.
 */
export function DeferredNotifications() {
  const { notifications, queue } = useNotifications();
  const shown = useRef(false);
  if (notifications.length > 0 || queue.length > 0) shown.current = true;
  if (!shown.current) return null;
  if (loadedHost) {
    const Host = loadedHost;
    return <Host />;
  }
  return (
    <Suspense fallback={null}>
      <LazyHost />
    </Suspense>
  );
}

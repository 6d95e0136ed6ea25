import { Notifications } from '@mantine/notifications';

/** The toasts' container (SPEC §9), in its own chunk: see DeferredNotifications. */
export default function NotificationsHost() {
  return <Notifications position="top-center" />;
}

import { createFileRoute, redirect } from '@tanstack/react-router';

/** SPEC §2: bare /settings goes to My Account. */
export const Route = createFileRoute('/_authed/settings/')({
  beforeLoad: () => {
    throw redirect({ to: '/settings/my-account', replace: true });
  },
});

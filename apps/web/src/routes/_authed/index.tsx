import { createFileRoute, redirect } from '@tanstack/react-router';

/** SPEC §2: the root path requires login (the `_authed` gate), then goes to My Account. */
export const Route = createFileRoute('/_authed/')({
  beforeLoad: () => {
    throw redirect({ to: '/settings/my-account', replace: true });
  },
});

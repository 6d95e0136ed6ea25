import { createFileRoute, redirect } from '@tanstack/react-router';
import { needsAccount } from '../../lib/gate';

/**
 * SPEC §2: the root path requires login (the `_authed` gate), then goes to My Account. A newcomer without a company
 * is sent to create one first: the root is where signing up and logging in land. The account pages themselves show
 * "No membership found" (SPEC §6) with a link to the same place.
 */
export const Route = createFileRoute('/_authed/')({
  beforeLoad: ({ context }) => {
    if (needsAccount(context.session.get())) throw redirect({ to: '/auth/signup/complete' });
    throw redirect({ to: '/settings/my-account', replace: true });
  },
});

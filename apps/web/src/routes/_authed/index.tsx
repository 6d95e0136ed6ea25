import { createFileRoute, redirect } from '@tanstack/react-router';
import { requireAccount } from '../../lib/require-account';

/**
 * SPEC §2: the root path requires login (the `_authed` gate), then goes to My Account. A user without a company
 * account is sent to create one first.
 */
export const Route = createFileRoute('/_authed/')({
  beforeLoad: ({ context }) => {
    requireAccount({ context });
    throw redirect({ to: '/settings/my-account', replace: true });
  },
});

import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import type { PrivacyRequestSearch } from '@veriform/contracts';
import { useCallback } from 'react';
import { ForbiddenScreen } from '../../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../../components/errors/NoMembershipAlert';
import {
  canManagePrivacyRequests,
  privacyRequestSearchDefaults,
  validatePrivacyRequestSearch,
} from '../../../../features/privacy-requests/api';
import { PrivacyRequests } from '../../../../features/privacy-requests/components/PrivacyRequests';
import { usePageTitle } from '../../../../lib/page-title';
import { useSession } from '../../../../lib/session';

export const Route = createFileRoute('/_authed/settings/privacy-requests/')({
  // Every bad value in a shared link falls back to its default; defaults stay out of the URL.
  validateSearch: validatePrivacyRequestSearch,
  search: { middlewares: [stripSearchParams(privacyRequestSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    // Loaders stay in the entry chunk the login page loads too; the feature's api module comes with the page's own.
    const { canManagePrivacyRequests, privacyRequestListQueryOptions } = await import(
      '../../../../features/privacy-requests/api'
    );
    const membership = context.session.get().currentMembership;
    if (!membership || !canManagePrivacyRequests(membership)) return;
    // Starts the read without waiting: the page shows at once with a skeleton; a failed read shows inside it.
    void context.queryClient
      .ensureQueryData(privacyRequestListQueryOptions(context.api, membership.account.id, deps))
      .catch(() => undefined);
  },
  component: PrivacyRequestsPage,
});

function NoMembership() {
  usePageTitle('Privacy requests');
  return <NoMembershipAlert />;
}

/** Issue #37: owners only (the log names requesters and their identifiers). A member gets the permission screen. */
function PrivacyRequestsPage() {
  const { currentMembership } = useSession();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<PrivacyRequestSearch>, options: { replace?: boolean } = {}) =>
      void navigate({
        search: (previous: PrivacyRequestSearch) => ({ ...previous, ...patch }),
        replace: options.replace ?? false,
      }),
    [navigate],
  );
  if (!currentMembership) return <NoMembership />;
  if (!canManagePrivacyRequests(currentMembership)) return <ForbiddenScreen />;
  return (
    <PrivacyRequests
      key={currentMembership.account.id}
      membership={currentMembership}
      search={search}
      onSearch={onSearch}
    />
  );
}

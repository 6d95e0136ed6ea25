import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import type { LegalHoldSearch } from '@veriform/contracts';
import { useCallback } from 'react';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import {
  canReadLegalHolds,
  legalHoldSearchDefaults,
  validateLegalHoldSearch,
} from '../../../features/legal-holds/access';
import { LegalHolds } from '../../../features/legal-holds/components/LegalHolds';
import { usePageTitle } from '../../../lib/page-title';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/settings/legal-holds')({
  // Every bad value in a shared link falls back to its default; defaults stay out of the URL.
  validateSearch: validateLegalHoldSearch,
  search: { middlewares: [stripSearchParams(legalHoldSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    // Loaders stay in the entry chunk the login page loads too; the feature's api module comes with the page's own.
    const { canReadLegalHolds, legalHoldListQueryOptions } = await import(
      '../../../features/legal-holds/api'
    );
    const membership = context.session.get().currentMembership;
    if (!membership || !canReadLegalHolds(membership)) return;
    // Starts the read without waiting: the page shows at once with a skeleton; a failed read shows inside it.
    void context.queryClient
      .ensureQueryData(legalHoldListQueryOptions(context.api, membership.account.id, deps))
      .catch(() => undefined);
  },
  component: LegalHoldsPage,
});

function NoMembership() {
  usePageTitle('Legal holds');
  return <NoMembershipAlert />;
}

/** Issue #37: owners place and release holds; members who may search the account's data read them; others 403. */
function LegalHoldsPage() {
  const { currentMembership } = useSession();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<LegalHoldSearch>, options: { replace?: boolean } = {}) =>
      void navigate({
        search: (previous: LegalHoldSearch) => ({ ...previous, ...patch }),
        replace: options.replace ?? false,
      }),
    [navigate],
  );
  if (!currentMembership) return <NoMembership />;
  if (!canReadLegalHolds(currentMembership)) return <ForbiddenScreen />;
  return (
    <LegalHolds
      key={currentMembership.account.id}
      membership={currentMembership}
      search={search}
      onSearch={onSearch}
    />
  );
}

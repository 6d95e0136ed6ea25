import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenScreen } from '../../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../../components/errors/NoMembershipAlert';
import { canManagePrivacyRequests } from '../../../../features/privacy-requests/api';
import { PrivacyRequestDetail } from '../../../../features/privacy-requests/components/PrivacyRequestDetail';
import { NotFoundError } from '../../../../lib/api-client';
import { usePageTitle } from '../../../../lib/page-title';
import { useSession } from '../../../../lib/session';

export const Route = createFileRoute('/_authed/settings/privacy-requests/$requestId')({
  loader: async ({ context, params }) => {
    // Loaders stay in the entry chunk the login page loads too; the feature's api module comes with the page's own.
    const { canManagePrivacyRequests, isPrivacyRequestId, privacyRequestQueryOptions } = await import(
      '../../../../features/privacy-requests/api'
    );
    const membership = context.session.get().currentMembership;
    if (!membership || !canManagePrivacyRequests(membership)) return;
    // A malformed id is not found without asking, as another account's (404) is.
    if (!isPrivacyRequestId(params.requestId)) throw new NotFoundError(undefined);
    // Starts the read without waiting: the page shows at once with a skeleton; a failed read shows inside it.
    void context.queryClient
      .ensureQueryData(privacyRequestQueryOptions(context.api, membership.account.id, params.requestId))
      .catch(() => undefined);
  },
  component: PrivacyRequestPage,
});

function NoMembership() {
  usePageTitle('Privacy request');
  return <NoMembershipAlert />;
}

function PrivacyRequestPage() {
  const { currentMembership } = useSession();
  const { requestId } = Route.useParams();
  if (!currentMembership) return <NoMembership />;
  if (!canManagePrivacyRequests(currentMembership)) return <ForbiddenScreen />;
  return (
    <PrivacyRequestDetail
      key={`${currentMembership.account.id}-${requestId}`}
      membership={currentMembership}
      requestId={requestId}
    />
  );
}

import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenScreen } from '../../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../../components/errors/NoMembershipAlert';
import { canManageWebhooks } from '../../../../features/webhooks/api';
import { Webhooks } from '../../../../features/webhooks/components/Webhooks';
import { usePageTitle } from '../../../../lib/page-title';
import { useSession } from '../../../../lib/session';

export const Route = createFileRoute('/_authed/settings/webhooks/')({
  loader: async ({ context }) => {
    // Loaders stay in the entry chunk the login page loads too; the feature's api module comes with the page's own.
    const { canManageWebhooks, webhookEndpointsQueryOptions } = await import(
      '../../../../features/webhooks/api'
    );
    const membership = context.session.get().currentMembership;
    if (!membership || !canManageWebhooks(membership)) return;
    // Starts the read without waiting: the page shows at once with a skeleton; a failed read shows inside it.
    void context.queryClient
      .ensureQueryData(webhookEndpointsQueryOptions(context.api, membership.account.id))
      .catch(() => undefined);
  },
  component: WebhooksPage,
});

function NoMembership() {
  usePageTitle('Webhooks');
  return <NoMembershipAlert />;
}

/** Issue #17: owners only. A member who types the address gets the permission screen, as on API keys. */
function WebhooksPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembership />;
  if (!canManageWebhooks(currentMembership)) return <ForbiddenScreen />;
  return <Webhooks key={currentMembership.account.id} membership={currentMembership} />;
}

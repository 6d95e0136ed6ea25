import { Skeleton, Stack } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenScreen } from '../../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../../components/errors/NoMembershipAlert';
import { canManageWebhooks } from '../../../../features/webhooks/api';
import { EndpointDetail } from '../../../../features/webhooks/components/EndpointDetail';
import { NotFoundError } from '../../../../lib/api-client';
import { usePageTitle } from '../../../../lib/page-title';
import { useSession } from '../../../../lib/session';

/** A path id the API could know; anything else is simply not found. */
function parseEndpointId(raw: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2147483647 ? id : null;
}

export const Route = createFileRoute('/_authed/settings/webhooks/$endpointId')({
  loader: async ({ context, params }) => {
    // Loaders stay in the entry chunk the login page loads too; the feature's api module comes with the page's own.
    const { canManageWebhooks, webhookDeliveriesQueryOptions, webhookEndpointQueryOptions } = await import(
      '../../../../features/webhooks/api'
    );
    const membership = context.session.get().currentMembership;
    if (!membership || !canManageWebhooks(membership)) return;
    const id = parseEndpointId(params.endpointId);
    // Another account's endpoint answers 404 like an unknown one; both show the not-found screen, as a malformed id
    // does.
    if (id === null) throw new NotFoundError(undefined);
    void context.queryClient
      .prefetchInfiniteQuery(webhookDeliveriesQueryOptions(context.api, membership.account.id, id))
      .catch(() => undefined);
    await context.queryClient.ensureQueryData(
      webhookEndpointQueryOptions(context.api, membership.account.id, id),
    );
  },
  pendingComponent: () => (
    <Stack gap="md" role="group" aria-busy="true" aria-label="Loading webhook endpoint">
      <Skeleton height={160} radius="md" />
      <Skeleton height={240} radius="md" />
    </Stack>
  ),
  component: EndpointPage,
});

function NoMembership() {
  usePageTitle('Webhook endpoint');
  return <NoMembershipAlert />;
}

function EndpointPage() {
  const { currentMembership } = useSession();
  const { endpointId } = Route.useParams();
  const id = parseEndpointId(endpointId);
  if (!currentMembership) return <NoMembership />;
  if (!canManageWebhooks(currentMembership) || id === null) return <ForbiddenScreen />;
  return (
    <EndpointDetail
      key={`${currentMembership.account.id}-${id}`}
      membership={currentMembership}
      endpointId={id}
    />
  );
}

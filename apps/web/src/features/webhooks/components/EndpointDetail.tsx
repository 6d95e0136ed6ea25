import { Box, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconEye,
  IconHistory,
  IconKey,
  IconPencil,
  IconReload,
  IconSend,
  IconTrash,
  IconWebhook,
} from '@tabler/icons-react';
import { useInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { Membership, WebhookDelivery, WebhookDeliveryList } from '@veriform/contracts';
import { type ReactNode, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { RetryAlert } from '../../../components/errors/RetryAlert';
import { DetailField } from '../../../components/layout/DetailField';
import { EmptyState } from '../../../components/layout/EmptyState';
import { SectionPaper } from '../../../components/layout/SectionCard';
import { AnchorLink } from '../../../components/links';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/page-title';
import { useServices } from '../../../lib/services';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import {
  useDeleteWebhookEndpointMutation,
  useReplayWebhookEventMutation,
  useSendWebhookTestMutation,
  useUpdateWebhookEndpointMutation,
  webhookDeliveriesQueryOptions,
  webhookEndpointQueryOptions,
} from '../api';
import { eventTypeLabel } from '../labels';
import { DeliveryList, DeliveryListSkeleton, LatestDeliveryStatus } from './DeliveryList';
import { EndpointFormModal } from './EndpointFormModal';
import { CreatedBy, EndpointStatus, EventTypes, SecretPreview } from './EndpointParts';
import { ReplayFailedModal } from './ReplayFailedModal';
import { RotateSecretModal } from './RotateSecretModal';
import { SecretModal } from './SecretModal';

/** How often the deliveries are read again while one is still on its way. */
export const DELIVERY_POLL_MS = 3000;

export const NO_DELIVERIES_TEXT = 'No deliveries yet — send a test event to see one arrive.';

const inFlight = (pages: WebhookDeliveryList[] | undefined) =>
  pages?.some((page) => page.results.some((d) => d.status === 'pending' || d.status === 'retrying')) ?? false;

type Dialog = 'edit' | 'delete' | 'secret' | 'rotate' | 'replay-failed' | null;

const fieldGrid = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 220px), 1fr))',
  gap: 'var(--mantine-spacing-sm) var(--mantine-spacing-md)',
  margin: 0,
} as const;

/**
 * One endpoint (issue #17 item 5): its settings with edit, enable/disable, delete, the secret (reveal, rotate), and its
 * recent deliveries with their attempts, a test event and replays. The route loaded the endpoint before showing this.
 */
export function EndpointDetail({ membership, endpointId }: { membership: Membership; endpointId: number }) {
  const accountId = membership.account.id;
  const { api } = useServices();
  const navigate = useNavigate();
  const { data: endpoint } = useSuspenseQuery(webhookEndpointQueryOptions(api, accountId, endpointId));
  const deliveries = useInfiniteQuery({
    ...webhookDeliveriesQueryOptions(api, accountId, endpointId),
    refetchInterval: (query) => (inFlight(query.state.data?.pages) ? DELIVERY_POLL_MS : false),
  });
  const update = useUpdateWebhookEndpointMutation(accountId);
  const remove = useDeleteWebhookEndpointMutation(accountId);
  const sendTest = useSendWebhookTestMutation(accountId);
  const replay = useReplayWebhookEventMutation(accountId, endpointId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [replaying, setReplaying] = useState<string | null>(null);
  // Only a read the person asked for spins the button (not the polling of a pending delivery).
  const [refreshing, setRefreshing] = useState(false);
  usePageTitle('Webhook endpoint');
  // Arriving from the list or from Add endpoint (whose button is gone), the keyboard starts at the endpoint.
  const headingRef = useFocusOnMount<HTMLHeadingElement>();

  const toggle = (enabled: boolean) =>
    update.mutate(
      { id: endpoint.id, body: { enabled } },
      {
        onSuccess: () =>
          notify.success(
            enabled ? 'Endpoint enabled' : 'Endpoint disabled',
            enabled ? 'Events are sent to it again.' : 'Nothing is sent to it until it is enabled.',
          ),
        onError: (failure) => notify.error('Failed to change the endpoint', errorDisplayText(failure)),
      },
    );

  const confirmDelete = () =>
    remove.mutate(endpoint.id, {
      onSuccess: () => {
        notify.success('Endpoint deleted', endpoint.url);
        void navigate({ to: '/settings/webhooks' });
      },
      onError: (failure) => notify.error('Failed to delete the endpoint', errorDisplayText(failure)),
      onSettled: () => setDialog(null),
    });

  const test = () =>
    sendTest.mutate(endpoint.id, {
      onSuccess: (delivery) =>
        notify.success(
          'Test event sent',
          `Event ${delivery.eventId} is on its way; its delivery shows below.`,
        ),
      onError: (failure) => notify.error('Failed to send a test event', errorDisplayText(failure)),
    });

  const replayOne = (delivery: WebhookDelivery) => {
    setReplaying(delivery.eventId);
    replay.mutate(delivery.eventId, {
      onSuccess: () =>
        notify.success(
          'Replay queued',
          `${eventTypeLabel(delivery.eventType)} ${delivery.eventId} is sent again.`,
        ),
      onError: (failure) => notify.error('Failed to replay the event', errorDisplayText(failure)),
      onSettled: () => setReplaying(null),
    });
  };

  const refresh = () => {
    setRefreshing(true);
    void deliveries
      .refetch()
      .then((result) => {
        if (result.isError)
          notify.error('The deliveries could not be refreshed', errorDisplayText(result.error));
      })
      .finally(() => setRefreshing(false));
  };

  const all = deliveries.data?.pages.flatMap((page) => page.results) ?? [];
  let deliveryBody: ReactNode;
  if (deliveries.isPending) deliveryBody = <DeliveryListSkeleton />;
  else if (deliveries.isError && all.length === 0)
    deliveryBody = (
      <RetryAlert
        title="The deliveries could not be loaded"
        error={deliveries.error}
        onRetry={deliveries.refetch}
        retrying={deliveries.isFetching}
      />
    );
  else if (all.length === 0) deliveryBody = <EmptyState icon={<IconWebhook />} title={NO_DELIVERIES_TEXT} />;
  else
    deliveryBody = (
      <>
        <DeliveryList deliveries={all} onReplay={replayOne} replayingEventId={replaying} />
        {deliveries.hasNextPage && (
          <Button
            variant="default"
            onClick={() => void deliveries.fetchNextPage()}
            loading={deliveries.isFetchingNextPage}
            style={{ alignSelf: 'center' }}
          >
            Load more
          </Button>
        )}
      </>
    );

  return (
    <Stack gap="md" maw={1100}>
      <AnchorLink
        to="/settings/webhooks"
        size="sm"
        display="inline-flex"
        style={{ alignItems: 'center', gap: 4 }}
      >
        <IconArrowLeft size={16} aria-hidden="true" />
        Webhooks
      </AnchorLink>
      <SectionPaper aria-labelledby="endpoint-heading">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 260px' }}>
              <Title
                ref={headingRef}
                tabIndex={-1}
                order={2}
                size="h4"
                id="endpoint-heading"
                ff="monospace"
                style={{ overflowWrap: 'anywhere' }}
              >
                {endpoint.url}
              </Title>
              {endpoint.description && (
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {endpoint.description}
                </Text>
              )}
            </Stack>
            <Group gap="xs" wrap="wrap">
              <Button
                variant="default"
                size="sm"
                leftSection={<IconPencil size={16} aria-hidden="true" />}
                onClick={() => setDialog('edit')}
              >
                Edit
              </Button>
              <Button
                variant="subtle"
                color="red"
                size="sm"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                onClick={() => setDialog('delete')}
              >
                Delete
              </Button>
            </Group>
          </Group>
          <Switch
            label="Enabled"
            description={
              endpoint.enabled
                ? 'Events it wants are sent to it.'
                : 'Nothing is sent to it; events it missed stay replayable.'
            }
            checked={endpoint.enabled}
            disabled={update.isPending}
            onChange={(event) => toggle(event.currentTarget.checked)}
          />
          <Box component="dl" style={fieldGrid}>
            <DetailField label="Status">
              <EndpointStatus endpoint={endpoint} />
            </DetailField>
            <DetailField label="Events">
              <EventTypes types={endpoint.eventTypes} />
            </DetailField>
            <DetailField label="Created">
              <Text span size="sm">
                <time dateTime={endpoint.created}>{formatDateTime(endpoint.created)}</time>
              </Text>
            </DetailField>
            <DetailField label="Created by">
              <CreatedBy endpoint={endpoint} />
            </DetailField>
            <DetailField label="Signing secret">
              <Stack gap={6} align="flex-start">
                <SecretPreview endpoint={endpoint} />
                <Group gap="xs" wrap="wrap">
                  <Button
                    variant="light"
                    size="xs"
                    leftSection={<IconEye size={14} aria-hidden="true" />}
                    onClick={() => setDialog('secret')}
                  >
                    Reveal secret
                  </Button>
                  <Button
                    variant="default"
                    size="xs"
                    leftSection={<IconKey size={14} aria-hidden="true" />}
                    onClick={() => setDialog('rotate')}
                  >
                    Rotate secret
                  </Button>
                </Group>
              </Stack>
            </DetailField>
          </Box>
        </Stack>
      </SectionPaper>

      <SectionPaper aria-labelledby="deliveries-heading">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
            <div>
              <Title order={3} size="h5" id="deliveries-heading">
                Recent deliveries
              </Title>
              <Text size="sm" c="dimmed">
                Newest first, each with its attempts. Failed deliveries are retried for about 3 days.
              </Text>
            </div>
            <Group gap="xs" wrap="wrap">
              <Button
                variant="default"
                leftSection={<IconReload size={16} aria-hidden="true" />}
                aria-label="Refresh deliveries"
                onClick={refresh}
                loading={refreshing}
                disabled={deliveries.isPending}
              >
                Refresh
              </Button>
              <Button
                leftSection={<IconSend size={16} aria-hidden="true" />}
                onClick={test}
                loading={sendTest.isPending}
              >
                Send test event
              </Button>
              <Button
                variant="default"
                leftSection={<IconHistory size={16} aria-hidden="true" />}
                onClick={() => setDialog('replay-failed')}
              >
                Replay failed events
              </Button>
            </Group>
          </Group>
          <LatestDeliveryStatus latest={all[0]} />
          {deliveryBody}
        </Stack>
      </SectionPaper>

      {dialog === 'edit' && (
        <EndpointFormModal
          accountId={accountId}
          endpoint={endpoint}
          opened
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            notify.success('Endpoint saved');
          }}
        />
      )}
      {dialog === 'secret' && <SecretModal endpointId={endpoint.id} onClose={() => setDialog(null)} />}
      {dialog === 'rotate' && (
        <RotateSecretModal accountId={accountId} endpoint={endpoint} onClose={() => setDialog(null)} />
      )}
      {dialog === 'replay-failed' && (
        <ReplayFailedModal accountId={accountId} endpointId={endpoint.id} onClose={() => setDialog(null)} />
      )}
      <ConfirmModal
        opened={dialog === 'delete'}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        onConfirm={confirmDelete}
        onCancel={() => setDialog(null)}
        loading={remove.isPending}
      >
        Nothing more is sent to {endpoint.url}, and its delivery history goes with it. This can’t be undone.
      </ConfirmModal>
    </Stack>
  );
}

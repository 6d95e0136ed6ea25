import { Badge, Box, Button, Code, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { WebhookDelivery, WebhookDeliveryAttempt } from '@veriform/contracts';
import { CardList } from '../../../components/data-list/DataList';
import { BarsSkeleton } from '../../../components/data-list/ListSkeleton';
import { formatDateTime } from '../../../lib/format';
import {
  attemptOutcome,
  deliveryStatusColors,
  deliveryStatusLabels,
  eventTypeLabel,
  triggerLabels,
} from '../labels';

export function DeliveryStatusBadge({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={deliveryStatusColors[delivery.status]}
      c="dark.6"
      style={{ flexShrink: 0 }}
    >
      {deliveryStatusLabels[delivery.status]}
    </Badge>
  );
}

function Attempt({ attempt, number }: { attempt: WebhookDeliveryAttempt; number: number }) {
  return (
    <Box component="li" style={{ minWidth: 0 }}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          Attempt {number}
        </Text>
        <Text size="sm" c="dimmed">
          <time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time>
        </Text>
        <Text size="sm" ff="monospace" aria-label={`Response: ${attemptOutcome(attempt)}`}>
          {attemptOutcome(attempt)}
        </Text>
        <Text size="sm" c="dimmed">
          {attempt.latencyMs} ms
        </Text>
        <Text size="xs" c="dimmed">
          {triggerLabels[attempt.trigger]}
        </Text>
      </Group>
      {attempt.responseSnippet && (
        <Code
          block
          component="pre"
          mt={4}
          aria-label={`Response body of attempt ${number}`}
          style={{ maxHeight: 160, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {attempt.responseSnippet}
        </Code>
      )}
    </Box>
  );
}

function Delivery({
  delivery,
  onReplay,
  replaying,
}: {
  delivery: WebhookDelivery;
  onReplay: (delivery: WebhookDelivery) => void;
  replaying: boolean;
}) {
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      aria-label={`${eventTypeLabel(delivery.eventType)} ${delivery.eventId}`}
    >
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap" mb="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {eventTypeLabel(delivery.eventType)}
            </Text>
            <DeliveryStatusBadge delivery={delivery} />
          </Group>
          <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {delivery.eventType} · {delivery.eventId}
          </Text>
          <Text size="xs" c="dimmed">
            <time dateTime={delivery.created}>{formatDateTime(delivery.created)}</time>
            {delivery.nextAttemptAt && (
              <>
                {' '}
                · next attempt{' '}
                <time dateTime={delivery.nextAttemptAt}>{formatDateTime(delivery.nextAttemptAt)}</time>
              </>
            )}
          </Text>
        </Stack>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} aria-hidden="true" />}
          aria-label={`Replay ${delivery.eventId}`}
          onClick={() => onReplay(delivery)}
          loading={replaying}
          style={{ flexShrink: 0 }}
        >
          Replay
        </Button>
      </Group>
      {delivery.attempts.length === 0 ? (
        <Text size="sm" c="dimmed">
          Not attempted yet.
        </Text>
      ) : (
        <Stack
          component="ol"
          gap="xs"
          p={0}
          m={0}
          role="list"
          aria-label={`Attempts of ${delivery.eventId}`}
          style={{ listStyle: 'none' }}
        >
          {delivery.attempts.map((attempt, i) => (
            <Attempt key={`${attempt.at}-${attempt.trigger}`} attempt={attempt} number={i + 1} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** Recent deliveries, newest first, each with its attempts oldest first. */
export function DeliveryList({
  deliveries,
  onReplay,
  replayingEventId,
}: {
  deliveries: WebhookDelivery[];
  onReplay: (delivery: WebhookDelivery) => void;
  replayingEventId: string | null;
}) {
  return (
    <CardList label="Deliveries">
      {deliveries.map((delivery) => (
        <Delivery
          key={delivery.eventId}
          delivery={delivery}
          onReplay={onReplay}
          replaying={replayingEventId === delivery.eventId}
        />
      ))}
    </CardList>
  );
}

/**
 * What changes while the page polls, said for screen readers: the newest delivery's status. Rendered before there is
 * anything to say, so the first change is announced.
 */
export function LatestDeliveryStatus({ latest }: { latest: WebhookDelivery | undefined }) {
  return (
    <VisuallyHidden role="status" aria-live="polite">
      {latest
        ? `Latest delivery: ${eventTypeLabel(latest.eventType)}, ${deliveryStatusLabels[latest.status]}`
        : ''}
    </VisuallyHidden>
  );
}

export function DeliveryListSkeleton() {
  return <BarsSkeleton label="Loading deliveries" rows={2} height={72} radius="md" />;
}

import { Alert, Anchor, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconPlus, IconWebhook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { MAX_WEBHOOK_ENDPOINTS, type Membership } from '@veriform/contracts';
import { type ReactNode, useState } from 'react';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { EmptyState } from '../../../components/layout/EmptyState';
import { PermissionDeniedError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/page-title';
import { useServices } from '../../../lib/services';
import { webhookEndpointsQueryOptions } from '../api';
import { EndpointFormModal } from './EndpointFormModal';
import { EndpointList, EndpointListSkeleton } from './EndpointList';

/** Where receivers learn to verify a delivery (served by the server, outside this app's routes). */
export const API_DOCS_PATH = '/docs/api';

export const EMPTY_TEXT =
  'Add one and Veriform tells your own systems the moment something happens: a number verified, a code sent, a form changed. Each delivery is signed, retried for about 3 days, and can be replayed.';

/**
 * Settings → Webhooks (issue #17; owners only, the route checks): the account's endpoints, and adding one. Each
 * endpoint's page holds its settings, secret and deliveries.
 */
export function Webhooks({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  const { api } = useServices();
  const navigate = useNavigate();
  const {
    data: endpoints,
    error,
    isPending,
    refetch,
    isFetching,
  } = useQuery(webhookEndpointsQueryOptions(api, accountId));
  const [adding, setAdding] = useState(false);
  const forbidden = error instanceof PermissionDeniedError;
  usePageTitle(forbidden ? 'Access denied' : 'Webhooks');

  if (forbidden) return <ForbiddenScreen />;

  const full = (endpoints?.length ?? 0) >= MAX_WEBHOOK_ENDPOINTS;
  const addButton = (
    <Button
      leftSection={<IconPlus size={16} aria-hidden="true" />}
      onClick={() => setAdding(true)}
      disabled={full}
    >
      Add endpoint
    </Button>
  );

  let body: ReactNode;
  if (isPending) body = <EndpointListSkeleton />;
  else if (!endpoints)
    body = (
      <Alert
        color="red"
        icon={<IconAlertCircle aria-hidden="true" />}
        role="alert"
        title="The webhook endpoints could not be loaded"
      >
        <Group gap="sm" wrap="wrap">
          <span>{errorDisplayText(error)}</span>
          <Button variant="default" size="compact-sm" onClick={() => void refetch()} loading={isFetching}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  else if (endpoints.length === 0)
    body = (
      <EmptyState icon={<IconWebhook />} title="No endpoints yet">
        {EMPTY_TEXT}
        <Box component="span" display="block" mt="md">
          {addButton}
        </Box>
      </EmptyState>
    );
  else body = <EndpointList endpoints={endpoints} />;

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={2} size="h4">
            Webhooks
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            Events of {membership.account.displayName}, sent to your endpoints as they happen and signed the
            Standard Webhooks way. The{' '}
            <Anchor href={API_DOCS_PATH} inherit underline="always">
              API reference
            </Anchor>{' '}
            shows how to verify them.
          </Text>
        </div>
        {endpoints && endpoints.length > 0 && addButton}
      </Group>
      {full && (
        <Text size="sm" c="dimmed">
          An account can have at most {MAX_WEBHOOK_ENDPOINTS} endpoints; delete one to add another.
        </Text>
      )}
      {body}
      {adding && (
        <EndpointFormModal
          accountId={accountId}
          opened
          onClose={() => setAdding(false)}
          onSaved={(endpoint) => {
            setAdding(false);
            notify.success('Endpoint added', endpoint.url);
            void navigate({
              to: '/settings/webhooks/$endpointId',
              params: { endpointId: String(endpoint.id) },
            });
          }}
        />
      )}
    </Stack>
  );
}

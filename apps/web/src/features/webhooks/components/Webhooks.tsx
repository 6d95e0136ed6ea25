import { Anchor, Button, Text } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { MAX_WEBHOOK_ENDPOINTS, type Membership } from '@veriform/contracts';
import { useState } from 'react';
import { ListSection } from '../../../components/data-list/ListSection';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { PermissionDeniedError } from '../../../lib/api-client';
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
  const query = useQuery(webhookEndpointsQueryOptions(api, accountId));
  const endpoints = query.data;
  const [adding, setAdding] = useState(false);
  const forbidden = query.error instanceof PermissionDeniedError;
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

  return (
    <ListSection
      title="Webhooks"
      description={
        <>
          Events of {membership.account.displayName}, sent to your endpoints as they happen and signed the
          Standard Webhooks way. The{' '}
          <Anchor href={API_DOCS_PATH} inherit underline="always">
            API reference
          </Anchor>{' '}
          shows how to verify them.
        </>
      }
      action={addButton}
      notice={
        full && (
          <Text size="sm" c="dimmed">
            An account can have at most {MAX_WEBHOOK_ENDPOINTS} endpoints; delete one to add another.
          </Text>
        )
      }
      query={query}
      skeleton={<EndpointListSkeleton />}
      errorTitle="The webhook endpoints could not be loaded"
      empty={{ icon: <IconWebhook />, title: 'No endpoints yet', text: EMPTY_TEXT }}
      list={(rows) => <EndpointList endpoints={rows} />}
    >
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
    </ListSection>
  );
}

import { Alert, Anchor, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertCircle, IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ApiKey, CreatedApiKey, Membership } from '@veriform/contracts';
import { type ReactNode, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { EmptyState } from '../../../components/layout/EmptyState';
import { PermissionDeniedError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/page-title';
import { useServices } from '../../../lib/services';
import { apiKeysQueryOptions, useRevokeApiKeyMutation } from '../api';
import { ApiKeyList, ApiKeyListSkeleton } from './ApiKeyList';
import { CreateApiKeyModal } from './CreateApiKeyModal';
import { NewApiKeyModal } from './NewApiKeyModal';

/** Where the API is documented (served by the server, outside this app's routes). */
export const API_DOCS_PATH = '/docs/api';

export const EMPTY_TEXT =
  'API keys let your own systems (a CRM, a lead form, a call-center tool) start and check verifications through the Veriform API. Start with a test key: it reaches only your test numbers and sends nothing.';

/**
 * Settings → API keys (issue #15; owners only, the route checks): the account's keys, creating one (its secret shown
 * once) and revoking one.
 */
export function ApiKeys({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  const { api } = useServices();
  const { data: keys, error, isPending, refetch, isFetching } = useQuery(apiKeysQueryOptions(api, accountId));
  const [createOpened, createDialog] = useDisclosure(false);
  // The one place the secret lives, until Done.
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const revoke = useRevokeApiKeyMutation(accountId);
  const forbidden = error instanceof PermissionDeniedError;
  usePageTitle(forbidden ? 'Access denied' : 'API keys');
  const [toRevoke, setToRevoke] = useState<ApiKey | null>(null);

  const confirmRevoke = () => {
    if (!toRevoke) return;
    const name = toRevoke.name;
    revoke.mutate(toRevoke.id, {
      onSuccess: () => notify.success('API key revoked', `“${name}” no longer works.`),
      onError: (failure) => notify.error('Failed to revoke the API key', errorDisplayText(failure)),
      onSettled: () => setToRevoke(null),
    });
  };

  // A role changed meanwhile (no longer an owner): the page says so as other pages do.
  if (forbidden) return <ForbiddenScreen />;

  const createButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={createDialog.open}>
      Create API key
    </Button>
  );

  let body: ReactNode;
  if (isPending) body = <ApiKeyListSkeleton />;
  else if (!keys)
    body = (
      <Alert
        color="red"
        icon={<IconAlertCircle aria-hidden="true" />}
        role="alert"
        title="The API keys could not be loaded"
      >
        <Group gap="sm" wrap="wrap">
          <span>{errorDisplayText(error)}</span>
          <Button variant="default" size="compact-sm" onClick={() => void refetch()} loading={isFetching}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  else if (keys.length === 0)
    body = (
      <EmptyState icon={<IconKey />} title="No API keys yet">
        {EMPTY_TEXT}
        <Box component="span" display="block" mt="md">
          {createButton}
        </Box>
      </EmptyState>
    );
  else body = <ApiKeyList keys={keys} onRevoke={setToRevoke} />;

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={2} size="h4">
            API keys
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            Keys act on {membership.account.displayName} only, with the scopes you give them. Read the{' '}
            <Anchor href={API_DOCS_PATH} inherit underline="always">
              API reference
            </Anchor>{' '}
            to start.
          </Text>
        </div>
        {keys && keys.length > 0 && createButton}
      </Group>
      {body}
      <CreateApiKeyModal
        accountId={accountId}
        opened={createOpened}
        onClose={createDialog.close}
        onCreated={(key) => {
          createDialog.close();
          setCreated(key);
        }}
      />
      <NewApiKeyModal created={created} onDone={() => setCreated(null)} />
      <ConfirmModal
        opened={toRevoke !== null}
        title={toRevoke ? `Revoke “${toRevoke.name}”?` : ''}
        confirmLabel="Revoke key"
        onConfirm={confirmRevoke}
        onCancel={() => setToRevoke(null)}
        loading={revoke.isPending}
      >
        Requests using it will fail at once. This can’t be undone.
      </ConfirmModal>
    </Stack>
  );
}

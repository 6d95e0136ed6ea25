import { Anchor, Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ApiKey, CreatedApiKey, Membership } from '@veriform/contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { ListSection } from '../../../components/data-list/ListSection';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
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
  const query = useQuery(apiKeysQueryOptions(api, accountId));
  const [createOpened, createDialog] = useDisclosure(false);
  // The one place the secret lives, until Done.
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const revoke = useRevokeApiKeyMutation(accountId);
  const forbidden = query.error instanceof PermissionDeniedError;
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

  return (
    <ListSection
      title="API keys"
      description={
        <>
          Keys act on {membership.account.displayName} only, with the scopes you give them. Read the{' '}
          <Anchor href={API_DOCS_PATH} inherit underline="always">
            API reference
          </Anchor>{' '}
          to start.
        </>
      }
      action={createButton}
      query={query}
      skeleton={<ApiKeyListSkeleton />}
      errorTitle="The API keys could not be loaded"
      empty={{ icon: <IconKey />, title: 'No API keys yet', text: EMPTY_TEXT }}
      list={(keys) => <ApiKeyList keys={keys} onRevoke={setToRevoke} />}
    >
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
    </ListSection>
  );
}

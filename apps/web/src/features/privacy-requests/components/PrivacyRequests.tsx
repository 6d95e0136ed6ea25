import { Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  type Membership,
  PRIVACY_REQUEST_PAGE_SIZE_MAX,
  type PrivacyRequestFilter,
  type PrivacyRequestSearch,
  privacyRequestFilters,
} from '@veriform/contracts';
import { useState } from 'react';
import { ListStates } from '../../../components/data-list/ListStates';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { PermissionDeniedError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/page-title';
import { useServices } from '../../../lib/services';
import { privacyRequestKeys, privacyRequestListQueryOptions } from '../api';
import { privacyRequestFilterLabels, privacyRequestTypeLabels } from '../labels';
import { FileRequestModal } from './FileRequestModal';
import { PrivacyRequestList, PrivacyRequestListSkeleton } from './PrivacyRequestList';

export const NO_REQUESTS = 'No privacy requests yet';
export const NO_MATCH = 'No requests with this status';

const pageSizes = [10, 25, 50, PRIVACY_REQUEST_PAGE_SIZE_MAX] as const;

const statusOptions = [
  { value: '', label: 'Every status' },
  ...privacyRequestFilters.map((status) => ({ value: status, label: privacyRequestFilterLabels[status] })),
];
const isFilter = (value: string): value is PrivacyRequestFilter =>
  (privacyRequestFilters as readonly string[]).includes(value);

export interface PrivacyRequestsProps {
  membership: Membership;
  search: PrivacyRequestSearch;
  /** Merges a patch into the URL's search params; `replace` for filters, a new history entry for pages. */
  onSearch: (patch: Partial<PrivacyRequestSearch>, options?: { replace?: boolean }) => void;
}

/**
 * Settings → Privacy requests (issue #37 item 3; owners only, the route checks): every data-subject request filed, the
 * newest received first, with its due date (overdue said in words), filtered by status; filing one opens its page.
 */
export function PrivacyRequests({ membership, search, onSearch }: PrivacyRequestsProps) {
  const accountId = membership.account.id;
  const { api } = useServices();
  const navigate = useNavigate();
  const [filing, setFiling] = useState(false);
  const query = useQuery({
    ...privacyRequestListQueryOptions(api, accountId, search),
    // While another page or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === privacyRequestKeys.all(accountId)[1] ? previous : undefined,
  });
  const forbidden = query.error instanceof PermissionDeniedError;
  usePageTitle(forbidden ? 'Access denied' : 'Privacy requests');
  if (forbidden) return <ForbiddenScreen />;

  const { data, isPlaceholderData } = query;
  const never = data !== undefined && data.count === 0 && search.status === undefined && !isPlaceholderData;
  const fileButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setFiling(true)}>
      File a request
    </Button>
  );

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={2} size="h4">
            Privacy requests
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            Requests to see, erase or restrict what {membership.account.displayName} keeps about a person’s
            numbers and addresses, each with the date the law says it must be answered by. Evidence under a
            legal hold is never erased: it is restricted, and the answer says why.
          </Text>
        </div>
        {fileButton}
      </Group>
      {!never && (
        <Group align="flex-end" gap="sm" wrap="wrap" role="search" aria-label="Filter privacy requests">
          <NativeSelect
            label="Status"
            data={statusOptions}
            value={search.status ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              onSearch({ status: isFilter(value) ? value : undefined, pageNumber: 1 }, { replace: true });
            }}
          />
        </Group>
      )}
      <ListStates
        query={query}
        skeleton={<PrivacyRequestListSkeleton />}
        icon={<IconShieldLock />}
        errorTitle="The privacy requests could not be loaded"
        retrying={query.isFetching}
        never={
          never
            ? {
                title: NO_REQUESTS,
                text: 'When a person asks what you keep about them, or asks you to erase it, file their request here: it is answered in one step, on time.',
              }
            : undefined
        }
        noMatch={{
          title: NO_MATCH,
          text: 'Choose another status, or every status.',
          onClear: () => onSearch({ status: undefined, pageNumber: 1 }, { replace: true }),
        }}
        rowsNoun="privacy requests"
        pager={{
          pageNumber: search.pageNumber,
          pageSize: search.pageSize,
          pageSizes,
          onPage: (pageNumber) => onSearch({ pageNumber }),
          onPageSize: (pageSize) => onSearch({ pageSize, pageNumber: 1 }),
        }}
      >
        {(requests, busy) => <PrivacyRequestList requests={requests} busy={busy} />}
      </ListStates>
      <FileRequestModal
        accountId={accountId}
        opened={filing}
        onClose={() => setFiling(false)}
        onFiled={(request) => {
          setFiling(false);
          notify.success(
            'Request filed',
            `${privacyRequestTypeLabels[request.type]} request of ${request.requester.name}`,
          );
          void navigate({ to: '/settings/privacy-requests/$requestId', params: { requestId: request.id } });
        }}
      />
    </Stack>
  );
}

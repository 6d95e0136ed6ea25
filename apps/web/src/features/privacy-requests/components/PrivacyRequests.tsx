import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  type Membership,
  PRIVACY_REQUEST_PAGE_SIZE_MAX,
  type PrivacyRequestSearch,
  privacyRequestFilters,
} from '@veriform/contracts';
import { useState } from 'react';
import { searchPager } from '../../../components/data-list/ListStates';
import { StatusFilteredList } from '../../../components/data-list/StatusFilteredList';
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
      <StatusFilteredList
        query={query}
        rowsNoun="privacy requests"
        status={{
          value: search.status,
          statuses: privacyRequestFilters,
          labels: privacyRequestFilterLabels,
          onChange: (status) => onSearch({ status, pageNumber: 1 }, { replace: true }),
        }}
        never={{
          title: NO_REQUESTS,
          text: 'When a person asks what you keep about them, or asks you to erase it, file their request here: it is answered in one step, on time.',
        }}
        noMatchTitle={NO_MATCH}
        skeleton={<PrivacyRequestListSkeleton />}
        icon={<IconShieldLock />}
        pager={searchPager(search, pageSizes, onSearch)}
      >
        {(requests, busy) => <PrivacyRequestList requests={requests} busy={busy} />}
      </StatusFilteredList>
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

import { Button } from '@mantine/core';
import { IconHandStop, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { type RevocationSearch, revocationStatuses } from '@veriform/contracts';
import { useCallback, useState } from 'react';
import { StatusFilteredList } from '../../../components/data-list/StatusFilteredList';
import { SearchBox } from '../../../components/form/SearchBox';
import { ActivityLogTabs } from '../../../components/layout/ActivityLogTabs';
import { PageHeader } from '../../../components/layout/PageHeader';
import {
  revocationKeys,
  revocationListQueryOptions,
  revocationSearchDefaults,
  useAcknowledgeRevocationMutation,
  useDecideRevocationMutation,
  validateRevocationSearch,
} from '../../../features/revocations/api';
import { RecordRevocationModal } from '../../../features/revocations/components/RecordRevocationModal';
import {
  RevocationList,
  RevocationListSkeleton,
} from '../../../features/revocations/components/RevocationList';
import { revocationStatusLabels } from '../../../features/revocations/labels';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { LogAccess, logPager, startLogRead } from './-log-page';

export const Route = createFileRoute('/_authed/activity-log/revocations')({
  validateSearch: validateRevocationSearch,
  search: { middlewares: [stripSearchParams(revocationSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    startLogRead(context, (api, accountId) =>
      context.queryClient.ensureQueryData(revocationListQueryOptions(api, accountId, deps)),
    ),
  pendingComponent: Pending,
  component: RevocationsPage,
});

function Pending() {
  return (
    <>
      <PageHeader title="Activity Log" />
      <ActivityLogTabs current="revocations" />
      <RevocationListSkeleton />
    </>
  );
}

function RevocationsPage() {
  return <LogAccess>{(accountId) => <Revocations key={accountId} accountId={accountId} />}</LogAccess>;
}

/**
 * Revocations of consent (issue #35): every one received, newest first, with its deadline; a member records one
 * received elsewhere, decides a possible one (a reply that is not a per-se revocation) and acknowledges an open one.
 */
function Revocations({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const [recording, setRecording] = useState(false);
  const query = useQuery({
    ...revocationListQueryOptions(api, accountId, search),
    // While another page or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === revocationKeys.all(accountId)[1] ? previous : undefined,
  });
  const acknowledge = useAcknowledgeRevocationMutation(accountId);
  const decide = useDecideRevocationMutation(accountId);
  const pendingId = acknowledge.isPending
    ? (acknowledge.variables ?? null)
    : decide.isPending
      ? (decide.variables?.id ?? null)
      : null;

  const update = useCallback(
    (patch: Partial<RevocationSearch>) =>
      void navigate({
        search: (previous: RevocationSearch) => ({ ...previous, ...patch, pageNumber: 1 }),
        replace: true,
      }),
    [navigate],
  );

  const failed = (title: string) => (error: unknown) => notify.error(title, errorDisplayText(error));

  return (
    <>
      <PageHeader
        title="Activity Log"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setRecording(true)}>
            Record revocation
          </Button>
        }
      />
      <ActivityLogTabs current="revocations" />
      <StatusFilteredList
        query={query}
        rowsNoun="revocations"
        status={{
          value: search.status,
          statuses: revocationStatuses,
          labels: revocationStatusLabels,
          onChange: (status) => update({ status }),
        }}
        otherFilters={{
          controls: (
            <SearchBox
              label="Search"
              placeholder="Number or e-mail address"
              flexBasis={280}
              q={search.q ?? ''}
              onChange={(q) => update({ q: q || undefined })}
            />
          ),
          active: search.q !== undefined,
          noMatch: {
            title: 'No matching revocations',
            text: 'Search for another number or address, or clear the filters.',
            onClear: () => update({ q: undefined, status: undefined }),
          },
        }}
        never={{
          title: 'No revocations yet',
          text: 'Replies such as STOP or ALTO to your code texts, and the revocations your team records, are listed here with the day by which each must be honoured.',
        }}
        noMatchTitle="No revocations with this status"
        filtersMb="md"
        skeleton={<RevocationListSkeleton />}
        icon={<IconHandStop />}
        pager={logPager(
          search,
          (patch) => void navigate({ search: (previous: RevocationSearch) => ({ ...previous, ...patch }) }),
        )}
      >
        {(revocations, busy) => (
          <RevocationList
            revocations={revocations}
            busy={busy}
            actions={{
              pendingId,
              onAcknowledge: (r) =>
                acknowledge.mutate(r.id, {
                  onSuccess: () => notify.success('Revocation acknowledged'),
                  onError: failed('The revocation could not be acknowledged'),
                }),
              onDecide: (r, isRevocation) =>
                decide.mutate(
                  { id: r.id, isRevocation },
                  {
                    onSuccess: () =>
                      notify.success(isRevocation ? 'Marked as a revocation' : 'Marked as not a revocation'),
                    onError: failed('The reply could not be decided'),
                  },
                ),
            }}
          />
        )}
      </StatusFilteredList>
      <RecordRevocationModal
        accountId={accountId}
        opened={recording}
        onClose={() => setRecording(false)}
        onRecorded={() => {
          setRecording(false);
          notify.success('Revocation recorded');
        }}
      />
    </>
  );
}

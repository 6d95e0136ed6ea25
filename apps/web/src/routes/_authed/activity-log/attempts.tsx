import { Button, Group } from '@mantine/core';
import { IconAlertCircle, IconFilterOff, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { can, type VerificationAttemptSearch, verificationPageSizes } from '@veriform/contracts';
import { useCallback } from 'react';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { ActivityLogTabs } from '../../../components/layout/ActivityLogTabs';
import { EmptyState } from '../../../components/layout/EmptyState';
import { ListPager } from '../../../components/layout/ListPager';
import { PageHeader } from '../../../components/layout/PageHeader';
import {
  attemptExportUrl,
  attemptKeys,
  attemptListParams,
  attemptListQueryOptions,
  attemptSearchDefaults,
  validateAttemptSearch,
} from '../../../features/attempts/api';
import { AttemptList } from '../../../features/attempts/components/AttemptList';
import { AttemptListSkeleton } from '../../../features/attempts/components/AttemptListSkeleton';
import { DeliveryStatusFilter } from '../../../features/attempts/components/DeliveryStatusFilter';
import {
  ExportCsvButton,
  ExportProgressPanel,
  useCsvExport,
} from '../../../features/verifications/components/ExportCsv';
import { TestModeSwitch } from '../../../features/verifications/components/TestModeSwitch';
import {
  clearedVerificationFilters,
  hasActiveVerificationFilters,
  type VerificationFilterPatch,
  VerificationFilters,
} from '../../../features/verifications/components/VerificationFilters';
import { PermissionDeniedError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { formatCount } from '../../../lib/format';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';

type AttemptPatch = VerificationFilterPatch &
  Partial<Pick<VerificationAttemptSearch, 'deliveryStatus' | 'mode'>>;

export const Route = createFileRoute('/_authed/activity-log/attempts')({
  // Every bad value in a shared link falls back to its default, as on the log.
  validateSearch: validateAttemptSearch,
  // Defaults stay out of the URL: /activity-log/attempts is the plain link.
  search: { middlewares: [stripSearchParams(attemptSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const membership = context.session.get().currentMembership;
    if (!membership || !can(membership, 'searchData')) return;
    // As the log: the page shows at once with its heading, filters and Export, a skeleton where the rows go; a failed
    // read is shown inside the page.
    void context.queryClient
      .ensureQueryData(attemptListQueryOptions(context.api, membership.account.id, attemptListParams(deps)))
      .catch(() => undefined);
  },
  pendingComponent: Pending,
  component: AttemptsPage,
});

function Pending() {
  const search = Route.useSearch();
  return (
    <>
      <PageHeader title="Activity Log" />
      <ActivityLogTabs current="attempts" search={search} />
      <AttemptListSkeleton />
    </>
  );
}

function AttemptsPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) {
    return (
      <>
        <PageHeader title="Activity Log" />
        <NoMembershipAlert />
      </>
    );
  }
  // The attempts are the log's evidence: the same permission as the log (SPEC §6 canSearchData).
  if (!can(currentMembership, 'searchData')) return <ForbiddenScreen />;
  return <Attempts key={currentMembership.account.id} accountId={currentMembership.account.id} />;
}

function Attempts({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const exporter = useCsvExport();
  const { data, isPending, isError, error, refetch, isPlaceholderData } = useQuery({
    ...attemptListQueryOptions(api, accountId, attemptListParams(search)),
    // While another page or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === attemptKeys.all(accountId)[1] ? previous : undefined,
  });

  // Filters send the reader back to page 1; `replace` keeps typing in the search box from filling the history.
  const update = useCallback(
    (patch: AttemptPatch) =>
      void navigate({
        search: (previous: VerificationAttemptSearch) => ({ ...previous, ...patch, pageNumber: 1 }),
        replace: true,
      }),
    [navigate],
  );
  const goToPage = (pageNumber: number) =>
    void navigate({ search: (previous: VerificationAttemptSearch) => ({ ...previous, pageNumber }) });
  const setPageSize = (pageSize: number) =>
    void navigate({
      search: (previous: VerificationAttemptSearch) => ({ ...previous, pageSize, pageNumber: 1 }),
    });

  const filtered = hasActiveVerificationFilters(search) || (search.deliveryStatus?.length ?? 0) > 0;
  const neverSent = data !== undefined && data.count === 0 && !filtered && !isPlaceholderData;

  let body: React.ReactNode;
  if (isPending) body = <AttemptListSkeleton />;
  else if (isError && error instanceof PermissionDeniedError) return <ForbiddenScreen />;
  else if (isError)
    body = (
      <EmptyState icon={<IconAlertCircle />} title="The codes sent could not be loaded">
        {errorDisplayText(error)}{' '}
        <Button variant="subtle" size="compact-sm" onClick={() => void refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  else if (neverSent)
    body = (
      <EmptyState icon={<IconSend />} title="No codes sent yet">
        Every code your forms and the API send will be listed here, verified or not, with what became of its
        message: delivered, undelivered or failed, and why.
      </EmptyState>
    );
  else if (data.count === 0)
    body = (
      <EmptyState icon={<IconFilterOff />} title="No codes sent match these filters">
        Try another search, status or date range, or clear the filters to see every code sent.
        <Group justify="center" mt="md">
          <Button
            variant="default"
            onClick={() => update({ ...clearedVerificationFilters('all'), deliveryStatus: undefined })}
          >
            Clear filters
          </Button>
        </Group>
      </EmptyState>
    );
  else if (data.results.length === 0)
    // A bookmarked page past the end.
    body = (
      <EmptyState icon={<IconSend />} title="This page is empty">
        There are {formatCount(data.count)} matching codes sent, on fewer pages.
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => goToPage(1)}>
            Go to the first page
          </Button>
        </Group>
      </EmptyState>
    );
  else
    body = (
      <>
        <AttemptList attempts={data.results} busy={isPlaceholderData} />
        <ListPager
          page={{ ...data, shown: data.results.length }}
          pageNumber={search.pageNumber}
          pageSize={search.pageSize}
          pageSizes={verificationPageSizes}
          onPage={goToPage}
          onPageSize={setPageSize}
        />
      </>
    );

  return (
    <>
      <PageHeader
        title="Activity Log"
        actions={
          neverSent ? undefined : (
            <ExportCsvButton
              running={exporter.state.status === 'running'}
              // Until the rows are there it is not known whether there is anything to export.
              disabled={isPending}
              onExport={() => void exporter.start(attemptExportUrl(accountId, search))}
            />
          )
        }
      />
      <ActivityLogTabs current="attempts" search={search} />
      <TestModeSwitch mode={search.mode} onChange={(mode) => update({ mode })} />
      {exporter.state.status === 'running' && (
        <ExportProgressPanel progress={exporter.state} onCancel={exporter.cancel} />
      )}
      {!neverSent && (
        <VerificationFilters
          accountId={accountId}
          value={search}
          onChange={update}
          aria-label="Filter codes sent"
        >
          <DeliveryStatusFilter
            value={search.deliveryStatus}
            onChange={(deliveryStatus) => update({ deliveryStatus })}
          />
        </VerificationFilters>
      )}
      {body}
    </>
  );
}

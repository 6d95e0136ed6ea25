import { Button, Group } from '@mantine/core';
import { IconActivity, IconAlertCircle, IconFilterOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import {
  can,
  type VerificationSearch,
  type VerificationSort,
  verificationPageSizes,
} from '@veriform/contracts';
import { useCallback } from 'react';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { ActivityLogTabs } from '../../../components/layout/ActivityLogTabs';
import { EmptyState } from '../../../components/layout/EmptyState';
import { ListPager } from '../../../components/layout/ListPager';
import { PageHeader } from '../../../components/layout/PageHeader';
import {
  verificationExportUrl,
  verificationKeys,
  verificationListParams,
  verificationListQueryOptions,
} from '../../../features/verifications/api';
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
import { VerificationList } from '../../../features/verifications/components/VerificationList';
import { VerificationListSkeleton } from '../../../features/verifications/components/VerificationListSkeleton';
import { PermissionDeniedError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { formatCount } from '../../../lib/format';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import { validateVerificationSearch, verificationSearchDefaults } from '../../../lib/verification-search';

export const Route = createFileRoute('/_authed/activity-log/')({
  // SPEC §2, §5: every bad value in a shared link falls back to its default (see search.ts for why a function).
  validateSearch: validateVerificationSearch,
  // Defaults stay out of the URL: /activity-log/ is the plain link; a shared link carries only what was chosen.
  search: { middlewares: [stripSearchParams(verificationSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const membership = context.session.get().currentMembership;
    if (!membership || !can(membership, 'searchData')) return;
    // Starts the read without waiting for it: the page shows at once with its heading, filters and Export in place
    // and a skeleton where the rows go, so nothing moves when they arrive (issue 13 item 16). A new page, sort or
    // filter keeps the previous rows (dimmed) until the new ones arrive. A failed read is shown inside the page.
    void context.queryClient
      .ensureQueryData(
        verificationListQueryOptions(context.api, membership.account.id, verificationListParams(deps)),
      )
      .catch(() => undefined);
  },
  pendingComponent: Pending,
  component: ActivityLogPage,
});

function Pending() {
  const search = Route.useSearch();
  return (
    <>
      <PageHeader title="Activity Log" />
      <ActivityLogTabs current="verifications" search={search} />
      <VerificationListSkeleton />
    </>
  );
}

function ActivityLogPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) {
    return (
      <>
        <PageHeader title="Activity Log" />
        <NoMembershipAlert />
      </>
    );
  }
  // SPEC §6: the Activity Log is for owners and members with canSearchData.
  if (!can(currentMembership, 'searchData')) return <ForbiddenScreen />;
  return <ActivityLog key={currentMembership.account.id} accountId={currentMembership.account.id} />;
}

function ActivityLog({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const exporter = useCsvExport();
  const { data, isPending, isError, error, refetch, isPlaceholderData } = useQuery({
    ...verificationListQueryOptions(api, accountId, verificationListParams(search)),
    // While another page, sort or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === verificationKeys.all(accountId)[1] ? previous : undefined,
  });

  // Filters and sort send the reader back to page 1 (page 7 of another result set means nothing); `replace` keeps
  // typing in the search box from filling the history.
  const update = useCallback(
    (patch: VerificationFilterPatch) =>
      void navigate({
        search: (previous: VerificationSearch) => ({ ...previous, ...patch, pageNumber: 1 }),
        replace: true,
      }),
    [navigate],
  );
  const sortBy = (o: VerificationSort) =>
    void navigate({ search: (previous: VerificationSearch) => ({ ...previous, o, pageNumber: 1 }) });
  const goToPage = (pageNumber: number) =>
    void navigate({ search: (previous: VerificationSearch) => ({ ...previous, pageNumber }) });
  const setPageSize = (pageSize: number) =>
    void navigate({ search: (previous: VerificationSearch) => ({ ...previous, pageSize, pageNumber: 1 }) });

  const filtered = hasActiveVerificationFilters(search);
  const neverVerified = data !== undefined && data.count === 0 && !filtered && !isPlaceholderData;

  let body: React.ReactNode;
  if (isPending) body = <VerificationListSkeleton />;
  else if (isError && error instanceof PermissionDeniedError) return <ForbiddenScreen />;
  else if (isError)
    body = (
      <EmptyState icon={<IconAlertCircle />} title="The verifications could not be loaded">
        {errorDisplayText(error)}{' '}
        <Button variant="subtle" size="compact-sm" onClick={() => void refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  else if (neverVerified)
    body = (
      <EmptyState
        icon={<IconActivity />}
        title={search.mode === 'test' ? 'No test verifications yet' : 'No verifications yet'}
      >
        Every successful verification from your forms will be listed here: the cell phone, the reference, the
        form, the method and when. Share a live form's link to collect the first one.
      </EmptyState>
    );
  else if (data.count === 0)
    body = (
      <EmptyState icon={<IconFilterOff />} title="No verifications match these filters">
        Try another search or date range, or clear the filters to see every verification.
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => update(clearedVerificationFilters('all'))}>
            Clear filters
          </Button>
        </Group>
      </EmptyState>
    );
  else if (data.results.length === 0)
    // A bookmarked page past the end (rows were deleted, or the page size grew).
    body = (
      <EmptyState icon={<IconActivity />} title="This page is empty">
        There are {formatCount(data.count)} matching verifications, on fewer pages.
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
        <VerificationList
          verifications={data.results}
          search={search}
          onSort={sortBy}
          busy={isPlaceholderData}
        />
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

  const running = exporter.state.status === 'running';
  return (
    <>
      <PageHeader
        title="Activity Log"
        actions={
          neverVerified ? undefined : (
            <ExportCsvButton
              running={running}
              // Until the rows are there it is not known whether there is anything to export.
              disabled={isPending}
              onExport={() => void exporter.start(verificationExportUrl(accountId, search))}
            />
          )
        }
      />
      <ActivityLogTabs current="verifications" search={search} />
      <TestModeSwitch
        mode={search.mode}
        onChange={(mode) =>
          void navigate({ search: (previous: VerificationSearch) => ({ ...previous, mode, pageNumber: 1 }) })
        }
      />
      {exporter.state.status === 'running' && (
        <ExportProgressPanel progress={exporter.state} onCancel={exporter.cancel} />
      )}
      {!neverVerified && <VerificationFilters accountId={accountId} value={search} onChange={update} />}
      {body}
    </>
  );
}

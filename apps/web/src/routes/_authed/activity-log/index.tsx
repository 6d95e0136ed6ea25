import { IconActivity } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import type { VerificationSearch, VerificationSort } from '@veriform/contracts';
import { useCallback } from 'react';
import {
  verificationExportUrl,
  verificationKeys,
  verificationListParams,
  verificationListQueryOptions,
} from '../../../features/verifications/api';
import { RevokedFilter } from '../../../features/verifications/components/RevokedMark';
import {
  clearedVerificationFilters,
  hasActiveVerificationFilters,
  type VerificationFilterPatch,
  VerificationFilters,
} from '../../../features/verifications/components/VerificationFilters';
import { VerificationList } from '../../../features/verifications/components/VerificationList';
import { VerificationListSkeleton } from '../../../features/verifications/components/VerificationListSkeleton';
import { useServices } from '../../../lib/services';
import { validateVerificationSearch, verificationSearchDefaults } from '../../../lib/verification-search';
import { LogAccess, LogPending, LogView, logPager, startLogRead } from './-log-page';

export const Route = createFileRoute('/_authed/activity-log/')({
  // SPEC §2, §5: every bad value in a shared link falls back to its default (see search.ts for why a function).
  validateSearch: validateVerificationSearch,
  // Defaults stay out of the URL: /activity-log/ is the plain link; a shared link carries only what was chosen.
  search: { middlewares: [stripSearchParams(verificationSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  // A new page, sort or filter keeps the previous rows (dimmed) until the new ones arrive.
  loader: ({ context, deps }) =>
    startLogRead(context, (api, accountId) =>
      context.queryClient.ensureQueryData(
        verificationListQueryOptions(api, accountId, verificationListParams(deps)),
      ),
    ),
  pendingComponent: Pending,
  component: ActivityLogPage,
});

function Pending() {
  return (
    <LogPending view="verifications" search={Route.useSearch()} skeleton={<VerificationListSkeleton />} />
  );
}

function ActivityLogPage() {
  return <LogAccess>{(accountId) => <ActivityLog key={accountId} accountId={accountId} />}</LogAccess>;
}

function ActivityLog({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useQuery({
    ...verificationListQueryOptions(api, accountId, verificationListParams(search)),
    // While another page, sort or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === verificationKeys.all(accountId)[1] ? previous : undefined,
  });

  // Filters and sort send the reader back to page 1 (page 7 of another result set means nothing); `replace` keeps
  // typing in the search box from filling the history.
  const update = useCallback(
    (patch: VerificationFilterPatch & Pick<Partial<VerificationSearch>, 'revoked'>) =>
      void navigate({
        search: (previous: VerificationSearch) => ({ ...previous, ...patch, pageNumber: 1 }),
        replace: true,
      }),
    [navigate],
  );
  const go = (patch: Partial<VerificationSearch>) =>
    void navigate({ search: (previous: VerificationSearch) => ({ ...previous, ...patch }) });
  const sortBy = (o: VerificationSort) => go({ o, pageNumber: 1 });

  const { data, isPlaceholderData } = query;
  const neverVerified =
    data !== undefined &&
    data.count === 0 &&
    !hasActiveVerificationFilters(search) &&
    search.revoked === undefined &&
    !isPlaceholderData;

  return (
    <LogView
      view="verifications"
      search={search}
      exportUrl={verificationExportUrl(accountId, search)}
      onMode={(mode) => go({ mode, pageNumber: 1 })}
      filters={
        <VerificationFilters accountId={accountId} value={search} onChange={update}>
          {/* The log's own (issue #35): the dashboard's report has no revoked filter. */}
          <RevokedFilter value={search.revoked} onChange={(revoked) => update({ revoked })} />
        </VerificationFilters>
      }
      query={query}
      skeleton={<VerificationListSkeleton />}
      icon={<IconActivity />}
      errorTitle="The verifications could not be loaded"
      never={
        neverVerified
          ? {
              title: search.mode === 'test' ? 'No test verifications yet' : 'No verifications yet',
              text: "Every successful verification from your forms will be listed here: the cell phone, the reference, the form, the method and when. Share a live form's link to collect the first one.",
            }
          : undefined
      }
      noMatch={{
        title: 'No verifications match these filters',
        text: 'Try another search or date range, or clear the filters to see every verification.',
        onClear: () => update({ ...clearedVerificationFilters('all'), revoked: undefined }),
      }}
      rowsNoun="verifications"
      pager={logPager(search, go)}
    >
      {(verifications, busy) => (
        <VerificationList verifications={verifications} search={search} onSort={sortBy} busy={busy} />
      )}
    </LogView>
  );
}

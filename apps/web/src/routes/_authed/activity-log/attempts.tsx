import { IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import type { VerificationAttemptSearch } from '@veriform/contracts';
import { useCallback } from 'react';
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
  clearedVerificationFilters,
  hasActiveVerificationFilters,
  type VerificationFilterPatch,
  VerificationFilters,
} from '../../../features/verifications/components/VerificationFilters';
import { useServices } from '../../../lib/services';
import { LogAccess, LogPending, LogView, logPager, startLogRead } from './-log-page';

type AttemptPatch = VerificationFilterPatch &
  Partial<Pick<VerificationAttemptSearch, 'deliveryStatus' | 'mode'>>;

export const Route = createFileRoute('/_authed/activity-log/attempts')({
  // Every bad value in a shared link falls back to its default, as on the log.
  validateSearch: validateAttemptSearch,
  // Defaults stay out of the URL: /activity-log/attempts is the plain link.
  search: { middlewares: [stripSearchParams(attemptSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  // As the log: the page shows at once, a skeleton where the rows go.
  loader: ({ context, deps }) =>
    startLogRead(context, (api, accountId) =>
      context.queryClient.ensureQueryData(attemptListQueryOptions(api, accountId, attemptListParams(deps))),
    ),
  pendingComponent: Pending,
  component: AttemptsPage,
});

function Pending() {
  return <LogPending view="attempts" search={Route.useSearch()} skeleton={<AttemptListSkeleton />} />;
}

function AttemptsPage() {
  return <LogAccess>{(accountId) => <Attempts key={accountId} accountId={accountId} />}</LogAccess>;
}

function Attempts({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useQuery({
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

  const filtered = hasActiveVerificationFilters(search) || (search.deliveryStatus?.length ?? 0) > 0;
  const { data, isPlaceholderData } = query;
  const neverSent = data !== undefined && data.count === 0 && !filtered && !isPlaceholderData;

  return (
    <LogView
      view="attempts"
      search={search}
      exportUrl={attemptExportUrl(accountId, search)}
      onMode={(mode) => update({ mode })}
      filters={
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
      }
      query={query}
      skeleton={<AttemptListSkeleton />}
      icon={<IconSend />}
      errorTitle="The codes sent could not be loaded"
      never={
        neverSent
          ? {
              title: 'No codes sent yet',
              text: 'Every code your forms and the API send will be listed here, verified or not, with what became of its message: delivered, undelivered or failed, and why.',
            }
          : undefined
      }
      noMatch={{
        title: 'No codes sent match these filters',
        text: 'Try another search, status or date range, or clear the filters to see every code sent.',
        onClear: () => update({ ...clearedVerificationFilters('all'), deliveryStatus: undefined }),
      }}
      rowsNoun="codes sent"
      pager={logPager(
        search,
        (patch) =>
          void navigate({ search: (previous: VerificationAttemptSearch) => ({ ...previous, ...patch }) }),
      )}
    >
      {(attempts, busy) => <AttemptList attempts={attempts} busy={busy} />}
    </LogView>
  );
}

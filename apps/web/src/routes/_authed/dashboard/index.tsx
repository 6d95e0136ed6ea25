import {
  createFileRoute,
  type SearchSchemaInput,
  stripSearchParams,
  useNavigate,
} from '@tanstack/react-router';
import { can, type DashboardSearch, dashboardPresets, dashboardSearchSchema } from '@veriform/contracts';
import { useCallback } from 'react';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { PageHeader } from '../../../components/layout/PageHeader';
import {
  activeFormsQueryOptions,
  reportParams,
  verificationReportQueryOptions,
} from '../../../features/dashboard/api';
import { Dashboard, type DashboardPreset } from '../../../features/dashboard/components/Dashboard';
import { ReportSkeleton } from '../../../features/dashboard/components/ReportGrid';
import { RevocationsSummary } from '../../../features/revocations/components/RevocationsSummary';
import {
  type VerificationFilterPatch,
  VerificationFilters,
} from '../../../features/verifications/components/VerificationFilters';
import { useSession } from '../../../lib/session';
import { searchValuesAsText } from '../../../lib/verification-search';

const dashboardSearchDefaults = dashboardSearchSchema.parse({});

export const Route = createFileRoute('/_authed/dashboard/')({
  // SPEC §2: last7d by default; any other preset than last7d/last30d/custom, or any bad value, falls back. Read like
  // the activity log's (searchValuesAsText): the router JSON-parses each value first, so a hand-written
  // `?verifyFormId__in=7&q=5550123` would reach the schema as numbers and both filters would be dropped silently.
  // The input is typed as the parsed shape with every key optional (`SearchSchemaInput` tells the router so): links
  // to /dashboard/ need no search, and navigate takes form ids as numbers. At run time `raw` is whatever the URL
  // held; the schema reads it.
  validateSearch: (raw: Partial<DashboardSearch> & SearchSchemaInput): DashboardSearch =>
    dashboardSearchSchema.parse(searchValuesAsText(raw)),
  // Defaults stay out of the URL: /dashboard/ is the plain link, a shared link carries only what was chosen.
  search: { middlewares: [stripSearchParams(dashboardSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const membership = context.session.get().currentMembership;
    // Without report rights the page is the 403 screen: nothing to fetch (the server would refuse anyway).
    if (!membership || !can(membership, 'viewReports')) return;
    const accountId = membership.account.id;
    // Failed reads are shown inside the page (with Try again), under the page's own heading and filters.
    await Promise.all([
      context.queryClient
        .ensureQueryData(verificationReportQueryOptions(context.api, accountId, reportParams(deps)))
        .catch(() => undefined),
      context.queryClient
        .ensureQueryData(activeFormsQueryOptions(context.api, accountId, deps))
        .catch(() => undefined),
    ]);
  },
  pendingComponent: DashboardPending,
  component: DashboardPage,
});

/**
 * First load: the page's own layout in skeletons. It stays in the main bundle (the router splits only `component`),
 * so it uses the chart-free layout module: recharts arrives with the dashboard's chunk alone.
 */
function DashboardPending() {
  return (
    <>
      <PageHeader title="Dashboard" />
      <div aria-busy="true">
        <ReportSkeleton />
      </div>
    </>
  );
}

function DashboardPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) {
    return (
      <>
        <PageHeader title="Dashboard" />
        <NoMembershipAlert />
      </>
    );
  }
  if (!can(currentMembership, 'viewReports')) return <ForbiddenScreen />;
  return (
    <>
      <PageHeader title="Dashboard" />
      <AccountDashboard
        key={currentMembership.account.id}
        accountId={currentMembership.account.id}
        canSearchData={can(currentMembership, 'searchData')}
      />
    </>
  );
}

function AccountDashboard({ accountId, canSearchData }: { accountId: number; canSearchData: boolean }) {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const update = useCallback(
    (patch: VerificationFilterPatch<DashboardPreset>) =>
      void navigate({
        search: (previous: DashboardSearch) => ({ ...previous, ...patch }),
        replace: true,
      }),
    [navigate],
  );
  return (
    <Dashboard
      accountId={accountId}
      search={search}
      canSearchData={canSearchData}
      notices={canSearchData ? <RevocationsSummary accountId={accountId} /> : null}
      filters={
        <VerificationFilters
          accountId={accountId}
          value={search}
          onChange={update}
          presets={dashboardPresets}
          aria-label="Filter the report"
        />
      }
    />
  );
}

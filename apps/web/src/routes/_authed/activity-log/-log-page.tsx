import {
  can,
  type VerificationAttemptSearch,
  type VerificationMode,
  type VerificationSearch,
  verificationPageSizes,
} from '@veriform/contracts';
import type { ReactNode } from 'react';
import {
  type ListPagerProps,
  ListStates,
  type ListStatesProps,
  searchPager,
} from '../../../components/data-list/ListStates';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { ActivityLogTabs, type ActivityLogView } from '../../../components/layout/ActivityLogTabs';
import { PageHeader } from '../../../components/layout/PageHeader';
import {
  ExportCsvButton,
  ExportProgressPanel,
  useCsvExport,
} from '../../../features/verifications/components/ExportCsv';
import { TestModeSwitch } from '../../../features/verifications/components/TestModeSwitch';
import type { ApiClient } from '../../../lib/api-client';
import { PermissionDeniedError } from '../../../lib/api-client';
import type { RouterContext } from '../../../lib/router-context';
import { useSession } from '../../../lib/session';

type LogSearch = VerificationSearch | VerificationAttemptSearch;

/**
 * The loader of a view of the log: starts the read without waiting for it, so the page shows at once with its
 * heading, filters and Export in place and a skeleton where the rows go (nothing moves when they arrive, issue 13 item
 * 16). A failed read is shown inside the page.
 */
export function startLogRead(
  context: RouterContext,
  read: (api: ApiClient, accountId: number) => Promise<unknown>,
): void {
  const membership = context.session.get().currentMembership;
  if (!membership || !can(membership, 'searchData')) return;
  void read(context.api, membership.account.id).catch(() => undefined);
}

/** The pager of a view, at the log's page sizes: the page and its size live in the URL (searchPager). */
export function logPager(
  search: Pick<LogSearch, 'pageNumber' | 'pageSize'>,
  go: (patch: { pageNumber: number; pageSize?: number }) => void,
): ListPagerProps {
  return searchPager(search, verificationPageSizes, go);
}

/** A view's pending state: the heading, the tabs and the skeleton. */
export function LogPending({
  view,
  search,
  skeleton,
}: {
  view: ActivityLogView;
  search: LogSearch;
  skeleton: ReactNode;
}) {
  return (
    <>
      <PageHeader title="Activity Log" />
      <ActivityLogTabs current={view} search={search} />
      {skeleton}
    </>
  );
}

/**
 * SPEC §6: the Activity Log (both views: the attempts are its evidence) is for owners and members with
 * canSearchData. The view is keyed by the account, so switching accounts starts it afresh.
 */
export function LogAccess({ children }: { children: (accountId: number) => ReactNode }) {
  const { currentMembership } = useSession();
  if (!currentMembership) {
    return (
      <>
        <PageHeader title="Activity Log" />
        <NoMembershipAlert />
      </>
    );
  }
  if (!can(currentMembership, 'searchData')) return <ForbiddenScreen />;
  return children(currentMembership.account.id);
}

interface LogViewProps<Row> extends ListStatesProps<Row> {
  view: ActivityLogView;
  search: LogSearch;
  /** Nothing was ever listed here (no filter chosen): no Export and no filters, only the "nothing yet" state. */
  never: ListStatesProps<Row>['never'];
  exportUrl: string;
  onMode: (mode: VerificationMode) => void;
  filters: ReactNode;
}

/** A view of the log: heading with Export, tabs, the live/test switch, the export's progress, filters, the rows. */
export function LogView<Row>({
  view,
  search,
  never,
  exportUrl,
  onMode,
  filters,
  ...states
}: LogViewProps<Row>) {
  const exporter = useCsvExport();
  const { query } = states;
  if (query.isError && query.error instanceof PermissionDeniedError) return <ForbiddenScreen />;
  return (
    <>
      <PageHeader
        title="Activity Log"
        actions={
          never ? undefined : (
            <ExportCsvButton
              running={exporter.state.status === 'running'}
              // Until the rows are there it is not known whether there is anything to export.
              disabled={query.isPending}
              onExport={() => void exporter.start(exportUrl)}
            />
          )
        }
      />
      <ActivityLogTabs current={view} search={search} />
      <TestModeSwitch mode={search.mode} onChange={onMode} />
      {exporter.state.status === 'running' && (
        <ExportProgressPanel progress={exporter.state} onCancel={exporter.cancel} />
      )}
      {!never && filters}
      <ListStates never={never} {...states} />
    </>
  );
}

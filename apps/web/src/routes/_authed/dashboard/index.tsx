import { IconChartBar } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { can } from '@veriform/contracts';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { EmptyState } from '../../../components/layout/EmptyState';
import { PageHeader } from '../../../components/layout/PageHeader';
import { requireAccount } from '../../../lib/require-account';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/dashboard/')({
  beforeLoad: requireAccount,
  component: DashboardPage,
});

function DashboardPage() {
  const { currentMembership } = useSession();
  if (currentMembership && !can(currentMembership, 'viewReports')) {
    return <ForbiddenScreen />;
  }
  return (
    <>
      <PageHeader title="Dashboard" />
      {currentMembership ? (
        <EmptyState icon={<IconChartBar />} title="No report data yet">
          Once your forms collect verifications, totals, trends and the verification funnel appear here.
        </EmptyState>
      ) : (
        <NoMembershipAlert />
      )}
    </>
  );
}

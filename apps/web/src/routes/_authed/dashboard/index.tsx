import { IconChartBar } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { EmptyState } from '../../../components/layout/EmptyState';
import { PageHeader } from '../../../components/layout/PageHeader';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/dashboard/')({
  component: DashboardPage,
});

function DashboardPage() {
  const { currentMembership } = useSession();
  if (currentMembership && currentMembership.role !== 'owner' && !currentMembership.canViewReports) {
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

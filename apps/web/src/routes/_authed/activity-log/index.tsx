import { IconActivity } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { can } from '@veriform/contracts';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { EmptyState } from '../../../components/layout/EmptyState';
import { PageHeader } from '../../../components/layout/PageHeader';
import { requireAccount } from '../../../lib/require-account';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/activity-log/')({
  beforeLoad: requireAccount,
  component: ActivityLogPage,
});

function ActivityLogPage() {
  const { currentMembership } = useSession();
  if (currentMembership && !can(currentMembership, 'searchData')) {
    return <ForbiddenScreen />;
  }
  return (
    <>
      <PageHeader title="Activity Log" />
      {currentMembership ? (
        <EmptyState icon={<IconActivity />} title="No verifications yet">
          Every successful verification from your forms will be listed here.
        </EmptyState>
      ) : (
        <NoMembershipAlert />
      )}
    </>
  );
}

import { IconUsers } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../../components/layout/EmptyState';
import { usePageTitle } from '../../../lib/page-title';

export const Route = createFileRoute('/_authed/settings/manage-team')({
  component: ManageTeamPage,
});

function ManageTeamPage() {
  usePageTitle('Manage Team');
  return (
    <EmptyState icon={<IconUsers />} title="No team members to show yet">
      The members of your company account and their roles will be listed here.
    </EmptyState>
  );
}

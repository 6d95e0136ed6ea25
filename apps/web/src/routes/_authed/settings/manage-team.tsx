import { createFileRoute } from '@tanstack/react-router';
import { ManageTeam } from '../../../features/team/components/ManageTeam';
import { usePageTitle } from '../../../lib/page-title';

export const Route = createFileRoute('/_authed/settings/manage-team')({
  component: ManageTeamPage,
});

function ManageTeamPage() {
  usePageTitle('Manage Team');
  return <ManageTeam />;
}

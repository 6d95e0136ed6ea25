import { createFileRoute } from '@tanstack/react-router';
import { InviteTeammateModal } from '../../../features/invitations/components/InviteTeammateModal';
import { PendingInvitations } from '../../../features/invitations/components/PendingInvitations';
import { ManageTeam } from '../../../features/team/components/ManageTeam';
import { usePageTitle } from '../../../lib/page-title';

export const Route = createFileRoute('/_authed/settings/manage-team')({
  component: ManageTeamPage,
});

function ManageTeamPage() {
  usePageTitle('Manage Team');
  return (
    <ManageTeam
      invitations={({ accountId, inviteOpened, closeInvite }) => (
        <>
          <PendingInvitations accountId={accountId} />
          <InviteTeammateModal accountId={accountId} opened={inviteOpened} onClose={closeInvite} />
        </>
      )}
    />
  );
}

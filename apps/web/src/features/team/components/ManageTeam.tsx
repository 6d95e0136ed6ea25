import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { can, type KeepCredentials, type Membership } from '@veriform/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { EmptyState } from '../../../components/layout/EmptyState';
import { NotFoundError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import { teamQueryOptions, useLeaveAccountMutation, useRefreshOwnMemberships } from '../../memberships/api';
import { OwnedCredentialsModal } from './OwnedCredentialsModal';
import { TeamTable } from './TeamTable';

/**
 * Anyone may leave; the server refuses the last owner (docs/roles.md) and the refusal is shown as an error toast
 * with its text. An owner leaving is shown their keys and endpoints, which go with them unless kept (ADR 30).
 */
function LeaveAccount({ membership }: { membership: Membership }) {
  const [confirming, setConfirming] = useState(false);
  const leave = useLeaveAccountMutation();
  const navigate = useNavigate();
  const { user } = useSession();
  const accountName = membership.account.displayName;

  const leaveNow = (keep: KeepCredentials = {}) =>
    leave.mutate(
      { membershipId: membership.id, ...keep },
      {
        onSuccess: () => {
          setConfirming(false);
          notify.success('You left the account', `You are no longer a member of ${accountName}.`);
          void navigate({ to: '/', replace: true });
        },
        onError: (error) => {
          setConfirming(false);
          notify.error('Failed to Leave Account', errorDisplayText(error));
        },
      },
    );

  return (
    <div>
      <Button variant="default" color="red" onClick={() => setConfirming(true)}>
        Leave account
      </Button>
      {can(membership, 'manageCompany') ? (
        <OwnedCredentialsModal
          opened={confirming}
          member={{ id: membership.id, user }}
          accountId={membership.account.id}
          accountName={accountName}
          action="leave"
          loading={leave.isPending}
          onConfirm={leaveNow}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <ConfirmModal
          opened={confirming}
          title={`Leave ${accountName}?`}
          confirmLabel="Leave"
          onConfirm={() => leaveNow()}
          onCancel={() => setConfirming(false)}
          loading={leave.isPending}
        >
          You will lose access to {accountName}. An owner can invite you again.
        </ConfirmModal>
      )}
    </div>
  );
}

/** What an owner sees under the team: the invitations (their own feature, composed by the route). */
export type InvitationsSlot = (props: {
  accountId: number;
  inviteOpened: boolean;
  closeInvite: () => void;
}) => ReactNode;

function TeamOfAccount({
  membership,
  invitations,
}: {
  membership: Membership;
  invitations?: InvitationsSlot;
}) {
  const { api } = useServices();
  const { user } = useSession();
  const accountId = membership.account.id;
  const team = useQuery(teamQueryOptions(api, accountId));
  const [inviteOpened, inviteDialog] = useDisclosure(false);
  const refreshOwnMemberships = useRefreshOwnMemberships();
  const canManage = can(membership, 'manageTeam');

  // 404: this account no longer has us (removed meanwhile): the memberships are re-read and the current one recomputed.
  const lostAccess = team.error instanceof NotFoundError;
  useEffect(() => {
    if (lostAccess) void refreshOwnMemberships();
  }, [lostAccess, refreshOwnMemberships]);

  const members = team.data?.results ?? [];

  let body: ReactNode;
  if (team.isPending) {
    body = (
      <Center py="xl">
        <Loader role="progressbar" aria-label="Loading team" />
      </Center>
    );
  } else if (team.error) {
    body = (
      <Alert color="red" role="alert">
        {errorDisplayText(team.error)}
      </Alert>
    );
  } else if (members.length === 0) {
    body = (
      <EmptyState icon={<IconUsers />} title="No team members to show yet">
        The members of {membership.account.displayName} and their roles will be listed here.
      </EmptyState>
    );
  } else {
    body = <TeamTable members={members} viewer={membership} viewerUserId={user.id} canManage={canManage} />;
  }

  return (
    <Stack gap="xl" maw={1000}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4">
              Team members
            </Title>
            <Text size="sm" c="dimmed">
              {canManage
                ? `Everyone in ${membership.account.displayName}. Owners have every permission.`
                : `Everyone in ${membership.account.displayName}. Only owners can change the team.`}
            </Text>
          </div>
          {canManage && (
            <Button leftSection={<IconUserPlus size={16} aria-hidden="true" />} onClick={inviteDialog.open}>
              Invite teammate
            </Button>
          )}
        </Group>
        {body}
        {team.isSuccess && <LeaveAccount membership={membership} />}
      </Stack>
      {canManage && invitations?.({ accountId, inviteOpened, closeInvite: inviteDialog.close })}
    </Stack>
  );
}

/** SPEC §2 manage-team: the memberships of the current account; owners manage them (docs/roles.md). */
export function ManageTeam({ invitations }: { invitations?: InvitationsSlot }) {
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembershipAlert />;
  return (
    <TeamOfAccount
      key={currentMembership.account.id}
      membership={currentMembership}
      invitations={invitations}
    />
  );
}

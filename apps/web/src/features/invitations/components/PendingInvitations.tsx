import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Invitation } from '@veriform/contracts';
import { type ReactNode, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { LayoutList } from '../../../components/data-list/DataList';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { formatDate, roleLabels } from '../../../lib/people';
import { useServices } from '../../../lib/services';
import { invitationsQueryOptions, useResendInvitationMutation, useRevokeInvitationMutation } from '../api';

function PendingInvitation({
  invitation,
  accountId,
  layout,
}: {
  invitation: Invitation;
  accountId: number;
  layout: 'row' | 'card';
}) {
  const resend = useResendInvitationMutation(accountId);
  const revoke = useRevokeInvitationMutation(accountId);
  const [confirming, setConfirming] = useState(false);
  const { email } = invitation;

  const resendNow = () =>
    resend.mutate(invitation.id, {
      onSuccess: () => notify.success('Invitation resent', `Sent to ${email}.`),
      onError: (error) => notify.error('Failed to Resend Invitation', errorDisplayText(error)),
    });

  const revokeNow = () =>
    revoke.mutate(invitation.id, {
      onSuccess: () => {
        setConfirming(false);
        notify.success('Invitation revoked', `The invitation to ${email} can no longer be used.`);
      },
      onError: (error) => {
        setConfirming(false);
        notify.error('Failed to Revoke Invitation', errorDisplayText(error));
      },
    });

  const actions = (
    <>
      <Group gap="xs" wrap="nowrap" justify="flex-end">
        <Button
          variant="subtle"
          size="xs"
          aria-label={`Resend invitation to ${email}`}
          onClick={resendNow}
          loading={resend.isPending}
        >
          Resend
        </Button>
        <Button
          variant="subtle"
          color="red"
          size="xs"
          aria-label={`Revoke invitation to ${email}`}
          onClick={() => setConfirming(true)}
        >
          Revoke
        </Button>
      </Group>
      <ConfirmModal
        opened={confirming}
        title={`Revoke the invitation to ${email}?`}
        confirmLabel="Revoke"
        onConfirm={revokeNow}
        onCancel={() => setConfirming(false)}
        loading={revoke.isPending}
      >
        The link in the invitation e-mail will stop working. You can invite {email} again later.
      </ConfirmModal>
    </>
  );

  // Small screens: a card, nothing cut off or hidden sideways.
  if (layout === 'card')
    return (
      <Paper component="li" withBorder radius="md" p="sm">
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {email}
        </Text>
        <Text size="sm" c="dimmed" mb="xs">
          {roleLabels[invitation.role]} · expires {formatDate(invitation.expiresAt)}
        </Text>
        {actions}
      </Paper>
    );
  return (
    <Table.Tr>
      <Table.Td>{email}</Table.Td>
      <Table.Td>{roleLabels[invitation.role]}</Table.Td>
      <Table.Td>{formatDate(invitation.expiresAt)}</Table.Td>
      <Table.Td>{actions}</Table.Td>
    </Table.Tr>
  );
}

const headers = [
  { label: 'Email' },
  { label: 'Role' },
  { label: 'Expires' },
  { label: 'Actions', header: <VisuallyHidden>Actions</VisuallyHidden> },
];

/** Owners: the account's pending invitations, each with Resend and Revoke. */
export function PendingInvitations({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const { data, error, isPending } = useQuery(invitationsQueryOptions(api, accountId));

  let content: ReactNode;
  if (isPending) {
    content = (
      <Center py="md">
        <Loader size="sm" role="progressbar" aria-label="Loading invitations" />
      </Center>
    );
  } else if (error) {
    content = (
      <Alert color="red" role="alert">
        {errorDisplayText(error)}
      </Alert>
    );
  } else if (data.results.length === 0) {
    content = (
      <Text c="dimmed" size="sm">
        No pending invitations.
      </Text>
    );
  } else {
    content = (
      <LayoutList label="Pending invitations" headers={headers} minWidth={520}>
        {(layout) =>
          data.results.map((invitation) => (
            <PendingInvitation
              key={invitation.id}
              invitation={invitation}
              accountId={accountId}
              layout={layout}
            />
          ))
        }
      </LayoutList>
    );
  }

  return (
    <div>
      <Title order={2} size="h4" mb="sm">
        Pending invitations
      </Title>
      {content}
    </div>
  );
}

import {
  Avatar,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import type { KeepCredentials, Membership, Role, TeamMembership } from '@veriform/contracts';
import { type ReactNode, useState } from 'react';
import { LayoutList, type RowLayout } from '../../../components/data-list/DataList';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { initialsFor } from '../../../components/shell/nav';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { personName, roleLabels, roleOptions } from '../../../lib/people';
import {
  useRemoveMembershipMutation,
  useUpdatePermissionsMutation,
  useUpdateRoleMutation,
} from '../../memberships/api';
import { OwnedCredentialsModal } from './OwnedCredentialsModal';

interface TeamTableProps {
  members: TeamMembership[];
  /** The viewer's membership in this account. */
  viewer: Membership;
  viewerUserId: number | null;
  /** Owners get the controls (docs/roles.md); everyone else sees the same table read-only. */
  canManage: boolean;
}

function PermissionsText({ member }: { member: TeamMembership }) {
  if (member.role === 'owner') return <Text size="sm">All permissions</Text>;
  const granted = [member.canSearchData && 'Search data', member.canViewReports && 'View reports'].filter(
    Boolean,
  );
  return <Text size="sm">{granted.length ? granted.join(', ') : 'Forms only'}</Text>;
}

/**
 * The owner's controls of one row: role, and the two permissions (owners have both, so theirs are fixed). Making an
 * owner a member first shows what it revokes (their keys and endpoints, ADR 30) in a dialog.
 */
function useOwnerControls({
  member,
  accountId,
  accountName,
}: {
  member: TeamMembership;
  accountId: number;
  accountName: string;
}) {
  const name = personName(member.user);
  const updateRole = useUpdateRoleMutation(accountId);
  const updatePermissions = useUpdatePermissionsMutation(accountId);
  const isOwner = member.role === 'owner';
  const [confirmingDemotion, setConfirmingDemotion] = useState(false);

  const changeRole = (role: Role, keep: KeepCredentials = {}) =>
    updateRole.mutate(
      { membershipId: member.id, role, ...keep },
      {
        onSuccess: () => {
          setConfirmingDemotion(false);
          notify.success('Role updated', `${name} is now ${role === 'owner' ? 'an owner' : 'a member'}.`);
        },
        onError: (error) => {
          setConfirmingDemotion(false);
          notify.error('Failed to Update Role', errorDisplayText(error));
        },
      },
    );

  const setRole = (value: string | null) => {
    if (value !== 'owner' && value !== 'member') return;
    if (value === member.role) return;
    if (isOwner) setConfirmingDemotion(true);
    else changeRole(value);
  };

  const setPermission = (key: 'canSearchData' | 'canViewReports', checked: boolean) => {
    updatePermissions.mutate(
      {
        membershipId: member.id,
        canSearchData: member.canSearchData,
        canViewReports: member.canViewReports,
        [key]: checked,
      },
      {
        onSuccess: () => notify.success('Permissions updated', `${name}’s permissions were saved.`),
        onError: (error) => notify.error('Failed to Update Permissions', errorDisplayText(error)),
      },
    );
  };

  return {
    demotion: (
      <OwnedCredentialsModal
        opened={confirmingDemotion}
        member={member}
        accountId={accountId}
        accountName={accountName}
        action="demote"
        loading={updateRole.isPending}
        onConfirm={(keep) => changeRole('member', keep)}
        onCancel={() => setConfirmingDemotion(false)}
      />
    ),
    role: (
      <LabelledSelect
        label={`Role for ${name}`}
        hideLabel
        data={roleOptions}
        value={member.role}
        onChange={setRole}
        disabled={updateRole.isPending}
        size="xs"
        w={120}
        comboboxProps={{ withinPortal: true }}
      />
    ),
    permissions: (
      <Group gap="md" wrap="nowrap">
        <Switch
          aria-label={`Can search data for ${name}`}
          label="Search data"
          checked={isOwner || member.canSearchData}
          disabled={isOwner || updatePermissions.isPending}
          onChange={(event) => setPermission('canSearchData', event.currentTarget.checked)}
          size="sm"
        />
        <Switch
          aria-label={`Can view reports for ${name}`}
          label="View reports"
          checked={isOwner || member.canViewReports}
          disabled={isOwner || updatePermissions.isPending}
          onChange={(event) => setPermission('canViewReports', event.currentTarget.checked)}
          size="sm"
        />
      </Group>
    ),
  };
}

type Layout = RowLayout;

/** Which second factors a member has (issue #38 item 3): never what they are, only that. */
export function SecondFactorBadges({ member }: { member: TeamMembership }) {
  const { totp, passkeys } = member.mfa;
  if (!totp && passkeys === 0)
    return (
      <Badge size="sm" variant="light" color="gray">
        None
      </Badge>
    );
  return (
    <Group gap={4} wrap="wrap">
      {totp && (
        <Badge size="sm" variant="light" color="green">
          Authenticator app
        </Badge>
      )}
      {passkeys > 0 && (
        <Badge size="sm" variant="light" color="green">
          {passkeys === 1 ? '1 passkey' : `${passkeys} passkeys`}
        </Badge>
      )}
    </Group>
  );
}

/**
 * One member on a small screen: a card with the same facts and controls as the table's row, stacked so that nothing
 * is cut off or needs a sideways scroll.
 */
function MemberCard({
  member,
  isViewer,
  role,
  permissions,
  action,
}: {
  member: TeamMembership;
  isViewer: boolean;
  role: ReactNode;
  permissions: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Person member={member} isViewer={isViewer} />
          {action}
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {member.user.email}
        </Text>
        <Group gap="sm" wrap="wrap">
          <Text size="sm" fw={500} aria-hidden="true">
            Role
          </Text>
          {role}
        </Group>
        {permissions}
        <Group gap="sm" wrap="wrap">
          <Text size="sm" fw={500}>
            Second factor
          </Text>
          <SecondFactorBadges member={member} />
        </Group>
      </Stack>
    </Paper>
  );
}

function ManagedMember({
  member,
  accountId,
  accountName,
  isViewer,
  layout,
}: {
  member: TeamMembership;
  accountId: number;
  accountName: string;
  isViewer: boolean;
  layout: Layout;
}) {
  const name = personName(member.user);
  const controls = useOwnerControls({ member, accountId, accountName });
  const remove = useRemoveMembershipMutation(accountId);
  const [confirming, setConfirming] = useState(false);

  const confirmRemove = (keep: KeepCredentials) =>
    remove.mutate(
      { membershipId: member.id, ...keep },
      {
        onSuccess: () => {
          setConfirming(false);
          notify.success('Member removed', `${name} was removed from ${accountName}.`);
        },
        onError: (error) => {
          setConfirming(false);
          notify.error('Failed to Remove Member', errorDisplayText(error));
        },
      },
    );

  const removeAction = !isViewer && (
    <>
      <Button
        variant="subtle"
        color="red"
        size="xs"
        aria-label={`Remove ${name}`}
        onClick={() => setConfirming(true)}
      >
        Remove
      </Button>
      <OwnedCredentialsModal
        opened={confirming}
        member={member}
        accountId={accountId}
        accountName={accountName}
        action="remove"
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setConfirming(false)}
      />
    </>
  );

  if (layout === 'card')
    return (
      <MemberCard
        member={member}
        isViewer={isViewer}
        role={controls.role}
        permissions={controls.permissions}
        action={
          <>
            {removeAction}
            {controls.demotion}
          </>
        }
      />
    );
  return (
    <Table.Tr>
      <PersonCell member={member} isViewer={isViewer} />
      <Table.Td>{member.user.email}</Table.Td>
      <Table.Td>{controls.role}</Table.Td>
      <Table.Td>{controls.permissions}</Table.Td>
      <Table.Td>
        <SecondFactorBadges member={member} />
      </Table.Td>
      <Table.Td>
        {removeAction}
        {controls.demotion}
      </Table.Td>
    </Table.Tr>
  );
}

function PersonCell({ member, isViewer }: { member: TeamMembership; isViewer: boolean }) {
  return (
    <Table.Td>
      <Person member={member} isViewer={isViewer} />
    </Table.Td>
  );
}

function Person({ member, isViewer }: { member: TeamMembership; isViewer: boolean }) {
  const name = personName(member.user);
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar
        src={member.user.uploadedProfileImage}
        radius="xl"
        size={32}
        color="indigo"
        alt=""
        aria-hidden="true"
      >
        {initialsFor(member.user.name, member.user.email)}
      </Avatar>
      <Text size="sm" fw={500}>
        {name}
      </Text>
      {isViewer && (
        <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
          You
        </Badge>
      )}
    </Group>
  );
}

function ReadOnlyMember({
  member,
  isViewer,
  layout,
}: {
  member: TeamMembership;
  isViewer: boolean;
  layout: Layout;
}) {
  if (layout === 'card')
    return (
      <MemberCard
        member={member}
        isViewer={isViewer}
        role={<Text size="sm">{roleLabels[member.role]}</Text>}
        permissions={<PermissionsText member={member} />}
      />
    );
  return (
    <Table.Tr>
      <PersonCell member={member} isViewer={isViewer} />
      <Table.Td>{member.user.email}</Table.Td>
      <Table.Td>{roleLabels[member.role]}</Table.Td>
      <Table.Td>
        <PermissionsText member={member} />
      </Table.Td>
      <Table.Td>
        <SecondFactorBadges member={member} />
      </Table.Td>
    </Table.Tr>
  );
}

/** SPEC §2 manage-team: one row per membership of the account (avatar, name, e-mail, role, permissions). */
export function TeamTable({ members, viewer, viewerUserId, canManage }: TeamTableProps) {
  const accountId = viewer.account.id;
  const member = (m: TeamMembership, layout: Layout) => {
    const isViewer = m.user.id === viewerUserId;
    return canManage ? (
      <ManagedMember
        key={m.id}
        member={m}
        accountId={accountId}
        accountName={viewer.account.displayName}
        isViewer={isViewer}
        layout={layout}
      />
    ) : (
      <ReadOnlyMember key={m.id} member={m} isViewer={isViewer} layout={layout} />
    );
  };
  const headers = [
    { label: 'Name' },
    { label: 'Email' },
    { label: 'Role' },
    { label: 'Permissions' },
    { label: 'Second factor' },
    ...(canManage ? [{ label: 'Actions', header: <VisuallyHidden>Actions</VisuallyHidden> }] : []),
  ];
  return (
    <LayoutList label="Team members" headers={headers} minWidth={canManage ? 880 : 680} highlightOnHover>
      {(layout) => members.map((m) => member(m, layout))}
    </LayoutList>
  );
}

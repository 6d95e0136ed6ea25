import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconChevronDown,
  IconChevronUp,
  IconLogout,
  IconSettings,
  IconUserCircle,
} from '@tabler/icons-react';
import { Link, useRouter } from '@tanstack/react-router';
import type { Membership } from '@veriform/contracts';
import { useState } from 'react';
import { useSelectMembershipMutation } from '../../features/memberships/api';
import { errorDisplayText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { useSession } from '../../lib/session';
import { initialsFor, rewriteAccountSegment } from './nav';

function AccountAvatar({ membership, size = 24 }: { membership: Membership; size?: number }) {
  const name = membership.account.displayName;
  return (
    <Avatar src={membership.account.uploadedProfileImage} size={size} radius="sm" color="indigo" alt="">
      {initialsFor(name, '')}
    </Avatar>
  );
}

/**
 * SPEC §2 account dropdown: the user's avatar; the current account first (click to list every account and switch);
 * Account settings, Global Settings, Log out.
 */
export function AccountMenu() {
  const { user, memberships, currentMembership } = useSession();
  const [accountsOpen, setAccountsOpen] = useState(false);
  const selectMembership = useSelectMembershipMutation();
  const router = useRouter();
  const initials = initialsFor(user.name, user.email);

  const switchTo = (membership: Membership) => {
    setAccountsOpen(false);
    if (membership.id === currentMembership?.id) return;
    selectMembership.mutate(membership, {
      onSuccess: () => {
        const { pathname, searchStr, hash } = router.state.location;
        const rewritten = rewriteAccountSegment(pathname, membership.account.id);
        if (rewritten !== pathname)
          void router.navigate({ href: `${rewritten}${searchStr}${hash ? `#${hash}` : ''}` });
      },
      onError: (error) => notify.error('Failed to Switch Account', errorDisplayText(error)),
    });
  };

  return (
    <Menu position="bottom-end" width={260} shadow="md" onClose={() => setAccountsOpen(false)}>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu">
          <Group gap={6} wrap="nowrap">
            <Avatar src={user.uploadedProfileImage} radius="xl" color="indigo" alt="">
              {initials}
            </Avatar>
            <IconChevronDown size={14} aria-hidden="true" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="bright" truncate>
            {user.name || user.email}
          </Text>
          {user.name && (
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          )}
        </Menu.Label>
        {currentMembership ? (
          <Menu.Item
            closeMenuOnClick={false}
            onClick={() => setAccountsOpen((open) => !open)}
            aria-expanded={accountsOpen}
            leftSection={<AccountAvatar membership={currentMembership} />}
            rightSection={
              accountsOpen ? (
                <IconChevronUp size={14} aria-hidden="true" />
              ) : (
                <IconChevronDown size={14} aria-hidden="true" />
              )
            }
          >
            <Text size="sm" fw={600} truncate>
              {currentMembership.account.displayName}
            </Text>
          </Menu.Item>
        ) : (
          <Menu.Item disabled>No company account yet</Menu.Item>
        )}
        {accountsOpen &&
          memberships.map((membership) => (
            <Menu.Item
              key={membership.id}
              pl="lg"
              onClick={() => switchTo(membership)}
              aria-current={membership.id === currentMembership?.id ? 'true' : undefined}
              leftSection={<AccountAvatar membership={membership} size={20} />}
            >
              {membership.account.displayName}
            </Menu.Item>
          ))}
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconSettings size={16} aria-hidden="true" />}
          renderRoot={(props) => <Link to="/settings/company-info" {...props} />}
        >
          Account settings
        </Menu.Item>
        <Menu.Item
          leftSection={<IconUserCircle size={16} aria-hidden="true" />}
          renderRoot={(props) => <Link to="/settings/my-account" {...props} />}
        >
          Global Settings
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden="true" />}
          renderRoot={(props) => <Link to="/settings/logout" {...props} />}
        >
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

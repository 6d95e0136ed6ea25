import { Avatar, Group, UnstyledButton, type UnstyledButtonProps } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { initialsFor } from '../../../components/shell/nav';
import { useSession } from '../../../lib/session';

type AccountMenuButtonProps = UnstyledButtonProps & ComponentPropsWithRef<'button'>;

/**
 * The top bar's account menu button (the user's avatar), the same element before and after the menu's code has
 * arrived (see AccountMenu), so that the bar does not move when one replaces the other.
 */
export function AccountMenuButton(props: AccountMenuButtonProps) {
  const { user } = useSession();
  return (
    <UnstyledButton aria-label="Account menu" {...props}>
      <Group gap={6} wrap="nowrap">
        <Avatar src={user.uploadedProfileImage} radius="xl" color="indigo" alt="" aria-hidden="true">
          {initialsFor(user.name, user.email)}
        </Avatar>
        <IconChevronDown size={14} aria-hidden="true" />
      </Group>
    </UnstyledButton>
  );
}

import { Avatar, Group, UnstyledButton, type UnstyledButtonProps } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { initialsFor } from '../../../components/shell/nav';
import { useSession } from '../../../lib/session';

type AccountMenuButtonProps = UnstyledButtonProps & ComponentPropsWithRef<'button'>;

/**
 * The top bar's account menu button (the user's avatar), the same element before and after the menu's code has
 * arrived (see AccountMenu), so that the bar does not move when one replaces the other. Its name holds the initials
 * the avatar shows (WCAG 2.5.3, label in name): someone who speaks to the screen says what they see.
 */
export function AccountMenuButton(props: AccountMenuButtonProps) {
  const { user } = useSession();
  const initials = initialsFor(user.name, user.email);
  return (
    <UnstyledButton aria-label={`Account menu, ${initials}`} {...props}>
      <Group gap={6} wrap="nowrap">
        <Avatar src={user.uploadedProfileImage} radius="xl" color="indigo" alt="" aria-hidden="true">
          {initials}
        </Avatar>
        <IconChevronDown size={14} aria-hidden="true" />
      </Group>
    </UnstyledButton>
  );
}

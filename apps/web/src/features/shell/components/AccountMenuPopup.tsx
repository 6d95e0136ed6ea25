import {
  Avatar,
  createScopedKeydownHandler,
  Group,
  Menu,
  Text,
  UnstyledButton,
  useMenuContext,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconBuildingPlus,
  IconCheck,
  IconChevronDown,
  IconChevronUp,
  IconLogout,
  IconSettings,
  IconUserCircle,
} from '@tabler/icons-react';
import { Link, useRouter } from '@tanstack/react-router';
import type { Account, Membership } from '@veriform/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { initialsFor, objectListOf, rewriteAccountSegment } from '../../../components/shell/nav';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import {
  validateVerificationSearch,
  verificationSearchForAnotherAccount,
} from '../../../lib/verification-search';
import { useSelectMembershipMutation } from '../../memberships/api';
import { AccountMenuButton } from './AccountMenuButton';

/** An account's logo, else its initials. Decorative: the account's name is always written beside it. */
export function AccountAvatar({ account, size = 24 }: { account: Account; size?: number | string }) {
  return (
    <Avatar
      src={account.uploadedProfileImage}
      size={size}
      radius="sm"
      color="indigo"
      alt=""
      aria-hidden="true"
    >
      {initialsFor(account.displayName, '')}
    </Avatar>
  );
}

/**
 * The current account, first in the dropdown: a menu item (a menu holds only menu items, ARIA) that shows or hides the
 * list of every account. Named "Current company: …" (the words before the name unseen), so that it is told apart from
 * the same account in the list. It takes part in the menu's arrow-key navigation like the items around it.
 */
function CurrentAccountButton({
  account,
  expanded,
  controls,
  onToggle,
}: {
  account: Account;
  expanded: boolean;
  controls: string;
  onToggle: () => void;
}) {
  const ctx = useMenuContext();
  return (
    <UnstyledButton
      {...ctx.getStyles('item')}
      role="menuitem"
      data-menu-item
      tabIndex={-1}
      aria-expanded={expanded}
      aria-controls={controls}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onToggle}
      onKeyDown={createScopedKeydownHandler({
        siblingSelector: '[data-menu-item]:not([data-disabled])',
        parentSelector: '[data-menu-dropdown]',
        activateOnFocus: false,
        loop: true,
        dir: 'ltr',
        orientation: 'vertical',
      })}
    >
      <Group gap="sm" wrap="nowrap">
        <AccountAvatar account={account} />
        <Text size="sm" fw={600} truncate style={{ flex: 1 }}>
          <VisuallyHidden>Current company:</VisuallyHidden> {account.displayName}
        </Text>
        {expanded ? (
          <IconChevronUp size={14} aria-hidden="true" />
        ) : (
          <IconChevronDown size={14} aria-hidden="true" />
        )}
      </Group>
    </UnstyledButton>
  );
}

/**
 * SPEC §2 account dropdown: the user's avatar; the current account first (click to list every account and switch);
 * Create company, Account settings, Global Settings, Log out. It replaces AccountMenu's stand-in button once fetched:
 * `focus` when that button had the focus, `open` when it was also pressed meanwhile.
 */
export function AccountMenuPopup({ focus, open }: { focus: boolean; open: boolean }) {
  const { user, memberships, currentMembership } = useSession();
  const [opened, setOpened] = useState(false);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const selectMembership = useSelectMembershipMutation();
  const router = useRouter();
  const listId = useId();
  const target = useRef<HTMLButtonElement>(null);
  const standIn = useRef({ focus, open });

  // Opened after mounting, not mounted open, so that closing it returns the focus to the button as ever.
  useEffect(() => {
    if (standIn.current.focus || standIn.current.open) target.current?.focus();
    if (standIn.current.open) setOpened(true);
  }, []);

  const switchTo = (membership: Membership) => {
    setAccountsOpen(false);
    if (membership.id === currentMembership?.id) return;
    // The path changes at once (the session already shows the new account); the server is told meanwhile.
    const { pathname, search, searchStr, hash } = router.state.location;
    const rewritten = rewriteAccountSegment(pathname, membership.account.id);
    selectMembership.mutate(membership, {
      onError: (error) => notify.error('Failed to Switch Account', errorDisplayText(error)),
    });
    // A form or a verification is the previous account's: its list in the new account replaces it.
    const list = objectListOf(pathname);
    if (list === '/forms/') void router.navigate({ to: '/forms/' });
    else if (list === '/activity-log/')
      void router.navigate({
        to: '/activity-log/',
        search: verificationSearchForAnotherAccount(validateVerificationSearch(search)),
      });
    else if (rewritten !== pathname)
      void router.navigate({ href: `${rewritten}${searchStr}${hash ? `#${hash}` : ''}` });
  };

  return (
    <Menu
      position="bottom-end"
      width={260}
      shadow="md"
      opened={opened}
      onChange={setOpened}
      onClose={() => setAccountsOpen(false)}
    >
      <Menu.Target>
        <AccountMenuButton ref={target} />
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
          <CurrentAccountButton
            account={currentMembership.account}
            expanded={accountsOpen}
            controls={listId}
            onToggle={() => setAccountsOpen((open) => !open)}
          />
        ) : (
          <Menu.Item disabled>No company account yet</Menu.Item>
        )}
        <div id={listId} hidden={!accountsOpen}>
          {accountsOpen &&
            memberships.map((membership) => (
              <Menu.Item
                key={membership.id}
                pl="lg"
                onClick={() => switchTo(membership)}
                aria-current={membership.id === currentMembership?.id ? 'true' : undefined}
                leftSection={<AccountAvatar account={membership.account} size={20} />}
                rightSection={
                  membership.id === currentMembership?.id ? <IconCheck size={14} aria-hidden="true" /> : null
                }
              >
                {membership.account.displayName}
              </Menu.Item>
            ))}
        </div>
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconBuildingPlus size={16} aria-hidden="true" />}
          renderRoot={(props) => <Link to="/auth/signup/complete" {...props} />}
        >
          Create company
        </Menu.Item>
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

import { AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconActivity, IconChartBar, IconForms } from '@tabler/icons-react';
import { useRouterState } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { BrandMark } from '../../../components/layout/BrandMark';
import { NavLinkLink } from '../../../components/nav-link';
import { type NavItem, visibleNavItems } from '../../../components/shell/nav';
import { APP_NAME } from '../../../lib/page-title';
import { useSession } from '../../../lib/session';
import { useOwnMembershipsSync } from '../../memberships/api';
import { AccountMenu } from './AccountMenu';

const icons: Record<NavItem['label'], ReactNode> = {
  Dashboard: <IconChartBar size={18} aria-hidden="true" />,
  'Activity Log': <IconActivity size={18} aria-hidden="true" />,
  Forms: <IconForms size={18} aria-hidden="true" />,
};

export const SIDEBAR_WIDTH = 200;

/** SPEC §2 authenticated layout: sidebar (200px; a burger on small screens), top bar with the account menu, footer. */
export function AppLayout({ children }: { children: ReactNode }) {
  const [navOpened, { toggle, close }] = useDisclosure(false);
  const { currentMembership } = useSession();
  useOwnMembershipsSync();
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  // On phones the navigation closes once a link has been followed.
  useEffect(() => {
    if (pathname) close();
  }, [pathname, close]);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: SIDEBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      footer={{ height: 40 }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
            />
            <BrandMark />
          </Group>
          <AccountMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main navigation">
        {visibleNavItems(currentMembership).map((item) => (
          <NavLinkLink
            key={item.to}
            to={item.to}
            label={item.label}
            leftSection={icons[item.label]}
            active={pathname.startsWith(item.to.replace(/\/$/, ''))}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main-content">{children}</AppShell.Main>
      <AppShell.Footer component="footer">
        <Group h="100%" px="md">
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} {APP_NAME}
          </Text>
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}

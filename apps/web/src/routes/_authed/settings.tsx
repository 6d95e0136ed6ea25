import { Tabs, Title } from '@mantine/core';
import { createFileRoute, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { activeSettingsTab, visibleSettingsTabs } from '../../features/settings/tabs';
import { useSession } from '../../lib/session';

export const Route = createFileRoute('/_authed/settings')({
  component: SettingsLayout,
});

function SettingsLayout() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const { currentMembership } = useSession();
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Settings
      </Title>
      <Tabs value={activeSettingsTab(pathname)} keepMounted={false} mb="lg">
        {/* One line at any width: narrower tabs on phones, and a sideways scroll rather than a second row. The
            focus ring is drawn inside each tab, where the scrolling list cannot clip it. */}
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
          {visibleSettingsTabs(currentMembership).map((tab) => (
            <Tabs.Tab
              key={tab.id}
              value={tab.id}
              px={{ base: 'xs', sm: 'md' }}
              style={{ flex: 'none', whiteSpace: 'nowrap', outlineOffset: -2 }}
              renderRoot={(props) => <Link to={tab.to} {...props} />}
            >
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}

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
        {/* Every tab in sight at any width: one row where they fit, more rows where they do not (a phone), never a
            sideways scroll that hides the last ones. The focus ring is drawn inside each tab. */}
        <Tabs.List style={{ flexWrap: 'wrap' }}>
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

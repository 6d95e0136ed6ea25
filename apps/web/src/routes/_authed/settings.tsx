import { Tabs, Title } from '@mantine/core';
import { createFileRoute, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { activeSettingsTab, settingsTabs } from '../../features/settings/tabs';

export const Route = createFileRoute('/_authed/settings')({
  component: SettingsLayout,
});

function SettingsLayout() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Settings
      </Title>
      <Tabs value={activeSettingsTab(pathname)} keepMounted={false} mb="lg">
        <Tabs.List>
          {settingsTabs.map((tab) => (
            <Tabs.Tab key={tab.id} value={tab.id} renderRoot={(props) => <Link to={tab.to} {...props} />}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}

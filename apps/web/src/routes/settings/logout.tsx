import { Center, Loader, Stack, Text } from '@mantine/core';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useLogoutMutation } from '../../features/auth/api';
import { errorDisplayText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { usePageTitle } from '../../lib/page-title';

/**
 * /settings/logout performs the logout (POST) and then shows the login page. It is not behind the `_authed` gate: an
 * anonymous visitor must not be sent to log in only to be logged out again.
 */
export const Route = createFileRoute('/settings/logout')({
  component: LogoutPage,
});

function LogoutPage() {
  usePageTitle('Logging out');
  const { mutateAsync } = useLogoutMutation();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutateAsync().then(
      () => {
        notify.success('Logged out', 'You have been logged out.');
        void navigate({ to: '/auth/login', replace: true });
      },
      (error: unknown) => {
        notify.error('Failed to Log Out', errorDisplayText(error));
        void navigate({ to: '/', replace: true });
      },
    );
  }, [mutateAsync, navigate]);

  return (
    <Center mih="60dvh">
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text role="status">Logging out…</Text>
      </Stack>
    </Center>
  );
}

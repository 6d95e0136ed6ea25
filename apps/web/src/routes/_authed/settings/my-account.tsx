import { Avatar, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { initialsFor } from '../../../components/shell/nav';
import { usePageTitle } from '../../../lib/page-title';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/settings/my-account')({
  component: MyAccountPage,
});

function MyAccountPage() {
  usePageTitle('My Account');
  const { user } = useSession();
  return (
    <Paper withBorder radius="md" p="lg" maw={640}>
      <Group gap="md" wrap="nowrap">
        <Avatar src={user.uploadedProfileImage} size={64} radius="xl" color="indigo" alt="">
          {initialsFor(user.name, user.email)}
        </Avatar>
        <Stack gap={4}>
          <Text fw={600} size="lg" data-testid="my-account-name">
            {user.name}
          </Text>
          <Group gap="xs">
            <Text c="dimmed" data-testid="my-account-email">
              {user.email}
            </Text>
            {user.emailIsVerified && (
              <Badge color="teal" variant="light" size="sm">
                Verified
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

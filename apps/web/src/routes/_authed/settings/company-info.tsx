import { Avatar, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { initialsFor } from '../../../components/shell/nav';
import { usePageTitle } from '../../../lib/page-title';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/settings/company-info')({
  component: CompanyInfoPage,
});

function CompanyInfoPage() {
  usePageTitle('Company Info');
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembershipAlert />;
  const { account, role } = currentMembership;
  return (
    <Paper withBorder radius="md" p="lg" maw={640}>
      <Group gap="md" wrap="nowrap">
        <Avatar src={account.uploadedProfileImage} size={64} radius="md" color="indigo" alt="">
          {initialsFor(account.displayName, '')}
        </Avatar>
        <Stack gap={4}>
          <Text fw={600} size="lg">
            {account.displayName}
          </Text>
          <Badge variant="light" size="sm">
            {role === 'owner' ? 'Owner' : 'Member'}
          </Badge>
        </Stack>
      </Group>
    </Paper>
  );
}

import { Stack, Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { serverTexts } from '@veriform/contracts';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../components/links';

export const Route = createFileRoute('/_public/auth/reset-password/sent')({
  component: ResetPasswordSentPage,
});

function ResetPasswordSentPage() {
  return (
    <AuthPage title="Check your inbox">
      <Stack gap="xs">
        <Text>{serverTexts.resetPasswordSent}</Text>
        <Text c="dimmed" size="sm">
          Open the link to choose a new password. It can take a minute to arrive; check your spam folder too.
        </Text>
      </Stack>
      <Text size="sm">
        Did not get it? <AnchorLink to="/auth/reset-password/">Request a new link</AnchorLink>
      </Text>
    </AuthPage>
  );
}

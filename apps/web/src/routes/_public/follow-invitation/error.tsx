import { Group, Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPage } from '../../../components/layout/AuthPage';
import { AnchorLink, ButtonLink } from '../../../components/links';

/** Said when the page data carries no error text (SPEC §2: the error data, or an empty object). */
export const genericInvitationErrorText =
  'This invitation link is not valid any more. Ask the person who invited you to send a new one.';

/** SPEC §2: why an invitation link cannot be used, from the page data. */
export const Route = createFileRoute('/_public/follow-invitation/error')({
  component: FollowInvitationErrorPage,
});

function FollowInvitationErrorPage() {
  const { initialData } = Route.useRouteContext();
  const message = initialData.extra.followInvitationError?.message || genericInvitationErrorText;
  return (
    <AuthPage title="This invitation can't be used">
      <Text>{message}</Text>
      <Group justify="space-between">
        <ButtonLink to="/auth/login">Log in</ButtonLink>
        <AnchorLink to="/">Go to home</AnchorLink>
      </Group>
    </AuthPage>
  );
}
